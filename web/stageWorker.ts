/**
 * One of the tab's stage workers (the stages after the first pass), started by the dedup worker: banding
 * (src/bands/bandWorkers.ts) and, where the tab is cross-origin isolated and the sets lie in shared memory, exact
 * Jaccard and the decisions it feeds (src/verify/exactWorkers.ts) — the handlers the CLI's stage workers run.
 */
import { bandHandler, type BandRequest } from '../src/bands/bandWorkers.js';
import { exactHandler, type ExactRequest } from '../src/verify/exactWorkers.js';
import { answerRequests } from '../src/workers/pool.js';

const band = bandHandler();
const exact = exactHandler(); // no files in a tab: every set lies in shared memory

answerRequests(
  {
    postMessage: (message, transfer) => (self as unknown as Worker).postMessage(message, transfer),
    onRequest: (handle) => (self.onmessage = (event: MessageEvent) => handle(event.data)),
  },
  ((request: BandRequest | ExactRequest) =>
    request.type === 'band' || request.type === 'band pairs' ? band(request) : exact(request)) as never,
);
