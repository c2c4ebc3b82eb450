/**
 * The tab's compute pool: module workers, one per core, started by the dedup
 * worker, that shingle and sign batches in parallel. Each batch is cut into
 * contiguous ranges of about equal weight (splitByWeight, as the Node pools
 * do: text length for shingling, shingle count for signing) and joined back
 * in order, so the sets and signatures equal the single-threaded ones. While
 * the pool signs batch i, it also shingles batch i + 1 (signDocuments overlaps
 * the two).
 */
import type { Shingler } from '../src/shingles/shingler.js';
import { shingleDocument, type ShingleOptions } from '../src/shingles/shingles.js';
import { documentCount, type ShingleBatch, type SignerBackend } from '../src/signatures/backend.js';
import { CPU_KERNEL_LABELS, openCpuKernel } from '../src/signatures/cpuKernel.js';
import type { HashFamily } from '../src/signatures/hashFamily.js';
import { splitByWeight } from '../src/workers/splitByWeight.js';
import type { ComputeRequest, ComputeResponse } from './computeWorker.js';

/** Below this many hash evaluations a batch is signed inline, below this many characters shingled inline: posting would cost more. */
const INLINE_EVALUATIONS = 1 << 20;
const INLINE_CHARACTERS = 1 << 16;

type Pending = { resolve: (response: ComputeResponse) => void; reject: (error: Error) => void };

export class ComputePool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, Pending>();
  private nextId = 1;

  constructor(readonly threads: number) {
    this.workers = Array.from({ length: threads }, () => {
      const worker = new Worker(new URL('./computeWorker.ts', import.meta.url), { type: 'module', name: 'gpudedup compute' });
      worker.onmessage = (event: MessageEvent<ComputeResponse>) => {
        this.waiting.get(event.data.id)?.resolve(event.data);
        this.waiting.delete(event.data.id);
      };
      worker.onerror = (event) => this.failAll(new Error(`a compute worker failed: ${event.message}`));
      return worker;
    });
  }

  /** The CPU backend on the pool. */
  signer(family: HashFamily): SignerBackend {
    const pool = this;
    const k = family.k;
    const { seed: _seed, ...compact } = family; // all but the seed, which signing does not use
    // The fastest CPU kernel that loads here (wasm SIMD, scalar wasm, TypeScript); the workers load the same.
    const { kernel } = openCpuKernel();
    return {
      kind: 'cpu',
      k,
      description: `CPU (${CPU_KERNEL_LABELS[kernel.name]}, ${this.threads} worker${this.threads === 1 ? '' : 's'})`,
      async sign(batch: ShingleBatch): Promise<Uint32Array> {
        const docs = documentCount(batch);
        if (pool.threads < 2 || batch.offsets[docs] * k < INLINE_EVALUATIONS || docs < 2) return kernel.sign(compact, batch);
        const ranges = splitByWeight(batch.offsets, pool.threads);
        const parts = await Promise.all(
          ranges.map(([from, to], i) => {
            const first = batch.offsets[from];
            const shingles = batch.shingles.slice(2 * first, 2 * batch.offsets[to]);
            const offsets = batch.offsets.slice(from, to + 1).map((o) => o - first);
            return pool.post(i, (id) => ({ id, kind: 'sign', family: compact, kernel: kernel.name, shingles, offsets }), [shingles.buffer, offsets.buffer]);
          }),
        );
        const out = new Uint32Array(docs * k * 2);
        ranges.forEach(([from], i) => out.set(parts[i].words, from * k * 2));
        return out;
      },
      destroy: () => undefined, // the pool is the dedup worker's, destroyed with it
    };
  }

  /** Shingling on the pool (the sets are unpacked back into one array per document). */
  readonly shingler: Shingler = {
    shingleAll: async (texts: readonly string[], options: ShingleOptions): Promise<Uint32Array[]> => {
      const cumulative = new Float64Array(texts.length + 1);
      for (let i = 0; i < texts.length; i++) cumulative[i + 1] = cumulative[i] + texts[i].length;
      if (this.threads < 2 || texts.length < 2 || cumulative[texts.length] < INLINE_CHARACTERS) return texts.map((t) => shingleDocument(t, options));
      const ranges = splitByWeight(cumulative, this.threads);
      const parts = await Promise.all(ranges.map(([from, to], i) => this.post(i, (id) => ({ id, kind: 'shingle', texts: texts.slice(from, to), options }))));
      const sets: Uint32Array[] = [];
      for (const { words, offsets } of parts) for (let d = 0; d + 1 < offsets!.length; d++) sets.push(words.subarray(2 * offsets![d], 2 * offsets![d + 1]));
      return sets;
    },
    destroy: () => undefined,
  };

  destroy(): void {
    for (const worker of this.workers) worker.terminate();
    this.failAll(new Error('the compute pool was stopped'));
  }

  private post(worker: number, make: (id: number) => ComputeRequest, transfer: ArrayBufferLike[] = []): Promise<ComputeResponse> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.workers[worker].postMessage(make(id), transfer as ArrayBuffer[]);
    });
  }

  private failAll(error: Error): void {
    for (const pending of this.waiting.values()) pending.reject(error);
    this.waiting.clear();
  }
}
