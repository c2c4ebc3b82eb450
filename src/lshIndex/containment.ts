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
 * (1 − (1 − t^r)^l). A partition where even one slot is not enough (t below
 * ≈ 0.09 at 32 trees: a short Q in long X) is searched through the sampled
 * shingle postings (postings.ts) where the index stores sets — missed with
 * probability ≤ 0.05 when C·q ≥ 11 — else at r = 1, without a guarantee; so
 * is a partition that one slot alone reaches, when C·q ≥ 11 (issue 39: on
 * 1 M documents of overlapping text one slot meets tens of thousands of
 * rows, the postings' least hits a few). A partition whose sets are all
 * smaller than C·q is skipped. Each candidate's containment is estimated
 * from its Jaccard estimate and the set sizes, Ĉ = Ĵ·(q + x) / ((1 + Ĵ)·q)
 * — first from the forest's in-memory fingerprints, which agree wherever the
 * slots do, so only a row they leave in reach is read — and verified on the
 * shingle sets where the index stores them (the estimate decides otherwise).
 * Browser-safe.
 */
import { exactJaccard } from '../verify/verification.js';
import type { PrefixForest } from './forest.js';
import { leastHits, POSTINGS_SURE, sampledKeys, type ShinglePostings } from './postings.js';
import type { IndexSegment } from './segment.js';
import { metAtDepth, missProbability, MISS_PROBABILITY, type ForestQuery, type Met, type RowScorer } from './topK.js';
import type { IndexMatch } from './types.js';

/** The least Jaccard of Q (q shingles) with a set of at most u shingles that holds C·q of Q's. */
export const jaccardFloor = (c: number, q: number, u: number): number => (c * q) / (q + u - c * q);

/** |Q ∩ X| / |Q| from a Jaccard value and the two sizes (at most 1). */
export function containmentOf(jaccard: number, q: number, x: number): number {
  return q === 0 ? 0 : Math.min(1, (jaccard * (q + x)) / ((1 + jaccard) * q));
}

/** The longest prefix that meets a document at Jaccard t with probability ≥ 1 − MISS_PROBABILITY; 0 where none does. */
export function depthFor(t: number, trees: number, depth: number): number {
  for (let r = depth; r >= 1; r--) if (missProbability(t, r, trees) <= MISS_PROBABILITY) return r;
  return 0;
}

export interface ContainmentQuery extends ForestQuery {
  /** |Q|: the query's shingles. */
  readonly q: number;
  readonly c: number;
}

/** The query's containment matches, most contained first (exact where measured). */
export function containmentMatches(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  postingsOf: (segment: IndexSegment) => ShinglePostings | undefined,
  query: ContainmentQuery,
  scorer: RowScorer,
): IndexMatch[] {
  const { q, c } = query;
  if (q === 0 || forests.length === 0) return [];
  for (const forest of forests) forest.beginQuery();
  const byPostings = new Set<number>(); // segments with a partition the forests cannot search
  const depthOf = (forest: PrefixForest, part: number): number => {
    const u = forest.largest[part];
    if (u < c * q) return 0; // no set there can hold C·q of the query's shingles
    const r = depthFor(jaccardFloor(c, q, u), forest.shape.trees, forest.shape.depth);
    const postings = forest.segment.hasSets && query.set !== undefined;
    if (r > 1 || !postings || (r === 1 && c * q < POSTINGS_SURE)) return Math.max(r, 1);
    byPostings.add(forests.indexOf(forest));
    return 0;
  };
  const met = metAtDepth(segments, forests, query, depthOf);
  if (byPostings.size > 0) met.push(...postingCandidates(segments, forests, postingsOf, query, byPostings));
  return verified(segments, forests, met, query, scorer);
}

/** Rows sharing at least leastHits of the query's sampled shingles, not met by the forests. */
function postingCandidates(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  postingsOf: (segment: IndexSegment) => ShinglePostings | undefined,
  query: ContainmentQuery,
  which: Set<number>,
): Met[] {
  const keys = sampledKeys(query.set!);
  const least = leastHits(query.c, query.q, keys.length);
  const met: Met[] = [];
  for (const segment of which) {
    const postings = postingsOf(forests[segment].segment);
    if (postings === undefined) continue;
    for (const row of postings.rowsSharing(keys, least)) {
      // Met through the postings, not the trees: its agreement is bounded by the slots only.
      if (forests[segment].firstMeeting(row) && !segments[segment].isRemoved(row))
        met.push({ segment, row, most: forests[segment].slots });
    }
  }
  return met;
}

function verified(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  met: readonly Met[],
  query: ContainmentQuery,
  scorer: RowScorer,
): IndexMatch[] {
  const { q, c } = query;
  scorer.setQuery(query);
  const matches: IndexMatch[] = [];
  for (const m of met) {
    const source = segments[m.segment];
    const forest = forests[m.segment];
    const x = forest.sizes[m.row];
    if (x < c * q) continue;
    // Sets are read only where the estimate leaves room for containment C: within three standard errors
    // (at the least Jaccard that C allows), and a slot, of that Jaccard. The fingerprints agree wherever the slots
    // do (and by chance, 2^−16 a slot), so a row whose agreement is short of it is not read at all.
    const t = jaccardFloor(c, q, x);
    const least = t - 3 * Math.sqrt((t * (1 - t)) / forest.slots) - 1 / forest.slots;
    // The agreement is read only where it may fall short: at most most / slots (topK.ts, Met), and at least 0.
    if (least > 0 && (m.most / forest.slots < least || forest.agreement(m.row, query.fingerprints) < least)) continue;
    const set = query.set === undefined ? undefined : source.readSet(m.row);
    if (set === undefined) {
      const similarity = scorer.estimate(source, m.row);
      const containment = containmentOf(similarity, q, x);
      if (similarity >= least && containment >= c) matches.push({ id: source.id(m.row), similarity, containment });
      continue;
    }
    const exact = exactJaccard(query.set!, set);
    // |Q ∩ X| recovered from the exact Jaccard: an integer, so the rounding is exact.
    const common = Math.round((exact * (q + set.length / 2)) / (1 + exact));
    const exactContainment = common / q;
    if (exactContainment < c) continue;
    // The row's signature is read for a match only (its estimate is part of the answer).
    const similarity = scorer.estimate(source, m.row);
    matches.push({
      id: source.id(m.row),
      similarity,
      exact,
      containment: containmentOf(similarity, q, x),
      exactContainment,
    });
  }
  const key = (m: IndexMatch): number => m.exactContainment ?? m.containment ?? 0;
  return matches.sort((a, b) => key(b) - key(a) || b.similarity - a.similarity);
}
