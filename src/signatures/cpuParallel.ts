/**
 * The CPU backend on several cores (Node): each batch is cut into contiguous
 * document ranges of about equal shingle counts, signed by worker threads with
 * the same signBatchOnCpu, and joined back in order. Results are identical to
 * CpuSigner's; only the wall time changes.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
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
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (words: Uint32Array) => void; reject: (error: Error) => void }>();
  /** Requests outstanding per worker: ref() and unref() are a flag, not a count, and sign() calls overlap. */
  private readonly busy: number[];
  private nextId = 0;
  /** Why the signer cannot sign any more: a worker died, or destroy() was called. */
  private broken: Error | undefined;

  constructor(
    private readonly family: HashFamily,
    readonly threads: number = availableParallelism(),
  ) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    this.k = family.k;
    this.description = `CPU (TypeScript, 32-bit lanes, ${threads} thread${threads === 1 ? '' : 's'})`;
    // One thread signs inline: no worker to start.
    const script = threads > 1 ? workerScript(import.meta.url, 'signatures/cpuWorker.js') : '';
    this.workers = Array.from({ length: threads > 1 ? threads : 0 }, () => {
      const worker = new Worker(script);
      worker.on('message', (response: CpuWorkerResponse) => this.settle(response));
      worker.on('error', (error) => this.breakDown(error));
      // A dead worker never answers: fail what waits on it and everything after.
      worker.on('exit', (code) => this.breakDown(new Error(`CPU worker exited (code ${code})`)));
      worker.unref(); // idle workers must not keep the process alive
      return worker;
    });
    this.busy = this.workers.map(() => 0);
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    const docs = documentCount(batch);
    const total = batch.offsets[docs];
    if (this.threads === 1 || total * this.k < INLINE_EVALUATIONS || docs < 2) return signBatchOnCpu(this.family, batch);
    if (this.broken) throw this.broken;
    const ranges = splitByShingles(batch.offsets, this.threads);
    const parts = await Promise.all(ranges.map(([from, to], i) => this.post(i, batch, from, to)));
    const out = new Uint32Array(docs * this.k * 2);
    ranges.forEach(([from], i) => out.set(parts[i], from * this.k * 2));
    return out;
  }

  destroy(): void {
    this.breakDown(new Error('CPU signer destroyed'));
    for (const worker of this.workers) void worker.terminate();
  }

  private post(worker: number, batch: ShingleBatch, from: number, to: number): Promise<Uint32Array> {
    const first = batch.offsets[from];
    const request: CpuWorkerRequest = {
      id: this.nextId++,
      family: { k: this.family.k, a: this.family.a, b: this.family.b },
      shingles: batch.shingles.slice(2 * first, 2 * batch.offsets[to]),
      offsets: batch.offsets.slice(from, to + 1).map((o) => o - first),
    };
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      if (this.busy[worker]++ === 0) this.workers[worker].ref(); // busy: keep the process alive until the answers
      this.workers[worker].postMessage(request, [request.shingles.buffer as ArrayBuffer, request.offsets.buffer as ArrayBuffer]);
    }).finally(() => {
      if (--this.busy[worker] === 0) this.workers[worker].unref();
    }) as Promise<Uint32Array>;
  }

  private settle(response: CpuWorkerResponse): void {
    const waiter = this.waiting.get(response.id);
    if (!waiter) return;
    this.waiting.delete(response.id);
    if (response.signatures) waiter.resolve(response.signatures);
    else waiter.reject(new Error(`CPU worker failed: ${response.error}`));
  }

  private breakDown(error: Error): void {
    this.broken ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.broken);
    this.waiting.clear();
  }
}

/** Cuts documents [0, docs) into at most `parts` contiguous ranges of about equal shingle counts. */
export function splitByShingles(offsets: Uint32Array, parts: number): Array<[number, number]> {
  const docs = offsets.length - 1;
  const total = offsets[docs];
  const ranges: Array<[number, number]> = [];
  let from = 0;
  for (let part = 1; part <= parts && from < docs; part++) {
    const target = (total * part) / parts;
    let to = from + 1;
    while (to < docs && offsets[to] < target) to++;
    if (part === parts) to = docs;
    ranges.push([from, to]);
    from = to;
  }
  return ranges;
}
