/**
 * The pool on Node's worker threads (pool.ts has the logic the tab's Web
 * Workers share): the CPU signer, the shingle pool and the first pass differ
 * only in their scripts and what they send.
 */
import { parentPort, Worker } from 'node:worker_threads';
import { answerRequests, END_REQUEST, Pool, type PoolRequest, type PoolResponse, type PoolWorker } from './pool.js';

export type { PoolRequest, PoolResponse } from './pool.js';

export class WorkerPool<Request extends PoolRequest, Response extends PoolResponse> extends Pool<Request, Response> {
  constructor(script: string, size: number, label: string) {
    super(() => threadWorker<Response>(script), size, label);
  }
}

/** How long a thread asked to end may finish its task before it is terminated. */
const END_GRACE_MS = 2000;

export function threadWorker<Response>(script: string): PoolWorker<Response> {
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
    // Asked to end, not terminated: a thread that ends by itself first waits for V8's background compiles of its
    // code (Node's DrainTasks); terminate() skips that wait, and Node 20 aborts the whole process when such a
    // compile outlives the thread (node_platform.cc ForIsolate: "(data.first) != nullptr", seen in CI).
    // Ref'd until it ends: a process that exits first would terminate it. One still busy after a moment (a pool
    // given up mid-task) is terminated.
    end: () => {
      worker.ref();
      worker.postMessage(END_REQUEST);
      setTimeout(() => void worker.terminate(), END_GRACE_MS).unref();
    },
  };
}

/** The worker thread's side: answers each request with what `handle` returns, or the error it threw. */
export function serveRequests<Request extends PoolRequest, Response extends PoolResponse>(
  handle: Parameters<typeof answerRequests<Request, Response>>[1],
): void {
  if (!parentPort) return;
  const port = parentPort;
  answerRequests<Request, Response>(
    {
      postMessage: (m, t) => port.postMessage(m, t),
      // Closing the port leaves the thread nothing to wait on: it ends by itself (see threadWorker's end).
      onRequest: (h) => port.on('message', (message) => (message === END_REQUEST ? port.close() : h(message))),
    },
    handle,
  );
}
