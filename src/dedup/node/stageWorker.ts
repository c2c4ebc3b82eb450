/**
 * Worker thread of the stages after the first pass: spilled rows read in ranges (src/bands/rowWorkers.ts), banding
 * (src/bands/bandWorkers.ts), exact Jaccard with the decisions it feeds (src/verify/exactWorkers.ts), reading the
 * spill files through node:fs, the writing pass's table rows (src/dedup/tableRows.ts) and kept lines
 * (src/formats/files/rangeCopy.ts), and garbage collected when asked (src/workers/collect.ts).
 */
import { bandHandler, type BandRequest } from '../../bands/bandWorkers.js';
import { rowHandler, type RowRequest } from '../../bands/rowWorkers.js';
import { exactHandler, type ExactRequest } from '../../verify/exactWorkers.js';
import { tableRowsHandler, type TableRowsRequest } from '../tableRows.js';
import { rangeCopyHandler, type RangeCopyRequest } from '../../formats/files/rangeCopy.js';
import { serveRequests } from '../../workers/workerPool.js';
import { collected, type CollectRequest } from '../../workers/collect.js';
import { openWords } from '../../workers/wordReader.js';

const band = bandHandler();
const exact = exactHandler(openWords);
const rows = rowHandler(openWords);
const tableRows = tableRowsHandler();
const copyRanges = rangeCopyHandler();

type StageRequest = BandRequest | ExactRequest | RowRequest | TableRowsRequest | RangeCopyRequest | CollectRequest;

serveRequests(((request: StageRequest) => {
  if (request.type === 'collect') return collected();
  if (request.type === 'band' || request.type === 'band pairs') return band(request);
  if (request.type === 'table rows') return tableRows(request);
  if (request.type === 'copy ranges') return copyRanges(request);
  return request.type === 'row keys' || request.type === 'row copy' ? rows(request) : exact(request);
}) as never);
