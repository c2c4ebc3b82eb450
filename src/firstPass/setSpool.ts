/**
 * The first pass's shingle sets, kept for exact Jaccard (exact and hybrid
 * verification, the cluster check) instead of a second pass over the corpus:
 * appended group by group as the workers return them, read back for the
 * groups a stage needs (LoadShingleSets). In memory here (the library, the
 * tab); src/pipeline/dedup/setSpill.ts adds a file past a memory share.
 */

import { SetArena, sharedMemoryAvailable, type SharedSets } from './sharedSets.js';
import { freeNow } from '../typedArrays.js';

export type { SharedSets } from './sharedSets.js';

/**
 * The shingle sets of the corpus groups flagged 1 in `needed` (the others may
 * be left undefined), holding at most `budgetBytes` of them: past it the rest
 * stay undefined, and the pairs that needed them are decided by the estimate.
 */
export type LoadShingleSets = (
  needed: Uint8Array,
  budgetBytes: number,
) => Promise<readonly (Uint32Array | undefined)[]>;

/**
 * One corpus group's set, read where it lies (a file): random access to every set, whatever the budget. The
 * array may be reused by the fetches after the next one: a comparison fetches its two sets, then uses them.
 */
export type FetchShingleSet = (group: number) => Uint32Array;

export interface SetSpool {
  /** The next group's set, (lo, hi) pairs. */
  append(set: Uint32Array): void;
  /**
   * The next `count` groups' sets, end to end in `words` (a unit's answer, which nobody changes after): set i is
   * words [2·offsets[i], 2·offsets[i + 1]). `given`: nobody reads its buffer again, so the spool frees it (freeNow)
   * once the sets are copied or written, where it holds no view of it.
   */
  appendRun(words: Uint32Array, offsets: Uint32Array, count: number, given?: boolean): void;
  readonly load: LoadShingleSets;
  /** Any one group's set, read where it lies: exact Jaccard past the load's budget (ShingleSetStore). */
  readonly fetch?: FetchShingleSet;
  /** Where each set lies for worker threads; undefined without shared memory. */
  share?(): SharedSets | undefined;
  /**
   * Whether sets appended now in shared memory would be kept where they lie (SetArena.add), not copied: the first
   * pass then asks its workers for them there (asked again for every unit).
   */
  readonly adoptsShared?: boolean;
  /** Undefined, or a promise to await before the next append so that spilled sets are written behind, not here. */
  room?(): Promise<void> | undefined;
  /** Every set appended is where share() says (a file written behind is complete). */
  drain?(): Promise<void>;
  /** Frees what it holds (a file, where there is one: removed when the promise settles). */
  release(): void | Promise<void>;
}

export class MemorySetSpool implements SetSpool {
  private readonly sets: Uint32Array[] = [];
  /** With `shared`: every set copied into shared chunks, where worker threads read them (exactWorkers.ts). */
  private readonly arena: SetArena | undefined;
  private readonly chunkOf: number[] = [];
  private readonly startOf: number[] = [];

  constructor(shared = false) {
    this.arena = shared && sharedMemoryAvailable() ? new SetArena() : undefined;
  }

  get adoptsShared(): boolean {
    return this.arena !== undefined;
  }

  append(set: Uint32Array): void {
    if (this.arena === undefined) {
      this.sets.push(set); // a view of its unit's buffer, which holds only selected sets
      return;
    }
    const { chunk, start, view } = this.arena.add(set);
    this.chunkOf.push(chunk);
    this.startOf.push(start);
    this.sets.push(view);
  }

  appendRun(words: Uint32Array, offsets: Uint32Array, count: number, given = false): void {
    for (let i = 0; i < count; i++) this.append(words.subarray(2 * offsets[i], 2 * offsets[i + 1]));
    // Copied into the arena (a shared buffer is adopted, never freed): nothing here views the unit's buffer.
    if (given && this.arena !== undefined) freeNow(words.buffer);
  }

  readonly load: LoadShingleSets = async () => this.sets;

  /** Each set where it lies, as the CLI's file spool reads them: the tab's report counts what the CLI's does. */
  readonly fetch: FetchShingleSet = (group) => this.sets[group];

  share(): SharedSets | undefined {
    if (this.arena === undefined) return undefined;
    return {
      chunks: this.arena.chunks,
      chunk: Int32Array.from(this.chunkOf),
      start: Float64Array.from(this.startOf),
      length: Uint32Array.from(this.sets, (set) => set.length),
    };
  }

  release(): void {
    this.sets.length = this.chunkOf.length = this.startOf.length = 0;
    this.arena?.truncate(0, 0);
  }
}
