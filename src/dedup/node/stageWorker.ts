/**
 * Worker thread of the stages after the first pass: spilled rows read in ranges (src/bands/rowWorkers.ts), banding
 * (src/bands/bandWorkers.ts), exact Jaccard with the decisions it feeds (src/verify/exactWorkers.ts), reading the
 * spill files through node:fs, and the writing pass's table rows (src/dedup/tableRows.ts) and kept lines
 * (src/formats/files/rangeCopy.ts).
 */
import { bandHandler, type BandRequest } from '../../bands/bandWorkers.js';
import { rowHandler, type RowRequest } from '../../bands/rowWorkers.js';
import { exactHandler, type ExactRequest } from '../../verify/exactWorkers.js';
import { tableRowsHandler, type TableRowsRequest } from '../tableRows.js';
import { rangeCopyHandler, type RangeCopyRequest } from '../../formats/files/rangeCopy.js';
import { serveRequests } from '../../workers/workerPool.js';
import { openWords } from '../../workers/wordReader.js';

const band = bandHandler();
const exact = exactHandler(openWords);
const rows = rowHandler(openWords);
const tableRows = tableRowsHandler();
const copyRanges = rangeCopyHandler();

serveRequests(((request: BandRequest | ExactRequest | RowRequest | TableRowsRequest | RangeCopyRequest) => {
  if (request.type === 'band' || request.type === 'band pairs') return band(request);
  if (request.type === 'table rows') return tableRows(request);
  if (request.type === 'copy ranges') return copyRanges(request);
  return request.type === 'row keys' || request.type === 'row copy' ? rows(request) : exact(request);
}) as never);
