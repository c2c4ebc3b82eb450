/** The first pass's workers in Node: worker threads, or this thread alone with one. */
import { firstPassHandler } from '../firstPass/handler.js';
import { InlineWorkers, type FirstPassWorkers } from '../firstPass/ports.js';
import type { FirstPassRequest, FirstPassResponse } from '../firstPass/protocol.js';
import { NODE_SOURCES } from '../io/nodeSources.js';
import { WorkerPool, type PoolRequest, type PoolResponse } from './workerPool.js';
import { workerScript } from './workerScript.js';

export function nodeFirstPassWorkers(threads: number): FirstPassWorkers {
  if (threads <= 1) return new InlineWorkers(firstPassHandler(NODE_SOURCES));
  const script = workerScript(import.meta.url, 'workers/firstPassWorker.js');
  const pool = new WorkerPool<FirstPassRequest & PoolRequest, FirstPassResponse & PoolResponse>(script, threads, 'first pass');
  return {
    size: threads,
    request: (worker, request, transfer) => pool.request(worker, request, transfer),
    destroy: () => pool.destroy(),
  };
}
