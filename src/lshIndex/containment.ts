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
 * A row found through the postings is read only if it shares enough of the
 * query's sampled shingles to hold C of them. Browser-safe.
 */
import { jaccardWith } from '../verify/exactJaccard.js';
import type { PrefixForest } from './forest.js';
import { leastHits, POSTINGS_SURE, sampledKeys, type ShinglePostings } from './postings.js';
import type { IndexSegment } from './segment.js';
import { storedJaccard, type RowScorer } from './rowScorer.js';
import { missingBelowContainment, queryBits, surelyMissing } from './shingleBitmaps.js';
import { collectAtDepth, missProbability, MISS_PROBABILITY, type ForestQuery } from './topK.js';
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
    const u = forest.data.largest[part];
    if (u < c * q) return 0; // no set there can hold C·q of the query's shingles
    const r = depthFor(jaccardFloor(c, q, u), forest.shape.trees, forest.shape.depth);
    const postings = forest.segment.hasSets && query.set !== undefined;
    if (r > 1 || !postings || (r === 1 && c * q < POSTINGS_SURE)) return Math.max(r, 1);
    byPostings.add(forests.indexOf(forest));
    return 0;
  };
  const met: Candidate[] = [];
  collectAtDepth(segments, forests, query, depthOf, Infinity, (segment, _, rows) => {
    for (const row of rows) met.push({ segment, row });
  });
  if (byPostings.size > 0) met.push(...postingCandidates(segments, forests, postingsOf, query, byPostings));
  return verified(segments, forests, met, query, scorer);
}

/**
 * The most of the query's q shingles a document may lack and still hold C
 * of them, as verified() counts (common / q ≥ C).
 */
export function mostMissing(c: number, q: number): number {
  let m = Math.max(0, Math.floor((1 - c) * q) + 1);
  while (m > 0 && (q - m) / q < c) m--;
  return m;
}

/** A row to verify: met by the forests or through the postings. */
interface Candidate {
  readonly segment: number;
  readonly row: number;
}

/**
 * The least fingerprint agreement a row of x shingles needs to be read: within three standard errors (at the least
 * Jaccard that C allows), and a slot, of that Jaccard. At most 0 where any row is read (a short query in a long set).
 */
function leastAgreement(forest: PrefixForest, c: number, q: number, x: number): number {
  const t = jaccardFloor(c, q, x);
  return t - 3 * Math.sqrt((t * (1 - t)) / forest.slots) - 1 / forest.slots;
}

/**
 * Rows sharing at least leastHits of the query's sampled shingles, not met by
 * the forests, that may hold C of them: large enough, agreeing enough where
 * that tells, and sharing enough of its sampled shingles. That last is exact,
 * no estimate (issue 39: a 20-word excerpt of common text shares one
 * sampled shingle with thousands of documents at 1 M, and the 99th
 * percentile read 2,300–4,800 sets): each of the query's sampled keys,
 * common ones aside (postings.ts), that a row is not posted under is a
 * shingle of the query the row lacks, and it may lack mostMissing at most.
 */
function postingCandidates(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  postingsOf: (segment: IndexSegment) => ShinglePostings | undefined,
  query: ContainmentQuery,
  which: Set<number>,
): Candidate[] {
  const { c, q } = query;
  const keys = sampledKeys(query.set!);
  const least = leastHits(c, q, keys.length);
  const found: Candidate[] = [];
  for (const segment of which) {
    const forest = forests[segment];
    const postings = postingsOf(forest.segment);
    if (postings === undefined) continue;
    const { rows, hits, skipped } = postings.hitsOf(keys, least);
    const sure = keys.length - skipped - mostMissing(c, q);
    rows.forEach((row, i) => {
      if (hits[i] < sure || !forest.firstMeeting(row) || segments[segment].isRemoved(row)) return;
      found.push({ segment, row });
    });
  }
  return found;
}

/** The query's shingles as queryBits lays them out, where a set is given and a segment has bitmaps to test. */
export function bitsToTest(
  set: Uint32Array | undefined,
  forests: readonly { readonly data: { readonly bitmaps?: Uint32Array } }[],
): Uint32Array | undefined {
  return set === undefined || forests.every((f) => f.data.bitmaps === undefined) ? undefined : queryBits(set);
}

function verified(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  met: readonly Candidate[],
  query: ContainmentQuery,
  scorer: RowScorer,
): IndexMatch[] {
  const { q, c } = query;
  scorer.setQuery(query);
  const matches: IndexMatch[] = [];
  // Jaccard, whatever the index measures (a containment is a Jaccard's), with the query's table filled once.
  const jaccard = query.set === undefined ? undefined : jaccardWith(query.set);
  // A row that surely lacks `lack` of the query's shingles (its bitmap, shingleBitmaps.ts) holds less than C of them.
  const bits = bitsToTest(query.set, forests);
  const lack = missingBelowContainment(c, q);
  for (const m of met) {
    const source = segments[m.segment];
    const forest = forests[m.segment];
    const x = forest.data.sizes[m.row];
    if (x < c * q) continue;
    // Sets are read only where the estimate leaves room for containment C: within three standard errors
    // (at the least Jaccard that C allows), and a slot, of that Jaccard. The fingerprints agree wherever the slots
    // do (and by chance, 2^−16 a slot), so a row whose agreement is short of it is not read at all.
    const least = leastAgreement(forest, c, q, x);
    // A row is measured only where that can rule it out (agreement ≥ 0), and not where its sketch's bound on the
    // agreement (forest.ts) already does.
    if (least > 0 && forest.sketchAgreement(m.row, query.fingerprints) / forest.slots < least) continue;
    if (least > 0 && forest.agreement(m.row, query.fingerprints) < least) continue;
    const bitmaps = forest.data.bitmaps;
    if (bits !== undefined && bitmaps !== undefined && surelyMissing(bitmaps, m.row, bits, lack) >= lack) continue;
    const stored = jaccard === undefined ? undefined : storedJaccard(jaccard, source, m.row);
    if (stored === undefined) {
      const similarity = scorer.estimate(source, m.row);
      const containment = containmentOf(similarity, q, x);
      if (similarity >= least && containment >= c) matches.push({ id: source.id(m.row), similarity, containment });
      continue;
    }
    const { exact, size } = stored;
    // |Q ∩ X| recovered from the exact Jaccard: an integer, so the rounding is exact.
    const common = Math.round((exact * (q + size)) / (1 + exact));
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
