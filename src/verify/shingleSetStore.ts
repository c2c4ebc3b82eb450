/**
 * The shingle sets that exact Jaccard needs, loaded on demand through the
 * caller's LoadShingleSets (memory in the tab, a pass over the files in Node):
 * each `ensure` asks only for the groups not loaded yet, and nothing at all
 * when they all are, so a pipeline pass reads just what the stage needs.
 *
 * With a FetchShingleSet (the first pass's sets, held or in a temporary
 * file), nothing is loaded: each set is read where it lies when a comparison
 * needs it, and not kept here. Memory is then what the source holds, and no
 * pair waits on a budget: exactness never depends on the memory limit.
 */
import type { ExactSimilarity } from './verification.js';
import { exactSimilarityOf, type SetMeasure } from './exactJaccard.js';
import { PAIR_DECISIONS, type ExactPairs } from './exactWorkers.js';

import type { FetchShingleSet, LoadShingleSets } from '../firstPass/setSpool.js';

export type { FetchShingleSet, LoadShingleSets } from '../firstPass/setSpool.js';

/** Where the sets come from: loads within a budget, or (with `fetch`) any one set on demand. */
export interface ShingleSetSource {
  readonly load: LoadShingleSets;
  readonly fetch?: FetchShingleSet;
  /** Pairs decided on worker threads that read the same sets where they lie (with `fetch`). */
  readonly exact?: ExactPairs;
}

export class ShingleSetStore {
  private readonly sets: (Uint32Array | undefined)[];
  /** Groups whose sets were loaded. */
  loaded = 0;
  /** Calls of the loader that loaded something. */
  loads = 0;
  /** Bytes of the sets held. */
  bytes = 0;
  /** Groups asked for that did not fit the budget (and could not be read on demand). */
  overBudget = 0;
  /** Sets asked of `fetch`. */
  fetches = 0;
  private readonly load: LoadShingleSets;
  private readonly fetch?: FetchShingleSet;
  /** Candidate verification on worker threads, where the source offers it. */
  readonly exact?: ExactPairs;
  /** Groups read on demand at least once (counted in `loaded`). */
  private readonly fetched?: Uint8Array;

  constructor(
    readonly count: number,
    source: LoadShingleSets | ShingleSetSource,
    private readonly referenceSets?: readonly Uint32Array[],
    /** Most bytes of corpus sets held at once (the pipeline's share of --memory-limit). */
    private readonly budgetBytes = Number.POSITIVE_INFINITY,
    /** What `corpus` and `combined` measure: Jaccard, or SimHash's angular similarity. */
    measure: SetMeasure = 'jaccard',
  ) {
    this.similarity = exactSimilarityOf(measure);
    this.sets = new Array<Uint32Array | undefined>(count);
    this.load = typeof source === 'function' ? source : source.load;
    if (typeof source !== 'function' && source.fetch !== undefined) {
      this.fetch = source.fetch;
      this.fetched = new Uint8Array(count);
      if (source.exact !== undefined) this.exact = this.counted(source.exact);
    }
  }

  /** Every set is read where it lies when a comparison needs it (`fetch`): `ensure` loads nothing. */
  get readsWhereTheyLie(): boolean {
    return this.fetch !== undefined;
  }

  has(g: number): boolean {
    if (g >= this.count) return this.referenceSets?.[g - this.count] !== undefined;
    return this.sets[g] !== undefined || this.fetch !== undefined;
  }

  /**
   * Loads the flagged groups that are not loaded yet; false when there were none. With `fetch` it loads
   * nothing: every set is read where it lies (memory or file) when a comparison needs it.
   */
  async ensure(needed: Uint8Array): Promise<boolean> {
    if (this.fetch !== undefined) return false;
    const missing = new Uint8Array(this.count);
    let any = false;
    for (let g = 0; g < this.count; g++) {
      if (needed[g] === 1 && this.sets[g] === undefined) {
        missing[g] = 1;
        any = true;
      }
    }
    if (!any) return false;
    if (this.bytes >= this.budgetBytes) {
      // Full: no pass that could load nothing. Their pairs are decided by the estimate (the cluster check keeps them
      // apart).
      this.overBudget = Math.max(
        this.overBudget,
        missing.reduce((sum, flag) => sum + flag, 0),
      );
      return false;
    }
    const got = await this.load(missing, this.budgetBytes - this.bytes);
    let overBudget = 0;
    for (let g = 0; g < this.count; g++) {
      if (missing[g] !== 1) continue;
      const set = got[g];
      if (set === undefined) overBudget++;
      else {
        this.sets[g] = set;
        this.bytes += set.byteLength;
        this.loaded++;
      }
    }
    this.overBudget = Math.max(this.overBudget, overBudget);
    this.loads++;
    return true;
  }

  /** Both sets at hand (combined numbering: reference j is count + j). */
  readonly known = (a: number, b: number): boolean => this.has(a) && this.has(b);

  /** Exact similarity among corpus groups, by the store's measure (Jaccard, or SimHash's angle). */
  private readonly similarity: (x: Uint32Array, y: Uint32Array) => number;
  readonly corpus: ExactSimilarity = (a, b) => this.similarity(this.corpusSet(a), this.corpusSet(b));

  /** The same in the combined numbering of decontamination (reference j is count + j). */
  readonly combined: ExactSimilarity = (a, b) => this.similarity(this.combinedSet(a), this.combinedSet(b));

  private corpusSet(g: number): Uint32Array {
    const set = this.sets[g];
    if (set !== undefined) return set;
    if (this.fetch === undefined) throw new Error(`internal: shingle set of group ${g} was not loaded`);
    this.countFetch(g);
    return this.fetch(g);
  }

  private countFetch(g: number): void {
    this.fetches++;
    if (this.fetched![g] === 0) {
      this.fetched![g] = 1;
      this.loaded++;
    }
  }

  /** `exact` with the sets its workers read counted as the ones read here (the report's figures stay the same). */
  private counted(exact: ExactPairs): ExactPairs {
    return {
      decide: (matrix, pairs, rule, onBatch, onProgress) =>
        exact.decide(
          matrix,
          pairs,
          rule,
          (from, batch) => {
            for (let i = 0; i < batch.decisions.length; i++) {
              if (!PAIR_DECISIONS[batch.decisions[i]].startsWith('exact')) continue;
              this.countFetch(pairs.a[from + i]);
              this.countFetch(pairs.b[from + i]);
            }
            onBatch(from, batch);
          },
          onProgress,
        ),
    };
  }

  private combinedSet(i: number): Uint32Array {
    if (i < this.count) return this.corpusSet(i);
    const set = this.referenceSets?.[i - this.count];
    if (set === undefined)
      throw new Error(`internal: shingle set of reference document ${i - this.count} was not kept`);
    return set;
  }
}
