/**
 * Top-K queries of a simhash index. Its signatures are 64 one-bit slots, and the forest fingerprints all 64 of them
 * (forest.ts: trees·depth = 64 at k = 64), so a row's fingerprint agreement is exactly its 1 − Hamming / 64, the
 * estimate: no prefix descent is needed, nor would it help (a tree 4 bits deep meets a sixteenth of the index at its
 * longest prefix, nearly all of it over 16 trees). Every live row is met at once (its 64 fingerprints packed into a
 * 64-bit fingerprint once per forest, then popcount of XOR; a top-10 query over 50 k documents took 6 ms with near neighbours, 14 ms without, where
 * the rescoring spends its budget on rows that share nothing) and rescored as topK.ts
 * rescores (rerank.ts): most agreeing first, each while it could beat the K-th within the
 * estimate's error, by the exact angle (1 − θ / π of the weighted shingle vectors) where the index stores sets. So
 * the answer is the top K by Hamming distance, reranked by the exact angle among the rows whose Hamming could put them
 * there. A row sharing no shingle with the query (cos θ = 0) is never an answer, as MinHash's row of Jaccard 0; with
 * estimate reranking nothing tells it, and the nearest fingerprints are returned. Browser-safe.
 */
import type { SetMeasure } from '../verify/exactJaccard.js';
import type { PrefixForest } from './forest.js';
import type { IndexParameters } from './options.js';
import type { ShinglePostings } from './postings.js';
import { Ranking, rescoreBudget } from './rerank.js';
import type { IndexSegment } from './segment.js';
import type { RowScorer } from './rowScorer.js';
import type { ForestQuery, Met } from './topK.js';
import type { IndexMatch } from './types.js';

/** What an index's exact decisions measure: Jaccard, or a simhash index's angle (exactJaccard.ts). */
export const measureOf = (p: Pick<IndexParameters, 'scheme'>): SetMeasure =>
  p.scheme === 'simhash' ? 'angular' : 'jaccard';

/** The angular similarity of two sets sharing nothing: cos θ = 0, θ = π / 2. */
const NOTHING_SHARED = 0.5;

export function simhashTopMatches(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  // topMatches' signature: the sampled postings find short queries' Jaccard neighbours, not needed by a full scan.
  _postingsOf: (segment: IndexSegment) => ShinglePostings | undefined,
  query: ForestQuery,
  top: number,
  rerank: 'exact' | 'estimate',
  scorer: RowScorer,
): IndexMatch[] {
  for (const forest of forests) forest.beginQuery();
  if (forests.length === 0) return [];
  const set = rerank === 'exact' ? query.set : undefined;
  scorer.setQuery(query);
  const ranking = new Ranking(top, (segment, row) => {
    if (set === undefined) return scorer.scores(segments[segment], row, undefined);
    const scores = scorer.exactScores(segments[segment], row, set, forests[segment].agreement(row, query.fingerprints));
    // Scored 0, as a Jaccard of 0, so that Ranking drops it.
    return scores.exact === NOTHING_SHARED ? { ...scores, exact: 0 } : scores;
  });
  const met = nearestRows(segments, forests, query.fingerprints, rescoreBudget(top));
  ranking.rescoreMet(met, forests[0].slots, 0);
  return ranking.result(
    (segment, row) => segments[segment].id(row),
    (segment, row) => scorer.estimate(segments[segment], row),
  );
}

/** A forest's rows as fingerprints, (lo, hi) a row, and the fingerprint count they were packed from. */
const packed = new WeakMap<PrefixForest, { readonly length: number; readonly words: Uint32Array }>();

/**
 * The 64 bits of the slots fingerprinted from `at` into out[to], out[to + 1]: a one-bit slot's forest fingerprint is
 * 0 for bit 0 (forest.ts: fingerprint(0, 0)) and not for bit 1, and no other value occurs in a non-empty row.
 */
function packBits(fingerprints: Uint16Array, at: number, out: Uint32Array, to: number): void {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 32; i++) {
    if (fingerprints[at + i] !== 0) lo |= 1 << i;
    if (fingerprints[at + 32 + i] !== 0) hi |= 1 << i;
  }
  out[to] = lo >>> 0;
  out[to + 1] = hi >>> 0;
}

function packedRows(forest: PrefixForest): Uint32Array {
  if (forest.slots !== 64) throw new Error(`internal: a simhash forest fingerprints 64 slots, not ${forest.slots}`);
  const cached = packed.get(forest);
  if (cached !== undefined && cached.length === forest.data.fingerprints.length) return cached.words;
  const rows = forest.data.fingerprints.length / 64;
  const words = new Uint32Array(2 * rows);
  for (let row = 0; row < rows; row++) packBits(forest.data.fingerprints, 64 * row, words, 2 * row);
  packed.set(forest, { length: forest.data.fingerprints.length, words });
  return words;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * Every live row's agreement (64 − Hamming) / 64, the forest's own (forest.agreement: equal fingerprints are equal
 * bits), by popcount of XOR; only the rows the rescoring can reach are returned, in the order it would meet them: it
 * reads at most `budget` rows, nearest first (a stable counting sort, rerank.ts), so the rows past the distance where
 * `budget` are held are never read and are left out.
 */
function nearestRows(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  fingerprints: Uint16Array,
  budget: number,
): Met[] {
  const q = new Uint32Array(2);
  packBits(fingerprints, 0, q, 0);
  const histogram = new Uint32Array(65);
  const scanned = forests.map((forest, segment) => {
    const rows: number[] = [];
    forest.collect(segments[segment], 0, 0, forest.data.banded, rows);
    const words = packedRows(forest);
    const distances = new Uint8Array(rows.length);
    rows.forEach((row, i) => {
      distances[i] = popcount(words[2 * row] ^ q[0]) + popcount(words[2 * row + 1] ^ q[1]);
      histogram[distances[i]]++;
    });
    return { rows, distances };
  });
  let cutoff = 0;
  let held = histogram[0];
  while (cutoff < 64 && held < budget) held += histogram[++cutoff];
  const met: Met[] = [];
  scanned.forEach(({ rows, distances }, segment) => {
    rows.forEach((row, i) => {
      if (distances[i] <= cutoff) met.push({ segment, row, agreement: (64 - distances[i]) / 64 });
    });
  });
  return met;
}
