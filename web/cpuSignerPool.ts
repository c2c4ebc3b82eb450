/**
 * The CPU backend on several cores in the tab: each batch is cut into
 * contiguous document ranges of about equal shingle counts (splitByWeight, as
 * the Node pool does), signed by module workers with the same signBatchOnCpu,
 * and joined back in order, so signatures equal CpuSigner's. While the pool
 * signs one batch, the dedup worker shingles the next.
 */
import { documentCount, type ShingleBatch, type SignerBackend } from '../src/signatures/backend.js';
import { signBatchOnCpu } from '../src/signatures/cpuSigner.js';
import type { HashFamily } from '../src/signatures/hashFamily.js';
import { splitByWeight } from '../src/workers/splitByWeight.js';
import type { SignRequest } from './signWorker.js';

/** Below this many hash evaluations a batch is signed inline: posting it would cost more. */
const INLINE_EVALUATIONS = 1 << 20;

export class CpuSignerPool implements SignerBackend {
  readonly kind = 'cpu' as const;
  readonly description: string;
  readonly k: number;
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (words: Uint32Array) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  constructor(
    private readonly family: HashFamily,
    readonly threads: number,
  ) {
    this.k = family.k;
    this.description = `CPU (TypeScript, 32-bit lanes, ${threads} worker${threads === 1 ? '' : 's'})`;
    this.workers = Array.from({ length: threads }, () => {
      const worker = new Worker(new URL('./signWorker.ts', import.meta.url), { type: 'module', name: 'gpudedup signer' });
      worker.onmessage = (event: MessageEvent<{ id: number; signatures: Uint32Array }>) => {
        this.waiting.get(event.data.id)?.resolve(event.data.signatures);
        this.waiting.delete(event.data.id);
      };
      worker.onerror = (event) => {
        for (const w of this.waiting.values()) w.reject(new Error(`a CPU signing worker failed: ${event.message}`));
        this.waiting.clear();
      };
      return worker;
    });
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    const docs = documentCount(batch);
    if (this.threads < 2 || batch.offsets[docs] * this.k < INLINE_EVALUATIONS || docs < 2) return signBatchOnCpu(this.family, batch);
    const ranges = splitByWeight(batch.offsets, this.threads);
    const parts = await Promise.all(ranges.map(([from, to], i) => this.post(i, batch, from, to)));
    const out = new Uint32Array(docs * this.k * 2);
    ranges.forEach(([from], i) => out.set(parts[i], from * this.k * 2));
    return out;
  }

  destroy(): void {
    for (const worker of this.workers) worker.terminate();
    for (const w of this.waiting.values()) w.reject(new Error('the CPU signer was destroyed'));
    this.waiting.clear();
  }

  private post(worker: number, batch: ShingleBatch, from: number, to: number): Promise<Uint32Array> {
    const first = batch.offsets[from];
    const shingles = batch.shingles.slice(2 * first, 2 * batch.offsets[to]);
    const offsets = batch.offsets.slice(from, to + 1).map((o) => o - first);
    const id = this.nextId++;
    const request: SignRequest = { id, family: { k: this.family.k, a: this.family.a, b: this.family.b }, shingles, offsets };
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.workers[worker].postMessage(request, [shingles.buffer, offsets.buffer]);
    });
  }
}
