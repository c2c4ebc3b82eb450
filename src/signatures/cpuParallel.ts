/**
 * The CPU backend on several cores (Node): each batch is cut into contiguous
 * document ranges of about equal shingle counts, signed by worker threads with
 * the same signBatchOnCpu, and joined back in order. Results are identical to
 * CpuSigner's; only the wall time changes.
 */
import { availableParallelism } from 'node:os';
import { splitByWeight } from '../workers/splitByWeight.js';
import { WorkerPool } from '../workers/workerPool.js';
import { workerScript } from '../workers/workerScript.js';
import { documentCount, type ShingleBatch, type SignerBackend } from './backend.js';
import { signBatchOnCpu } from './cpuSigner.js';
import type { CpuWorkerRequest, CpuWorkerResponse } from './cpuWorker.js';
import type { HashFamily } from './hashFamily.js';

/** Below this many hash evaluations a batch is signed inline: posting it would cost more. */
const INLINE_EVALUATIONS = 1 << 20;

export class ParallelCpuSigner implements SignerBackend {
  readonly kind = 'cpu' as const;
  readonly description: string;
  readonly k: number;
  /** None with one thread: it signs inline. */
  private readonly pool: WorkerPool<CpuWorkerRequest, CpuWorkerResponse> | undefined;

  constructor(
    private readonly family: HashFamily,
    readonly threads: number = availableParallelism(),
  ) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    this.k = family.k;
    this.description = `CPU (TypeScript, 32-bit lanes, ${threads} thread${threads === 1 ? '' : 's'})`;
    if (threads > 1) this.pool = new WorkerPool(workerScript(import.meta.url, 'signatures/cpuWorker.js'), threads, 'CPU signer');
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    const docs = documentCount(batch);
    const total = batch.offsets[docs];
    if (!this.pool || total * this.k < INLINE_EVALUATIONS || docs < 2) return signBatchOnCpu(this.family, batch);
    const ranges = splitByWeight(batch.offsets, this.threads);
    const parts = await Promise.all(ranges.map(([from, to], i) => this.post(this.pool!, i, batch, from, to)));
    const out = new Uint32Array(docs * this.k * 2);
    ranges.forEach(([from], i) => out.set(parts[i], from * this.k * 2));
    return out;
  }

  destroy(): void {
    this.pool?.destroy();
  }

  private async post(
    pool: WorkerPool<CpuWorkerRequest, CpuWorkerResponse>,
    worker: number,
    batch: ShingleBatch,
    from: number,
    to: number,
  ): Promise<Uint32Array> {
    const first = batch.offsets[from];
    const shingles = batch.shingles.slice(2 * first, 2 * batch.offsets[to]);
    const offsets = batch.offsets.slice(from, to + 1).map((o) => o - first);
    const { seed: _seed, ...family } = this.family; // all but the seed, which signing does not use
    const response = await pool.request(worker, { family, shingles, offsets }, [shingles.buffer as ArrayBuffer, offsets.buffer as ArrayBuffer]);
    return response.signatures!;
  }
}
