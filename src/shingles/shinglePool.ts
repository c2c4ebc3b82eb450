/**
 * Shingling on several cores (Node). With a GPU signing, shingling on the
 * main thread is the limit (about 2–3 M shingles/s per core against hundreds
 * of millions of hash evaluations per second on the device), so a batch's
 * texts are cut into contiguous runs of about equal length, shingled by
 * worker threads with the same shingleDocument, and returned in order.
 */
import { availableParallelism } from 'node:os';
import { splitByWeight } from '../workers/splitByWeight.js';
import { WorkerPool } from '../workers/workerPool.js';
import { workerScript } from '../workers/workerScript.js';
import { INLINE_SHINGLER, type Shingler } from './shingler.js';
import type { ShingleOptions } from './shingles.js';
import type { ShingleWorkerRequest, ShingleWorkerResponse } from './shingleWorker.js';

/** Below this many characters a batch is shingled inline: posting it would cost more. */
const INLINE_CHARACTERS = 1 << 16;

export class ShinglePool implements Shingler {
  /** None with one thread: it shingles inline. */
  private readonly pool: WorkerPool<ShingleWorkerRequest, ShingleWorkerResponse> | undefined;

  constructor(readonly threads: number = availableParallelism()) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer, got ${threads}`);
    if (threads > 1) this.pool = new WorkerPool(workerScript(import.meta.url, 'shingles/shingleWorker.js'), threads, 'shingle pool');
  }

  async shingleAll(texts: readonly string[], options: ShingleOptions): Promise<Uint32Array[]> {
    const characters = texts.reduce((n, t) => n + t.length, 0);
    const pool = this.pool;
    if (!pool || texts.length < 2 || characters < INLINE_CHARACTERS) return INLINE_SHINGLER.shingleAll(texts, options);
    const runs = splitByLength(texts, pool.size);
    const parts = await Promise.all(runs.map(([from, to], w) => pool.request(w, { texts: texts.slice(from, to), options })));
    const sets: Uint32Array[] = [];
    for (const { shingles, offsets } of parts) {
      for (let i = 0; i + 1 < offsets!.length; i++) sets.push(shingles!.subarray(2 * offsets![i], 2 * offsets![i + 1]));
    }
    return sets;
  }

  destroy(): void {
    this.pool?.destroy();
  }
}

/** Cuts texts into at most `parts` contiguous runs of about equal total length. */
export function splitByLength(texts: readonly string[], parts: number): Array<[number, number]> {
  const cumulative = new Float64Array(texts.length + 1);
  texts.forEach((text, i) => (cumulative[i + 1] = cumulative[i] + text.length));
  return splitByWeight(cumulative, parts);
}
