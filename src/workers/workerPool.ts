/**
 * The pool on Node's worker threads (pool.ts has the logic the tab's Web
 * Workers share): the CPU signer, the shingle pool and the first pass differ
 * only in their scripts and what they send.
 */
import { parentPort, Worker } from 'node:worker_threads';
import { answerRequests, Pool, type PoolRequest, type PoolResponse, type PoolWorker } from './pool.js';

export type { PoolRequest, PoolResponse } from './pool.js';

export class WorkerPool<Request extends PoolRequest, Response extends PoolResponse> extends Pool<Request, Response> {
  constructor(script: string, size: number, label: string) {
    super(() => threadWorker<Response>(script), size, label);
  }
}

function threadWorker<Response>(script: string): PoolWorker<Response> {
  // A worker inherits node's flags, but --input-type (a script given with -e) is refused for a worker's file:
  // only then pass the flags, without it (and without heap sizes, which a worker's execArgv may not carry).
  const refused = process.execArgv.some((flag) => flag.startsWith('--input-type'));
  const execArgv = refused
    ? process.execArgv.filter((flag) => !flag.startsWith('--input-type') && !flag.startsWith('--max-old-space-size'))
    : undefined;
  const worker = new Worker(script, execArgv === undefined ? {} : { execArgv });
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer as ArrayBuffer[]),
    listen: (onMessage, onFailure) => {
      worker.on('message', onMessage);
      worker.on('error', (error) => onFailure(new Error(`failed: ${error.message}`)));
      worker.on('exit', (code) => onFailure(new Error(`exited (code ${code})`)));
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    terminate: () => void worker.terminate(),
  };
}

/** The worker thread's side: answers each request with what `handle` returns, or the error it threw. */
export function serveRequests<Request extends PoolRequest, Response extends PoolResponse>(
  handle: Parameters<typeof answerRequests<Request, Response>>[1],
): void {
  if (!parentPort) return;
  const port = parentPort;
  answerRequests<Request, Response>(
    { postMessage: (m, t) => port.postMessage(m, t), onRequest: (h) => port.on('message', h) },
    handle,
  );
}
