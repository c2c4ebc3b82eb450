/** Worker thread of exact Jaccard (src/verify/exactWorkers.ts), reading the spill file through node:fs. */
import { exactHandler } from '../../verify/exactWorkers.js';
import { serveRequests } from '../../workers/workerPool.js';
import { openWords } from './wordReader.js';

serveRequests(exactHandler(openWords) as never);
