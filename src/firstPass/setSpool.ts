/**
 * The first pass's shingle sets, kept for exact Jaccard (exact and hybrid
 * verification, the cluster check) instead of a second pass over the corpus:
 * appended group by group as the workers return them, read back for the
 * groups a stage needs (LoadShingleSets). In memory here (the library, the
 * tab); src/pipeline/setSpill.ts adds a file past a memory share.
 */
import type { FetchShingleSet, LoadShingleSets } from '../clusters/shingleSetStore.js';

export interface SetSpool {
  /** The next group's set, (lo, hi) pairs. */
  append(set: Uint32Array): void;
  readonly load: LoadShingleSets;
  /** Any one group's set, read where it lies: exact Jaccard past the load's budget (ShingleSetStore). */
  readonly fetch?: FetchShingleSet;
  /** Frees what it holds (a file, where there is one). */
  release(): void;
}

export class MemorySetSpool implements SetSpool {
  private readonly sets: Uint32Array[] = [];

  append(set: Uint32Array): void {
    this.sets.push(set); // a view of its unit's buffer, which holds only selected sets
  }

  readonly load: LoadShingleSets = async () => this.sets;

  release(): void {
    this.sets.length = 0;
  }
}
