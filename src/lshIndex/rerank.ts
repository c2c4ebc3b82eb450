/**
 * The top-K answer as rows are met: each met row that could still be among
 * the K best is rescored (its full-signature estimate and, where the index
 * stores sets, its exact Jaccard), and the K best kept. "Could": its
 * fingerprint agreement is within the estimate's error of the K-th score so
 * far — in a family of near-identical documents every member is, and all are
 * rescored, so the answer is the true top K among the rows met (issue 39).
 * A row with score 0 (exact Jaccard 0, or no slot in common where no set is
 * read) shares nothing with the query and is never kept. At most
 * `rescoreBudget(K)` rows are rescored per query, so a query's cost stays
 * bounded on an index of boilerplate. Browser-safe.
 */
import type { IndexMatch } from './types.js';

/** A row's scores: the full-signature estimate, and exact Jaccard where the sets were read. */
export interface RowScore {
  readonly similarity: number;
  readonly exact?: number;
}

interface Scored extends RowScore {
  readonly segment: number;
  readonly row: number;
}

/** Rows rescored per query at most: every member of a family of a few thousand, and always well past K. */
export const rescoreBudget = (top: number): number => 4096 + 4 * top;

/** Standard errors of slack below the K-th score within which a row's agreement may hide a better one. */
const ERRORS = 3;

/**
 * How far below score `j` the fingerprint agreement over `slots` slots of a
 * document at least as good may fall: three standard errors at the noisiest
 * J ≥ j (the estimate's variance J(1 − J)/slots peaks at 0.5), plus a slot.
 */
export function agreementSlack(j: number, slots: number): number {
  const variance = j < 0.5 ? 0.25 : j * (1 - j);
  return ERRORS * Math.sqrt(variance / slots) + 1 / slots;
}

/** The K largest scores seen, as a binary min-heap: the K-th best in O(1), an offer in O(log K). */
class KBest {
  private readonly heap: number[] = [];

  constructor(private readonly k: number) {}

  get full(): boolean {
    return this.heap.length >= this.k;
  }

  /** The K-th best score; −∞ with fewer than K. */
  get kth(): number {
    return this.full ? this.heap[0] : -Infinity;
  }

  offer(score: number): void {
    const h = this.heap;
    if (!this.full) {
      h.push(score);
      for (let i = h.length - 1; i > 0 && h[(i - 1) >> 1] > h[i]; i = (i - 1) >> 1)
        [h[i], h[(i - 1) >> 1]] = [h[(i - 1) >> 1], h[i]];
    } else if (score > h[0]) {
      h[0] = score;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const m = l + 1 < h.length && h[l + 1] < h[l] ? l + 1 : l;
        if (l >= h.length || h[m] >= h[i]) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
  }
}

/** What a match is ranked by: exact Jaccard where measured, else the estimate. */
export const scoreOf = (m: RowScore): number => m.exact ?? m.similarity;

/** The running top K of one query. */
export class Ranking {
  private readonly best: KBest;
  private readonly kept: Scored[] = [];
  private rescored = 0;
  private readonly budget: number;

  constructor(
    readonly top: number,
    /** Rescores one row. */
    private readonly score: (segment: number, row: number) => RowScore,
  ) {
    this.best = new KBest(top);
    this.budget = rescoreBudget(top);
  }

  /** Whether K rows with something in common are held. */
  get full(): boolean {
    return this.best.full;
  }

  /** The K-th best score; −∞ with fewer than K. */
  get kth(): number {
    return this.best.kth;
  }

  get exhausted(): boolean {
    return this.rescored >= this.budget;
  }

  /** Rows scored (with a positive score) so far. */
  get count(): number {
    return this.kept.length;
  }

  /**
   * Met rows (any order), most agreeing first, each rescored while it could
   * beat the K-th (agreement ≥ K-th − slack) or fewer than K are held; the
   * rest can not, as the K-th only rises.
   */
  rescoreMet(met: readonly { segment: number; row: number; agreement: number }[], slots: number): void {
    const order = [...met].sort((x, y) => y.agreement - x.agreement);
    for (const m of order) {
      if (this.full && m.agreement < this.kth - agreementSlack(this.kth, slots)) break;
      if (!this.rescore(m.segment, m.row)) break;
    }
  }

  /** Rescores one row (false once the budget is spent); kept where it shares something with the query. */
  rescore(segment: number, row: number): boolean {
    if (this.exhausted) return false;
    this.rescored++;
    const scores = this.score(segment, row);
    if (scoreOf(scores) <= 0) return true; // nothing in common: never an answer
    this.kept.push({ segment, row, ...scores });
    this.best.offer(scoreOf(scores));
    return true;
  }

  /** The K best, most similar first (then by estimate), named by `idOf`. */
  result(idOf: (segment: number, row: number) => string): IndexMatch[] {
    return this.kept
      .sort((x, y) => scoreOf(y) - scoreOf(x) || y.similarity - x.similarity)
      .slice(0, this.top)
      .map(({ segment, row, similarity, exact }) =>
        exact === undefined ? { id: idOf(segment, row), similarity } : { id: idOf(segment, row), similarity, exact },
      );
  }
}
