/** Exact Jaccard on Node's worker threads: a pool running exactWorker.ts over the first pass's shared sets. */
import type { SharedSets } from '../../firstPass/sharedSets.js';
import { WorkerPool, type PoolRequest, type PoolResponse } from '../../workers/workerPool.js';
import { workerScript } from '../../workers/workerScript.js';
import { exactPairsOn, type ExactPairs, type ExactRequest, type ExactResponse } from '../../verify/exactWorkers.js';

/** `threads` workers over `sets`; `destroy` ends them. */
export function nodeExactWorkers(threads: number, sets: SharedSets): ExactPairs & { destroy(): void } {
  const pool = new WorkerPool<ExactRequest & PoolRequest, ExactResponse & PoolResponse>(
    workerScript(import.meta.url, 'pipeline/dedup/exactWorker.js'),
    threads,
    'exact Jaccard',
  );
  const workers = { size: threads, request: (worker: number, request: ExactRequest) => pool.request(worker, request) };
  return { ...exactPairsOn(workers, sets), destroy: () => pool.destroy() };
}
