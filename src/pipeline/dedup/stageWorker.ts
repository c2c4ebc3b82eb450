/**
 * Worker thread of the stages after the first pass: banding (src/bands/bandWorkers.ts) and exact Jaccard with the
 * decisions it feeds (src/verify/exactWorkers.ts), reading the spill file through node:fs.
 */
import { bandHandler, type BandRequest } from '../../bands/bandWorkers.js';
import { exactHandler, type ExactRequest } from '../../verify/exactWorkers.js';
import { serveRequests } from '../../workers/workerPool.js';
import { openWords } from './wordReader.js';

const band = bandHandler();
const exact = exactHandler(openWords);

serveRequests(((request: BandRequest | ExactRequest) =>
  request.type === 'band' || request.type === 'band pairs' ? band(request) : exact(request)) as never);
