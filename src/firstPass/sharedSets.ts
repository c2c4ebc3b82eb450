/**
 * The first pass's shingle sets where worker threads can read them too, so
 * that exact Jaccard runs in the workers (src/verify/exactWorkers.ts) with no
 * set copied per pair: the sets held in memory are appended into chunks of
 * SharedArrayBuffer, the others lie in the spill file, and `SharedSets` says
 * where each group's is. Where SharedArrayBuffer is missing (a tab without
 * cross-origin isolation) there is no arena, and the sets stay on the thread
 * that holds them.
 */

import { sharedMemoryAvailable } from '../bands/sharedMemory.js';

export { sharedMemoryAvailable };

/** Where every group's set lies, as a worker reads it. Posted once; the chunks are shared, not copied. */
export interface SharedSets {
  readonly chunks: readonly SharedArrayBuffer[];
  /** Per group: the chunk holding its set, or −1 where it lies in `file`. */
  readonly chunk: Int32Array;
  /** Per group: its first word in its chunk, or in the file. */
  readonly start: Float64Array;
  /** Per group: its length in words ((lo, hi) pairs: twice its shingles). */
  readonly length: Uint32Array;
  /** The spill file (Node), read-only for the workers. */
  readonly file?: string;
  /**
   * Whether pairs are decided in the file's order (src/verify/fileOrder.ts): where the file is larger than the page
   * cache can be expected to hold, so that reading it in candidate order would wait on the disk.
   */
  readonly readInFileOrder?: boolean;
}

/** 16 MiB a chunk: small enough that the last one's unused room is a small part of a memory share. */
const CHUNK_WORDS = 2 ** 22;

/**
 * Sets end to end in shared chunks, in the order they are added: copied into chunks of the arena's own, or, for a set
 * that already lies in a SharedArrayBuffer (a first-pass worker's answer, FinishMode's `sharedSets`), kept where it
 * lies, its buffer adopted as a chunk (no copy on this thread).
 */
export class SetArena {
  readonly chunks: SharedArrayBuffer[] = [];
  /** Words an own chunk holds (a set larger than that gets a chunk of its own size). */
  constructor(private readonly chunkWords = CHUNK_WORDS) {}

  /** The last chunk, while it is the arena's own and has room: copies go there. */
  private words: Uint32Array | undefined;
  /** Words used in `words`. */
  private used = 0;
  /** The chunks this arena allocated (the others were adopted: never written here). */
  private readonly own = new WeakSet<SharedArrayBuffer>();

  /** Its chunk, first word there, and the set where it now lies. A set larger than a chunk gets a chunk of its own. */
  add(set: Uint32Array): { readonly chunk: number; readonly start: number; readonly view: Uint32Array } {
    if (set.buffer instanceof SharedArrayBuffer) return this.adopt(set, set.buffer);
    if (this.words === undefined || this.used + set.length > this.words.length) {
      const buffer = new SharedArrayBuffer(4 * Math.max(this.chunkWords, set.length));
      this.own.add(buffer);
      this.words = new Uint32Array(buffer);
      this.chunks.push(buffer);
      this.used = 0;
    }
    const start = this.used;
    const view = this.words.subarray(start, start + set.length);
    view.set(set);
    this.used += set.length;
    return { chunk: this.chunks.length - 1, start, view };
  }

  private adopt(set: Uint32Array, buffer: SharedArrayBuffer) {
    if (this.chunks.at(-1) !== buffer) {
      this.chunks.push(buffer);
      this.words = undefined;
    }
    return { chunk: this.chunks.length - 1, start: set.byteOffset / 4, view: set };
  }

  /** Forgets everything from word `start` of chunk `chunk` on (the sets added last), freeing the chunks after it. */
  truncate(chunk: number, start: number): void {
    this.chunks.length = Math.max(0, start === 0 ? chunk : chunk + 1);
    const last = this.chunks.at(-1);
    // An adopted chunk is never written into: what was forgotten there may still be on its way to a file.
    this.words = last !== undefined && this.own.has(last) ? new Uint32Array(last) : undefined;
    this.used = start === 0 ? (this.words?.length ?? 0) : start;
  }
}
