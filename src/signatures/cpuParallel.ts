/**
 * The CPU backend on several cores (Node): each batch is cut into contiguous
 * document ranges of about equal shingle counts, signed by worker threads with
 * the fastest CPU kernel that loads (cpuKernel.ts: wasm SIMD, scalar wasm,
 * TypeScript), and joined back in order. Results are identical to CpuSigner's;
 * only the wall time changes.
 */
import { availableParallelism } from 'node:os';
import { splitByWeight } from '../workers/splitByWeight.js';
import { WorkerPool } from '../workers/workerPool.js';
import { workerScript } from '../workers/workerScript.js';
import { documentCount, type ShingleBatch, type SignerBackend } from './backend.js';
import { CPU_KERNEL_LABELS, openCpuKernel, type CpuKernel, type CpuKernelName } from './cpuKernel.js';
import type { CpuWorkerRequest, CpuWorkerResponse } from './cpuWorker.js';
import type { HashFamily } from './hashFamily.js';

/** Below this many hash evaluations a batch is signed inline: posting it would cost more. */
const INLINE_EVALUATIONS = 1 << 20;

export class ParallelCpuSigner implements SignerBackend {
  readonly kind = 'cpu' as const;
  readonly description: string;
  readonly k: number;
  /** Why a faster kernel was passed over, if one was. */
  readonly notes: readonly string[];
  private readonly kernel: CpuKernel;
  /** None with one thread: it signs inline. */
  private readonly pool: WorkerPool<CpuWorkerRequest, CpuWorkerResponse> | undefined;

  constructor(
    private readonly family: HashFamily,
    readonly threads: number = availableParallelism(),
    preferred: CpuKernelName = 'wasm-simd',
  ) {
    if (!Number.isInteger(threads) || threads < 1)
      throw new RangeError(`threads must be a positive integer, got ${threads}`);
    this.k = family.k;
    // Loaded here too: batches too small to post are signed inline, and the workers load the same kernel.
    const { kernel, notes } = openCpuKernel(preferred);
    this.kernel = kernel;
    this.notes = notes;
    this.description = `CPU (${CPU_KERNEL_LABELS[kernel.name]}, ${threads} thread${threads === 1 ? '' : 's'})`;
    if (threads > 1)
      this.pool = new WorkerPool(workerScript(import.meta.url, 'signatures/cpuWorker.js'), threads, 'CPU signer');
  }

  /** The kernel that signs: 'wasm-simd', 'wasm-scalar' or 'typescript'. */
  get kernelName(): CpuKernelName {
    return this.kernel.name;
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    const docs = documentCount(batch);
    const total = batch.offsets[docs];
    if (!this.pool || total * this.k < INLINE_EVALUATIONS || docs < 2) return this.kernel.sign(this.family, batch);
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
    const response = await pool.request(worker, { family, kernel: this.kernel.name, shingles, offsets }, [
      shingles.buffer as ArrayBuffer,
      offsets.buffer as ArrayBuffer,
    ]);
    return response.signatures!;
  }
}
