/**
 * The stages after the first pass on Node's worker threads (the CLI's dedup and the library's): one pool that reads spilled rows in ranges (band keys,
 * the candidates' rows: src/bands/rowWorkers.ts), bands (src/bands/bandWorkers.ts) and, over the first pass's shared
 * sets, computes exact Jaccard and decides pairs (src/verify/exactWorkers.ts).
 */
import type { BandRequest, BandResponse, BandWorkerPool } from '../../bands/bandWorkers.js';
import type { RowRequest, RowResponse, RowWorkerPool } from '../../bands/rowWorkers.js';
import type { SharedSets } from '../../firstPass/sharedSets.js';
import type { StageWorkerPool } from '../dedupDocuments.js';
import type { TableRowsRequest, TableRowsResponse } from '../tableRows.js';
import type { RangeCopyRequest, RangeCopyResponse } from '../../formats/files/rangeCopy.js';
import { exactPairsOn, type ExactPairs, type ExactRequest, type ExactResponse } from '../../verify/exactWorkers.js';
import { WorkerPool, type PoolRequest, type PoolResponse } from '../../workers/workerPool.js';
import { workerScript } from '../../workers/workerScript.js';
import type { CollectRequest } from '../../workers/collect.js';

export interface StageWorkers {
  readonly banding: BandWorkerPool;
  readonly rows: RowWorkerPool;
  /** With the first pass's sets shared. */
  readonly exact?: ExactPairs;
  /** The same threads as dedupDocuments takes them (it posts the sets itself). */
  readonly pool: StageWorkerPool;
  /** The writing pass's table rows. */
  readonly tables: TableRowsPool;
  /** The writing pass's kept lines, copied by byte ranges. */
  readonly copies: RangeCopyPool;
  /** Each started worker collects its garbage (src/workers/collect.ts); settles once all have. */
  collect(): Promise<void>;
  destroy(): void;
}

export interface RangeCopyPool {
  readonly size: number;
  request(worker: number, request: RangeCopyRequest): Promise<RangeCopyResponse>;
}

export interface TableRowsPool {
  readonly size: number;
  request(worker: number, request: TableRowsRequest): Promise<TableRowsResponse>;
}

/** `threads` workers (started on their first request); `destroy` ends them. */
export function nodeStageWorkers(threads: number, sets?: SharedSets): StageWorkers {
  type Request = ExactRequest | BandRequest | RowRequest | TableRowsRequest | RangeCopyRequest | CollectRequest;
  type Response = ExactResponse & BandResponse & RowResponse & TableRowsResponse & RangeCopyResponse;
  const pool = new WorkerPool<Request & PoolRequest, Response & PoolResponse>(
    workerScript(import.meta.url, 'dedup/node/stageWorker.js'),
    threads,
    'stage',
  );
  const request = (worker: number, body: Request, transfer?: readonly ArrayBuffer[]) =>
    pool.request(worker, body as never, transfer);
  return {
    banding: { size: threads, request },
    rows: { size: threads, request },
    exact: sets === undefined ? undefined : exactPairsOn({ size: threads, request }, sets),
    pool: { size: threads, request: (worker, body, transfer) => request(worker, body, transfer) as never },
    tables: { size: threads, request },
    copies: { size: threads, request },
    collect: async () => {
      // A worker not started holds no garbage: starting it only to collect would cost a thread's start-up.
      const started = Array.from({ length: threads }, (_, w) => w).filter((w) => pool.started(w));
      await Promise.all(started.map((w) => request(w, { type: 'collect' })));
    },
    destroy: () => pool.destroy(),
  };
}
