/**
 * The top-K answer as rows are met: each met row that could still be among
 * the K best is rescored (its full-signature estimate and, where the index
 * stores sets, its exact Jaccard), and the K best kept. "Could": its
 * fingerprint agreement is within the estimate's error of the K-th score so
 * far (agreementFloor: a document as good shows less with probability
 * ≤ 10^−4) — in a family of near-identical documents every member is, and all are
 * rescored, so the answer is the true top K among the rows met (issue 39).
 * A row with score 0 (exact Jaccard 0, or no slot in common where no set is
 * read) shares nothing with the query and is never kept. At most
 * `rescoreBudget(K)` rows are rescored per query, so a query's cost stays
 * bounded on an index of boilerplate. Browser-safe.
 */
import { LevelLists, RowBuffer } from './rowBuffer.js';
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

/**
 * Rows rescored per query at most: every member of a family of a thousand,
 * and always well past K. Issue 39: at 1 M documents of overlapping text
 * the 99th percentile of a top-10 query rescored about 1,000 rows; the bound
 * (4,096 + 4K before) keeps one query of a larger family from costing four
 * times that.
 */
export const rescoreBudget = (top: number): number => 1024 + 4 * top;

/**
 * The chance the rescoring may leave a document at least as good as the K-th
 * unread: in a family of 1,000 at the K-th, 0.1 expected.
 */
export const UNREAD_PROBABILITY = 1e-4;

/** ln n! for n = 0 … `up`. */
function logFactorials(up: number): Float64Array {
  const out = new Float64Array(up + 1);
  for (let n = 2; n <= up; n++) out[n] = out[n - 1] + Math.log(n);
  return out;
}

/**
 * The least fingerprint agreement (a multiple of 1/slots) a document at
 * Jaccard ≥ j shows but with probability ≤ UNREAD_PROBABILITY: each of the
 * `slots` slots agrees with probability J, so its agreements are Binomial(slots,
 * J), whose lower quantile falls with J. The exact binomial, not three
 * standard errors: near J = 1 its lower tail is the long one (a document at
 * 0.948 was seen agreeing on 112 of 128 slots, 3.7 standard errors low).
 */
export function agreementFloor(j: number, slots: number): number {
  if (j >= 1) return 1;
  if (j <= 0) return 0;
  const lf = logFactorials(slots);
  const [lp, lq] = [Math.log(j), Math.log1p(-j)];
  let below = 0; // P(X < a)
  for (let a = 0; a <= slots; a++) {
    const pmf = Math.exp(lf[slots] - lf[a] - lf[slots - a] + a * lp + (slots - a) * lq);
    if (below + pmf > UNREAD_PROBABILITY) return a / slots;
    below += pmf;
  }
  return 1;
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

type MetRow = { segment: number; row: number; agreement: number };

/**
 * Met rows, most agreeing first, the met order kept among equals (a stable
 * sort): a counting sort by agreement·slots, in O(n + slots), for the tens of
 * thousands of rows a descent meets on 1 M documents of overlapping text.
 */
function byAgreement(met: readonly MetRow[], slots: number): MetRow[] {
  const levelOf = (m: MetRow): number => slots - Math.min(slots, Math.max(0, Math.round(m.agreement * slots)));
  const starts = new Uint32Array(slots + 2);
  for (const m of met) starts[levelOf(m) + 1]++;
  for (let l = 1; l <= slots + 1; l++) starts[l] += starts[l - 1];
  const out = new Array<MetRow>(met.length);
  for (const m of met) out[starts[levelOf(m)]++] = m;
  return out;
}

/** byLevel's order, kept from query to query (rowBuffer.ts: tens of thousands of rows a descent at 1 M). */
const order = new RowBuffer();

/**
 * Indices of `levels` (each 0 … slots), highest first, in index order among equals: a counting sort (a view of a
 * buffer the next call reuses).
 */
function byLevel(levels: ArrayLike<number>, slots: number): Uint32Array {
  const starts = new Uint32Array(slots + 2);
  for (let i = 0; i < levels.length; i++) starts[slots - levels[i] + 1]++;
  for (let l = 1; l <= slots + 1; l++) starts[l] += starts[l - 1];
  order.clear().reserve(levels.length);
  const out = order.words;
  for (let i = 0; i < levels.length; i++) out[starts[slots - levels[i]]++] = i;
  order.length = levels.length;
  return order.view();
}

/** rescoreByLevels' rows by level (issue 39: 129 arrays a call, grown push by push, were a fifth of a query's garbage). */
const levels = new LevelLists();

/** What a match is ranked by: exact Jaccard where measured, else the estimate. */
const scoreOf = (m: RowScore): number => m.exact ?? m.similarity;

/** The running top K of one query. */
export class Ranking {
  private readonly best: KBest;
  private readonly kept: Scored[] = [];
  private rescored = 0;
  /** Rows kept at score 1 and similarity 1: once K, no later row can displace one (a tie keeps the earlier). */
  private perfect = 0;
  private readonly budget: number;
  private floor = { kth: Number.NaN, value: 0 };
  /**
   * The rows rescored, by segment, as read (wasRescored's sets are built from them when first asked: only a short
   * query asks). Not a Set of segment·2^32 + row keys: those are heap numbers, one allocation a row read.
   */
  private readonly read: number[][] = [];
  private readSets?: Set<number>[];

  constructor(
    readonly top: number,
    /** Rescores one row; `agreement`, its fingerprint agreement, where the caller measured it already. */
    private readonly score: (segment: number, row: number, agreement?: number) => RowScore,
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

  /**
   * Whether no more rows are rescored: the budget is spent, or K rows are held at score 1 and similarity 1 — the
   * most either can be, so a later row ties them at best, and a tie keeps the row met first (result's stable sort):
   * the answer is settled (issue 39: a family of hundreds of identical copies read one by one).
   */
  get exhausted(): boolean {
    return this.rescored >= this.budget || this.perfect >= this.top;
  }

  /** Rows scored (with a positive score) so far. */
  get count(): number {
    return this.kept.length;
  }

  /**
   * Met rows (any order), most agreeing first, each rescored while fewer
   * than K are held or it could beat the K-th at J ≥ `floor` (its agreement
   * reaches agreementFloor); the rest can not, as the K-th only rises.
   */
  rescoreMet(met: readonly MetRow[], slots: number, floor: number): void {
    for (const m of byAgreement(met, slots)) {
      // Below the floor nothing is promised: a row is read for a better one at J ≥ floor, not for every row that
      // might beat a K-th of 0.1 (on an index of overlapping text, thousands).
      if (this.full && m.agreement < this.floorAt(Math.max(this.kth, floor), slots) - 0.5 / slots) break;
      if (!this.rescore(m.segment, m.row, m.agreement)) break;
    }
  }

  /**
   * What rescoreMet does with rows 0 … n − 1 (n = bounds.length, in met order) of agreements agreementOf(i) (in
   * slots), where bounds[i] ≥ agreementOf(i): each level of agreement, most first, is read in met order while a row
   * could still beat the K-th, and a row's agreement is measured only once its bound reaches the level being read
   * (and handed to `rescore`, in slots).
   */
  rescoreByLevels(
    bounds: ArrayLike<number>,
    agreementOf: (i: number) => number,
    rescore: (i: number, agreement: number) => boolean,
    slots: number,
    floor: number,
  ): void {
    const byBound = byLevel(bounds, slots);
    levels.reset(slots, bounds.length);
    let next = 0;
    const below = (a: number): boolean =>
      this.full && a < Math.round(this.floorAt(Math.max(this.kth, floor), slots) * slots);
    for (let a = slots; a >= 0 && !below(a); a--) {
      for (; next < byBound.length && bounds[byBound[next]] >= a; next++)
        levels.add(agreementOf(byBound[next]), byBound[next]);
      const level = levels.ascending(a);
      for (let j = 0; j < level.length; j++) {
        // As rescoreMet: agreement a/slots below agreementFloor(K-th) − 0.5/slots, i.e. a < that floor in slots.
        if (below(a) || !rescore(level[j], a)) return;
      }
    }
  }

  /** agreementFloor, for the last K-th asked (it changes only when a better row is kept). */
  private floorAt(kth: number, slots: number): number {
    if (this.floor.kth !== kth) this.floor = { kth, value: agreementFloor(kth, slots) };
    return this.floor.value;
  }

  /**
   * Rescores one row (false once the budget is spent); kept where it shares something with the query. `agreement`:
   * its fingerprint agreement where the caller has it (handed to the scorer, which need not measure it again).
   */
  rescore(segment: number, row: number, agreement?: number): boolean {
    if (this.exhausted) return false;
    this.rescored++;
    (this.read[segment] ??= []).push(row);
    if (this.readSets !== undefined) (this.readSets[segment] ??= new Set()).add(row);
    const scores = this.score(segment, row, agreement);
    if (scoreOf(scores) <= 0) return true; // nothing in common: never an answer
    this.kept.push({ segment, row, ...scores });
    this.best.offer(scoreOf(scores));
    if (scoreOf(scores) >= 1 && scores.similarity >= 1) this.perfect++;
    return true;
  }

  /** Whether the row was rescored already (a row met by the forests but not read may still be, from the postings). */
  wasRescored(segment: number, row: number): boolean {
    this.readSets ??= this.read.map((rows) => new Set(rows));
    return this.readSets[segment]?.has(row) ?? false;
  }

  /**
   * The K best, most similar first (then by estimate), named by `idOf`; a row
   * scored exactly gets its estimate from `estimateOf` (its similarity so far
   * may stand in for it).
   */
  result(
    idOf: (segment: number, row: number) => string,
    estimateOf?: (segment: number, row: number) => number,
  ): IndexMatch[] {
    // Only rows at or above the K-th score can be among the K (a family's query keeps ~1,000): the rest are not sorted.
    const kth = this.best.kth;
    return this.kept
      .filter((m) => scoreOf(m) >= kth)
      .sort((x, y) => scoreOf(y) - scoreOf(x) || y.similarity - x.similarity)
      .slice(0, this.top)
      .map(({ segment, row, similarity, exact }) =>
        exact === undefined
          ? { id: idOf(segment, row), similarity }
          : { id: idOf(segment, row), similarity: estimateOf?.(segment, row) ?? similarity, exact },
      );
  }
}
