/**
 * Containment queries, |Q ∩ X| / |Q| ≥ C, as LSH Ensemble answers them (Zhu
 * et al., VLDB 2016): the rows are partitioned by set size (forest.ts, powers
 * of two), and in a partition whose sets reach up to u shingles a document
 * containing C·|Q| of the query's has Jaccard at least
 *
 *   t = C·q / (q + u − C·q)        (q = |Q|)
 *
 * so the partition's forests are probed at the longest prefix r at which a
 * document at Jaccard t is missed with probability ≤ MISS_PROBABILITY
 * (1 − (1 − t^r)^l), or at r = 1 where none is (a short Q in long X: t
 * small, no guarantee — bench/RESULTS.md, "Top-k and containment"). A
 * partition whose sets are all smaller than C·q is skipped. Each candidate's
 * containment is estimated from its Jaccard estimate and the set sizes,
 * Ĉ = Ĵ·(q + x) / ((1 + Ĵ)·q), and verified on the shingle sets where the
 * index stores them (the estimate decides otherwise). Browser-safe.
 */
import { exactJaccard } from '../clusters/verification.js';
import type { PrefixForest } from './forest.js';
import type { IndexSegment } from './segment.js';
import { metAtDepth, missProbability, MISS_PROBABILITY, type ForestQuery, type RowScorer } from './topK.js';
import type { IndexMatch } from './types.js';

/** The least Jaccard of Q (q shingles) with a set of at most u shingles that holds C·q of Q's. */
export const jaccardFloor = (c: number, q: number, u: number): number => (c * q) / (q + u - c * q);

/** |Q ∩ X| / |Q| from a Jaccard value and the two sizes (at most 1). */
export function containmentOf(jaccard: number, q: number, x: number): number {
  return q === 0 ? 0 : Math.min(1, (jaccard * (q + x)) / ((1 + jaccard) * q));
}

/** The longest prefix at which a document at Jaccard t is met with probability ≥ 1 − MISS_PROBABILITY; 1 where none. */
export function depthFor(t: number, trees: number, depth: number): number {
  for (let r = depth; r >= 1; r--) if (missProbability(t, r, trees) <= MISS_PROBABILITY) return r;
  return 1;
}

/** The query's containment matches, most contained first (exact where measured). */
export function containmentMatches(segments: readonly IndexSegment[], forests: readonly PrefixForest[], query: ForestQuery, q: number, c: number, scorer: RowScorer): IndexMatch[] {
  if (q === 0 || forests.length === 0) return [];
  for (const forest of forests) forest.beginQuery();
  const depthOf = (forest: PrefixForest, part: number): number => {
    const u = forest.largest[part];
    if (u < c * q) return 0; // no set there can hold C·q of the query's shingles
    return depthFor(jaccardFloor(c, q, u), forest.shape.trees, forest.shape.depth);
  };
  const met = metAtDepth(segments, forests, query, depthOf);
  scorer.setQuery(query);
  const matches: IndexMatch[] = [];
  for (const m of met) {
    const source = segments[m.segment];
    const forest = forests[m.segment];
    const x = forest.sizes[m.row];
    if (x < c * q) continue;
    const similarity = scorer.estimate(source, m.row);
    const containment = containmentOf(similarity, q, x);
    // Sets are read only where the estimate leaves room (three standard errors, and a slot) for containment C.
    const room = 3 * Math.sqrt((similarity * (1 - similarity)) / forest.slots) + 1 / forest.slots;
    if (similarity + room < jaccardFloor(c, q, x)) continue;
    const set = query.set === undefined ? undefined : source.readSet(m.row);
    if (set === undefined) {
      if (containment >= c) matches.push({ id: source.id(m.row), similarity, containment });
      continue;
    }
    const exact = exactJaccard(query.set!, set);
    // |Q ∩ X| recovered from the exact Jaccard: an integer, so the rounding is exact.
    const common = Math.round((exact * (q + set.length / 2)) / (1 + exact));
    const exactContainment = common / q;
    if (exactContainment >= c) matches.push({ id: source.id(m.row), similarity, exact, containment, exactContainment });
  }
  const key = (m: IndexMatch): number => m.exactContainment ?? m.containment ?? 0;
  return matches.sort((a, b) => key(b) - key(a) || b.similarity - a.similarity);
}
