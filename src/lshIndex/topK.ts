/**
 * Top-K queries over the segments' LSH Forests (forest.ts), as Bawa et al.
 * descend them: from the longest prefix down, each step adds the rows that
 * share the query's first r slots in some tree, until the K best found are
 * safe. A document of Jaccard J shares a prefix of r slots in at least one of
 * l trees with probability 1 − (1 − J^r)^l; descent stops at the first r where
 * K rows were met and that is ≥ 1 − MISS_PROBABILITY for J = max(the K-th
 * best estimate, TOP_FLOOR), so every document at or above both is missed
 * with probability ≤ 0.05 (at 32 trees: J ≥ 0.3 at depth 2; J ≥ 0.5 there
 * with 1.0·10^−4); with fewer than K met it goes on to one slot, until K are
 * met (datasketch's rule; bounded, no guarantee below the floor). The best are
 * then rescored with the full signature and, where the index stores sets,
 * reranked by exact Jaccard. Browser-safe.
 */
import { signatureAgreement, type SignatureMatrix } from '../bands/signatureMatrix.js';
import { exactJaccard } from '../verify/verification.js';
import type { PrefixForest } from './forest.js';
import type { IndexParameters } from './options.js';
import { rowWidthOf, type IndexSegment } from './segment.js';
import type { IndexMatch } from './types.js';

/** The per-document miss probability the descent allows (the recall guarantee: ≥ 0.95). */
export const MISS_PROBABILITY = 0.05;
/** Below this Jaccard a document is returned only if met on the way (no guarantee). */
export const TOP_FLOOR = 0.3;

/** The probability that a document at Jaccard `j` shares no prefix of `r` slots with the query in any of `trees`. */
export const missProbability = (j: number, r: number, trees: number): number => (1 - j ** r) ** trees;

/** The query's row, its forest fingerprints and (where kept) its shingle set. */
export interface ForestQuery {
  readonly words: Uint32Array;
  readonly at: number;
  readonly fingerprints: Uint16Array;
  readonly set?: Uint32Array;
}

/** A row met by the descent, with its fingerprint agreement. */
export interface Met {
  readonly segment: number;
  readonly row: number;
  readonly agreement: number;
}

/** Full-signature estimates and exact Jaccard of the query against rows of the segments. */
export class RowScorer {
  private readonly width: number;
  private readonly pair: Uint32Array;
  private readonly matrix: SignatureMatrix;

  constructor(parameters: IndexParameters) {
    this.width = rowWidthOf(parameters);
    this.pair = new Uint32Array(2 * this.width);
    this.matrix = { words: this.pair, k: parameters.k, slotBits: parameters.slotBits, count: 2 };
  }

  setQuery(query: ForestQuery): void {
    this.pair.set(query.words.subarray(query.at, query.at + this.width), 0);
  }

  estimate(source: IndexSegment, row: number): number {
    source.readRow(row, this.pair, this.width);
    return signatureAgreement(this.matrix, 0, 1);
  }
}

/**
 * Rows of every tree (in each partition, at the prefix length `depthOf`
 * gives, none at 0) sharing the query's first r slots, each once; no more
 * trees are searched once `limit` rows are met.
 */
export function metAtDepth(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  query: ForestQuery,
  depthOf: (forest: PrefixForest, part: number) => number,
  limit = Infinity,
): Met[] {
  const met: Met[] = [];
  const rows: number[] = [];
  forests.forEach((forest, segment) => {
    rows.length = 0;
    for (let part = 0; part < forest.partitions; part++) {
      const r = depthOf(forest, part);
      if (r <= 0) continue;
      for (let t = 0; t < forest.shape.trees && met.length + rows.length < limit; t++) {
        const [lo, hi] = forest.range(t, part, query.fingerprints, r);
        forest.collect(segments[segment], t, lo, hi, rows);
      }
    }
    for (const row of rows) met.push({ segment, row, agreement: forest.agreement(row, query.fingerprints) });
  });
  return met;
}

/** The `top` most similar live rows: the descent, then the rescoring (exact where `rerank` is exact). */
export function topMatches(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  query: ForestQuery,
  top: number,
  rerank: 'exact' | 'estimate',
  scorer: RowScorer,
): IndexMatch[] {
  for (const forest of forests) forest.beginQuery();
  if (forests.length === 0) return [];
  const { trees, depth } = forests[0].shape;
  const pool: Met[] = [];
  for (let r = depth; r >= 1; r--) {
    // Below the floor's depth (one slot, where a long index shares a slot with nearly any text), only until K
    // are met, as datasketch descends: a bounded best effort, no guarantee.
    const belowFloor = missProbability(TOP_FLOOR, r + 1, trees) <= MISS_PROBABILITY;
    pool.push(...metAtDepth(segments, forests, query, () => r, belowFloor ? top - pool.length : Infinity));
    pool.sort((x, y) => y.agreement - x.agreement);
    if (
      pool.length >= top &&
      (belowFloor || missProbability(Math.max(pool[top - 1].agreement, TOP_FLOOR), r, trees) <= MISS_PROBABILITY)
    )
      break;
  }
  return rescored(segments, pool, query, top, rerank, scorer, forests[0].slots);
}

/**
 * The pool's best by fingerprint agreement, and those within three standard
 * errors of the K-th (an estimate's noise could hide a better one there),
 * rescored; the K best by exact Jaccard where measured, else by estimate.
 */
function rescored(
  segments: readonly IndexSegment[],
  pool: readonly Met[],
  query: ForestQuery,
  top: number,
  rerank: 'exact' | 'estimate',
  scorer: RowScorer,
  slots: number,
): IndexMatch[] {
  if (pool.length === 0) return [];
  const kth = pool[Math.min(top, pool.length) - 1].agreement;
  const margin = rerank === 'exact' ? 3 * Math.sqrt((kth * (1 - kth)) / slots) + 1 / slots : 0;
  // (Below the floor no document is promised: no more is read there.)
  const chosen = pool.filter(
    (m, i) => i < top || (m.agreement >= Math.max(kth, TOP_FLOOR) - margin && i < 4 * top + 32),
  );
  scorer.setQuery(query);
  const scored = chosen.map((m) => {
    const source = segments[m.segment];
    const similarity = scorer.estimate(source, m.row);
    const set = rerank === 'exact' && query.set !== undefined ? source.readSet(m.row) : undefined;
    const match: IndexMatch =
      set === undefined
        ? { id: source.id(m.row), similarity }
        : { id: source.id(m.row), similarity, exact: exactJaccard(query.set!, set) };
    return match;
  });
  const key = (m: IndexMatch): number => m.exact ?? m.similarity;
  return scored.sort((x, y) => key(y) - key(x) || y.similarity - x.similarity).slice(0, top);
}
