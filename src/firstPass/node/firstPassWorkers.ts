/** The first pass's workers in Node: worker threads, or this thread alone with one. */
import { firstPassHandler } from '../handler.js';
import { InlineWorkers, type FirstPassWorkers } from '../ports.js';
import type { FirstPassRequest, FirstPassResponse } from '../protocol.js';
import { NODE_SOURCES } from './nodeSources.js';
import { WorkerPool, type PoolRequest, type PoolResponse } from '../../workers/workerPool.js';
import { workerScript } from '../../workers/workerScript.js';

export function nodeFirstPassWorkers(threads: number): FirstPassWorkers {
  if (threads <= 1) return new InlineWorkers(firstPassHandler(NODE_SOURCES));
  const script = workerScript(import.meta.url, 'firstPass/node/firstPassWorker.js');
  const pool = new WorkerPool<FirstPassRequest & PoolRequest, FirstPassResponse & PoolResponse>(
    script,
    threads,
    'first pass',
  );
  return {
    size: threads,
    request: (worker, request, transfer) => pool.request(worker, request, transfer),
    destroy: () => pool.destroy(),
  };
}
