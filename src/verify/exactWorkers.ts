/**
 * Exact Jaccard of many pairs on worker threads (Node's, or the tab's Web
 * Workers): the sets are posted once as SharedSets (shared chunks, and the
 * spill file each worker opens itself), then batches of pairs come and their
 * similarities go back. Decisions stay on the calling thread
 * (verification.ts), which gets the same numbers exactJaccard gives there.
 * No Node imports: a worker's file reads come through `OpenWords`.
 */
import type { SharedSets } from '../firstPass/sharedSets.js';
import { exactJaccard } from './exactJaccard.js';

export type ExactRequest =
  | { readonly type: 'sets'; readonly sets: SharedSets }
  | { readonly type: 'similarities'; readonly a: Uint32Array; readonly b: Uint32Array };

export interface ExactResponse {
  readonly similarities?: Float64Array;
}

/** Reads words of a file at a word offset (the spill file, opened read-only in the worker). */
export interface WordReader {
  read(into: Uint32Array, fromWord: number): void;
  close(): void;
}
export type OpenWords = (path: string) => WordReader;

/** Exact Jaccard of the pairs (a[i], b[i]), in parallel: what `exactJaccard` of their sets gives. */
export interface ExactPairs {
  similarities(a: Uint32Array, b: Uint32Array, onProgress?: (done: number) => void): Promise<Float64Array>;
}

/** The worker's side: holds the posted SharedSets and answers batches. */
export function exactHandler(openWords?: OpenWords) {
  let sets: SharedSets | undefined;
  let chunks: Uint32Array[] = [];
  let file: WordReader | undefined;
  const a = new FileSetCache();
  const b = new FileSetCache();
  const setOf = (g: number, cache: FileSetCache): Uint32Array => {
    const { chunk, start, length } = sets!;
    if (chunk[g] >= 0) return chunks[chunk[g]].subarray(start[g], start[g] + length[g]);
    if (file === undefined)
      throw new Error(`exact workers: the set of group ${g} lies in a file this worker cannot read`);
    return cache.read(file, g, start[g], length[g]);
  };
  return (request: ExactRequest): { response: ExactResponse; transfer: ArrayBuffer[] } => {
    if (request.type === 'sets') {
      file?.close();
      sets = request.sets;
      chunks = sets.chunks.map((chunk) => new Uint32Array(chunk));
      file = sets.file === undefined ? undefined : openWords?.(sets.file);
      a.clear();
      b.clear();
      return { response: {}, transfer: [] };
    }
    if (sets === undefined) throw new Error('exact workers: pairs came before the sets');
    const out = new Float64Array(request.a.length);
    for (let i = 0; i < out.length; i++) out[i] = exactJaccard(setOf(request.a[i], a), setOf(request.b[i], b));
    return { response: { similarities: out }, transfer: [out.buffer] };
  };
}

/** The last set read from the file into a reused buffer: a batch's pairs often share their first document. */
class FileSetCache {
  private group = -1;
  private words = new Uint32Array(4096);
  private view = this.words.subarray(0, 0);

  read(file: WordReader, g: number, start: number, length: number): Uint32Array {
    if (g === this.group) return this.view;
    if (this.words.length < length) this.words = new Uint32Array(Math.max(length, 2 * this.words.length));
    this.view = this.words.subarray(0, length);
    if (length > 0) file.read(this.view, start);
    this.group = g;
    return this.view;
  }

  clear(): void {
    this.group = -1;
  }
}

/** Pairs a batch: enough to keep a worker busy for a few milliseconds per message. */
const BATCH_PAIRS = 4096;

/** Workers that run `exactHandler`, whatever starts them. */
export interface ExactWorkerPool {
  readonly size: number;
  request(worker: number, request: ExactRequest): Promise<ExactResponse>;
}

/**
 * ExactPairs over workers that run `exactHandler`: the sets posted to each once, then batches, two in flight a
 * worker.
 */
export function exactPairsOn(pool: ExactWorkerPool, sets: SharedSets): ExactPairs {
  let posted: Promise<unknown> | undefined;
  return {
    async similarities(a, b, onProgress) {
      posted ??= Promise.all(Array.from({ length: pool.size }, (_, w) => pool.request(w, { type: 'sets', sets })));
      await posted;
      const out = new Float64Array(a.length);
      let next = 0;
      let done = 0;
      const feed = async (worker: number): Promise<void> => {
        while (next < a.length) {
          const from = next;
          const to = Math.min(a.length, from + BATCH_PAIRS);
          next = to;
          const response = await pool.request(worker, {
            type: 'similarities',
            a: a.slice(from, to),
            b: b.slice(from, to),
          });
          out.set(response.similarities!, from);
          done += to - from;
          onProgress?.(done);
        }
      };
      await Promise.all(Array.from({ length: 2 * pool.size }, (_, i) => feed(i % pool.size)));
      return out;
    },
  };
}
