/**
 * The shingle sets that exact Jaccard needs, loaded on demand through the
 * caller's LoadShingleSets (memory in the tab, a pass over the files in Node):
 * each `ensure` asks only for the groups not loaded yet, and nothing at all
 * when they all are, so a pipeline pass reads just what the stage needs.
 */
import { exactJaccard, type ExactSimilarity } from './verification.js';

import type { LoadShingleSets } from '../firstPass/setSpool.js';

export type { LoadShingleSets } from '../firstPass/setSpool.js';

export class ShingleSetStore {
  private readonly sets: (Uint32Array | undefined)[];
  /** Groups whose sets were loaded. */
  loaded = 0;
  /** Calls of the loader that loaded something. */
  loads = 0;
  /** Bytes of the sets held. */
  bytes = 0;
  /** Groups asked for that did not fit the budget. */
  overBudget = 0;

  constructor(
    readonly count: number,
    private readonly load: LoadShingleSets,
    private readonly referenceSets?: readonly Uint32Array[],
    /** Most bytes of corpus sets held at once (the pipeline's share of --memory-limit). */
    private readonly budgetBytes = Number.POSITIVE_INFINITY,
  ) {
    this.sets = new Array<Uint32Array | undefined>(count);
  }

  has(g: number): boolean {
    return g >= this.count ? this.referenceSets?.[g - this.count] !== undefined : this.sets[g] !== undefined;
  }

  /** Loads the flagged groups that are not loaded yet; false when there were none. */
  async ensure(needed: Uint8Array): Promise<boolean> {
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
      // Full: no pass that could load nothing. Their pairs are decided by the estimate (the cluster check keeps them apart).
      this.overBudget = Math.max(this.overBudget, missing.reduce((sum, flag) => sum + flag, 0));
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

  /** Exact Jaccard among corpus groups. */
  readonly corpus: ExactSimilarity = (a, b) => exactJaccard(this.corpusSet(a), this.corpusSet(b));

  /** Exact Jaccard in the combined numbering of decontamination (reference j is count + j). */
  readonly combined: ExactSimilarity = (a, b) => exactJaccard(this.combinedSet(a), this.combinedSet(b));

  private corpusSet(g: number): Uint32Array {
    const set = this.sets[g];
    if (set === undefined) throw new Error(`internal: shingle set of group ${g} was not loaded`);
    return set;
  }

  private combinedSet(i: number): Uint32Array {
    if (i < this.count) return this.corpusSet(i);
    const set = this.referenceSets?.[i - this.count];
    if (set === undefined) throw new Error(`internal: shingle set of reference document ${i - this.count} was not kept`);
    return set;
  }
}
