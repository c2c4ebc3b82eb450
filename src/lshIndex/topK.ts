/**
 * Top-K queries over the segments' LSH Forests (forest.ts), as Bawa et al.
 * descend them: from the longest prefix down, each step adds the rows that
 * share the query's first r slots in some tree. A document of Jaccard J shares
 * a prefix of r slots in at least one of l trees with probability
 * 1 − (1 − J^r)^l. Each step's rows are rescored as they are met (rerank.ts:
 * every row whose fingerprint agreement is within the estimate's error of the
 * K-th score, by exact Jaccard where the index stores sets), and descent stops
 * at the first r where K rows are held and a document at J = max(the K-th
 * score, TOP_FLOOR) is missed with probability ≤ MISS_PROBABILITY (at 32
 * trees: J ≥ 0.3 at depth 2; J ≥ 0.5 there with 1.0·10^−4). So the answer is
 * the true top K of the rows met, and a better document is left unmet with
 * probability ≤ 0.05, however many near-identical documents surround the
 * K-th (issue 39). With fewer than K held by depth 2 it goes on to one slot,
 * until K are met (datasketch's rule; bounded, no guarantee below the floor);
 * where the K-th is still below the floor (a short query, whose neighbours
 * share too few slots to be met) the rows sharing a sampled shingle with it
 * (postings.ts, as containment finds short items) are rescored too. A row
 * with nothing in common with the query is never returned. Browser-safe.
 */
import type { PrefixForest } from './forest.js';
import { SAMPLE_RATE, sampledKeys, type ShinglePostings } from './postings.js';
import { Ranking } from './rerank.js';
import { RowBuffer } from './rowBuffer.js';
import type { IndexSegment } from './segment.js';
import { missingBelow, queryBits, surelyMissing, worthTesting } from './shingleBitmaps.js';
import type { ForestQuery, RowScorer } from './rowScorer.js';
import type { IndexMatch } from './types.js';

export type { ForestQuery } from './rowScorer.js';

/** The per-document miss probability the descent allows (the recall guarantee: ≥ 0.95). */
export const MISS_PROBABILITY = 0.05;
/** Below this Jaccard a document is returned only if met on the way (no guarantee). */
export const TOP_FLOOR = 0.3;

/**
 * The least Jaccard that one slot meets in one of `trees` trees with
 * probability ≥ 1 − MISS_PROBABILITY (0.089 at 32 trees): where the K-th is
 * below it, the forests cannot promise a better document, and a short query's
 * neighbours are looked up in the sampled postings.
 */
const oneSlotReach = (trees: number): number => 1 - MISS_PROBABILITY ** (1 / trees);

/**
 * Whether a query (its shingle set) is short for the index: an indexed
 * document could hold all of it and still be out of one slot's reach (J =
 * q/x below oneSlotReach) — a sentence among licences, not a page among
 * pages, whose near documents the forests meet. Only then are the sampled
 * postings read (at 100 k documents of overlapping text they cost a long
 * query ten times its descent, for documents at J < 0.09).
 */
function isShort(set: Uint32Array, forests: readonly PrefixForest[]): boolean {
  const q = set.length / 2;
  const reach = oneSlotReach(forests[0].shape.trees);
  return forests.some((forest) => forest.data.largest.some((x) => q < reach * x));
}

/** The probability that a document at Jaccard `j` shares no prefix of `r` slots with the query in any of `trees`. */
export const missProbability = (j: number, r: number, trees: number): number => (1 - j ** r) ** trees;

/** A row met by the descent, with its fingerprint agreement. */
export interface Met {
  readonly segment: number;
  readonly row: number;
  readonly agreement: number;
}

/** collectAtDepth's rows of one segment, kept from query to query (rowBuffer.ts). */
const collected = new RowBuffer();

/**
 * Rows of every tree (in each partition, at the prefix length `depthOf`
 * gives, none at 0) sharing the query's first r slots, each once, handed to
 * `each` a segment at a time in the order met (a view, valid during the call);
 * no more trees are searched once `limit` rows are met.
 */
export function collectAtDepth(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  query: ForestQuery,
  depthOf: (forest: PrefixForest, part: number) => number,
  limit: number,
  each: (segment: number, forest: PrefixForest, rows: Uint32Array) => void,
): void {
  const rows = collected;
  let count = 0;
  forests.forEach((forest, segment) => {
    rows.clear();
    for (let part = 0; part < forest.partitions; part++) {
      const r = depthOf(forest, part);
      if (r <= 0) continue;
      for (let t = 0; t < forest.shape.trees && count + rows.length < limit; t++) {
        forest.collectRange(segments[segment], t, part, query.fingerprints, r, rows);
      }
    }
    count += rows.length;
    each(segment, forest, rows.view());
  });
}

/** The rows collectAtDepth meets, with their fingerprint agreement. */
export function metAtDepth(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  query: ForestQuery,
  depthOf: (forest: PrefixForest, part: number) => number,
  limit = Infinity,
): Met[] {
  const met: Met[] = [];
  collectAtDepth(segments, forests, query, depthOf, limit, (segment, forest, rows) => {
    for (const row of rows) met.push({ segment, row, agreement: forest.agreement(row, query.fingerprints) });
  });
  return met;
}

/** rescoreAtDepth's rows met (segment, row) and their sketch bounds, kept from query to query. */
const descent = { at: new RowBuffer(), rows: new RowBuffer(), bounds: new RowBuffer() };

/**
 * The rows met at depth r rescored as Ranking.rescoreMet would (most agreeing first, in met order among equals, while
 * one could still beat the K-th), measuring a row's agreement only once its sketch's bound could reach the level
 * being read (Ranking.rescoreByLevels): at 1 M a descent to two slots meets ~30,000 rows and reads a handful.
 */
function rescoreAtDepth(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  query: ForestQuery,
  r: number,
  ranking: Ranking,
): void {
  const at = descent.at.clear();
  const rows = descent.rows.clear();
  const bounds = descent.bounds.clear();
  const each = (segment: number, forest: PrefixForest, found: Uint32Array): void => {
    for (let i = 0; i < found.length; i++) {
      at.push(segment);
      rows.push(found[i]);
    }
    forest.sketchAgreements(found, query.fingerprints, bounds);
  };
  collectAtDepth(segments, forests, query, () => r, Infinity, each);
  const slots = forests[0].slots;
  const [atOf, rowOf] = [at.words, rows.words];
  ranking.rescoreByLevels(
    bounds.view(),
    (i) => Math.round(forests[atOf[i]].agreement(rowOf[i], query.fingerprints) * slots),
    (i, agreement) => ranking.rescore(atOf[i], rowOf[i], agreement / slots),
    slots,
    TOP_FLOOR,
  );
}

/** The `top` most similar live rows: the descent with its rescoring, then, below the floor, the sampled postings. */
export function topMatches(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  postingsOf: (segment: IndexSegment) => ShinglePostings | undefined,
  query: ForestQuery,
  top: number,
  rerank: 'exact' | 'estimate',
  scorer: RowScorer,
): IndexMatch[] {
  for (const forest of forests) forest.beginQuery();
  if (forests.length === 0) return [];
  const { trees, depth } = forests[0].shape;
  const slots = forests[0].slots;
  const set = rerank === 'exact' ? query.set : undefined;
  scorer.setQuery(query);
  // Ranked by exact Jaccard, a row's set is read and its estimate only if it is returned (issue 39: the rescoring of
  // a family of thousands is the top-K's cost); the fingerprint agreement orders exact ties meanwhile.
  const below = set === undefined ? undefined : belowKth(forests, set);
  const ranking: Ranking = new Ranking(top, (segment, row, met) => {
    if (set === undefined) return scorer.scores(segments[segment], row, undefined);
    const agreement = met ?? forests[segment].agreement(row, query.fingerprints);
    // A row whose bitmap bounds its Jaccard below the K-th's cannot enter the top K: not read (counted as rescored).
    if (ranking.full && below!(segment, row, ranking.kth, agreement)) return { similarity: 0 };
    return scorer.exactScores(segments[segment], row, set, agreement);
  });
  for (let r = depth; r >= 1 && !ranking.exhausted; r--) {
    // Below the floor's depth (one slot, where a long index shares a slot with nearly any text), only until K
    // are met, as datasketch descends: a bounded best effort, no guarantee.
    const belowFloor = missProbability(TOP_FLOOR, r + 1, trees) <= MISS_PROBABILITY;
    const met = belowFloor ? metAtDepth(segments, forests, query, () => r, top - ranking.count) : undefined;
    if (met === undefined) rescoreAtDepth(segments, forests, query, r, ranking);
    else ranking.rescoreMet(met, slots, TOP_FLOOR);
    const safe = missProbability(Math.max(ranking.kth, TOP_FLOOR), r, trees) <= MISS_PROBABILITY;
    if (ranking.full && (belowFloor || safe)) break;
  }
  if (set !== undefined && isShort(set, forests) && !(ranking.full && ranking.kth >= oneSlotReach(trees)))
    rescoreSharing(segments, forests, postingsOf, set, ranking);
  return ranking.result(
    (segment, row) => segments[segment].id(row),
    (segment, row) => scorer.estimate(segments[segment], row),
  );
}

/**
 * Whether a row's Jaccard with the query (its set) is surely below `kth`: its shingle bitmap (shingleBitmaps.ts)
 * shows it lacks enough of the query's shingles. False where the forest has no bitmaps, and where its fingerprint
 * `agreement` makes the test unlikely to tell (worthTesting); the query's bits are laid out at the first test.
 */
function belowKth(
  forests: readonly PrefixForest[],
  set: Uint32Array,
): (segment: number, row: number, kth: number, agreement: number) => boolean {
  let bits: Uint32Array | undefined;
  const q = set.length / 2;
  return (segment, row, kth, agreement) => {
    const { bitmaps, sizes } = forests[segment].data;
    if (bitmaps === undefined || !worthTesting(agreement, forests[segment].slots, kth, q, sizes[row])) return false;
    const lack = missingBelow(kth, q, sizes[row]);
    bits ??= queryBits(set);
    return lack <= q && surelyMissing(bitmaps, row, bits, lack) >= lack;
  };
}

/** A row found through the postings, and the most Jaccard its hits and size allow. */
interface Sharing {
  readonly segment: number;
  readonly row: number;
  readonly most: number;
}

/**
 * Rows rescored from the postings at most: the best by what their hits allow
 * come first, and a novel long query on an index of boilerplate shares a
 * sampled shingle with thousands, none of them near it.
 */
const sharingBudget = (top: number): number => 4 * top + 64;

/**
 * The most shingles a document shares with the query when `hits` of them are
 * sampled: each shared one is sampled with probability SAMPLE_RATE, so more
 * than this would show more hits but with probability ≈ 10^−3.
 */
const mostShared = (hits: number): number => (hits + 3 * Math.sqrt(hits + 1) + 3) / SAMPLE_RATE;

/**
 * Rows not rescored yet (met by the forests or not) that share a sampled
 * shingle with the query (set), the most promising first (the Jaccard their
 * hits and size allow), rescored while one could still beat the K-th,
 * sharingBudget(K) of them at most. A document holding m of the query's
 * shingles shares a sampled one with probability 1 − (3/4)^m (≥ 0.95 for
 * m ≥ 11).
 */
function rescoreSharing(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  postingsOf: (segment: IndexSegment) => ShinglePostings | undefined,
  set: Uint32Array,
  ranking: Ranking,
): void {
  const keys = sampledKeys(set);
  const q = set.length / 2;
  if (keys.length === 0) return;
  const found: Sharing[] = [];
  forests.forEach((forest, segment) => {
    const postings = postingsOf(forest.segment);
    if (postings === undefined) return;
    // A row may hold the skipped (common, postings.ts) keys unseen: they count as hits for what it may share.
    const { rows, hits, skipped } = postings.hitsOf(keys, 1);
    rows.forEach((row, i) => {
      if (ranking.wasRescored(segment, row) || segments[segment].isRemoved(row)) return;
      const x = forest.data.sizes[row];
      const common = Math.min(q, x, mostShared(hits[i] + skipped));
      found.push({ segment, row, most: common / (q + x - common) });
    });
  });
  found.sort((a, b) => b.most - a.most);
  for (const f of found.slice(0, sharingBudget(ranking.top))) {
    if (ranking.full && f.most <= ranking.kth) break; // nor can any after it: the K-th only rises
    if (!ranking.rescore(f.segment, f.row)) break;
  }
}
