/**
 * Shingling on several cores (Node). With a GPU signing, shingling on the
 * main thread is the limit (about 2–3 M shingles/s per core against hundreds
 * of millions of hash evaluations per second on the device), so a batch's
 * texts are cut into contiguous runs of about equal length, shingled by
 * worker threads with the same shingleDocument, and returned in order.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerScript } from '../workers/workerScript.js';
import { INLINE_SHINGLER, type Shingler } from './shingler.js';
import type { ShingleOptions } from './shingles.js';
import type { ShingleWorkerRequest, ShingleWorkerResponse } from './shingleWorker.js';

/** Below this many characters a batch is shingled inline: posting it would cost more. */
const INLINE_CHARACTERS = 1 << 16;

export class ShinglePool implements Shingler {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (r: ShingleWorkerResponse) => void; reject: (e: Error) => void }>();
  private nextId = 0;

  constructor(readonly threads: number = availableParallelism()) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    const script = threads > 1 ? workerScript(import.meta.url, 'shingles/shingleWorker.js') : '';
    this.workers = Array.from({ length: threads > 1 ? threads : 0 }, () => {
      const worker = new Worker(script);
      worker.on('message', (response: ShingleWorkerResponse) => this.settle(response));
      worker.on('error', (error) => this.failAll(error));
      worker.unref(); // idle workers must not keep the process alive
      return worker;
    });
  }

  async shingleAll(texts: readonly string[], options: ShingleOptions): Promise<Uint32Array[]> {
    const characters = texts.reduce((n, t) => n + t.length, 0);
    if (this.workers.length === 0 || texts.length < 2 || characters < INLINE_CHARACTERS) {
      return INLINE_SHINGLER.shingleAll(texts, options);
    }
    const runs = splitByLength(texts, this.workers.length, characters);
    const parts = await Promise.all(runs.map(([from, to], w) => this.post(w, texts.slice(from, to), options)));
    const sets: Uint32Array[] = [];
    for (const { shingles, offsets } of parts) {
      for (let i = 0; i + 1 < offsets!.length; i++) sets.push(shingles!.subarray(2 * offsets![i], 2 * offsets![i + 1]));
    }
    return sets;
  }

  destroy(): void {
    for (const worker of this.workers) void worker.terminate();
    this.failAll(new Error('shingle pool destroyed'));
  }

  private post(worker: number, texts: string[], options: ShingleOptions): Promise<ShingleWorkerResponse> {
    const request: ShingleWorkerRequest = { id: this.nextId++, texts, options };
    return new Promise<ShingleWorkerResponse>((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      this.workers[worker].ref(); // busy: keep the process alive until the answer
      this.workers[worker].postMessage(request);
    }).finally(() => this.workers[worker].unref());
  }

  private settle(response: ShingleWorkerResponse): void {
    const waiter = this.waiting.get(response.id);
    if (!waiter) return;
    this.waiting.delete(response.id);
    if (response.error === undefined) waiter.resolve(response);
    else waiter.reject(new Error(`shingle worker failed: ${response.error}`));
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

/** Cuts texts into at most `parts` contiguous runs of about equal total length. */
export function splitByLength(texts: readonly string[], parts: number, total: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let from = 0;
  let seen = 0;
  for (let part = 1; part <= parts && from < texts.length; part++) {
    const target = (total * part) / parts;
    let to = from;
    while (to < texts.length && (to === from || seen + texts[to].length <= target || part === parts)) seen += texts[to++].length;
    runs.push([from, to]);
    from = to;
  }
  return runs;
}
