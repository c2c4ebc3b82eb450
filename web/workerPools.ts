/**
 * The tab's worker pools (src/workers/pool.ts drives them as it drives Node's threads): the first pass's
 * (web/firstPassWorker.ts) and the stages' after it (web/stageWorker.ts), one worker per core each, started on their
 * first request.
 */
import type { BandRequest, BandResponse } from '../src/bands/bandWorkers.js';
import type { StageWorkerPool } from '../src/dedup/dedupDocuments.js';
import type { FirstPassWorkers } from '../src/firstPass/ports.js';
import type { FirstPassRequest, FirstPassResponse } from '../src/firstPass/protocol.js';
import type { ExactRequest, ExactResponse } from '../src/verify/exactWorkers.js';
import { Pool, type PoolRequest, type PoolResponse, type PoolWorker } from '../src/workers/pool.js';

/** The first pass's Web Workers: one per core, started on the first unit. */
export function webFirstPassWorkers(threads: number): FirstPassWorkers {
  const pool = new Pool<FirstPassRequest & PoolRequest, FirstPassResponse & PoolResponse>(
    () =>
      webWorker(
        new Worker(new URL('./firstPassWorker.ts', import.meta.url), { type: 'module', name: 'gpudedup first pass' }),
      ),
    threads,
    'first pass',
  );
  return {
    size: threads,
    request: (worker, request, transfer) => pool.request(worker, request, transfer),
    destroy: () => pool.destroy(),
  };
}

/**
 * The stages' Web Workers (web/stageWorker.ts): one per core, started on the first request, for banding and, in a
 * cross-origin isolated tab, exact Jaccard.
 */
export function webStageWorkers(threads: number): StageWorkerPool & { destroy(): void } {
  const pool = new Pool<(BandRequest | ExactRequest) & PoolRequest, BandResponse & ExactResponse & PoolResponse>(
    () =>
      webWorker(new Worker(new URL('./stageWorker.ts', import.meta.url), { type: 'module', name: 'gpudedup stages' })),
    threads,
    'stage',
  );
  return {
    size: threads,
    request: (worker, request, transfer) => pool.request(worker, request as never, transfer),
    destroy: () => pool.destroy(),
  };
}

/** A Web Worker as the pool drives one. */
function webWorker<Response>(worker: Worker): PoolWorker<Response> {
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer as ArrayBuffer[]),
    listen: (onMessage, onFailure) => {
      worker.onmessage = (event: MessageEvent) => onMessage(event.data);
      worker.onerror = (event) => onFailure(new Error(`failed: ${event.message}`));
    },
    end: () => worker.terminate(),
  };
}
