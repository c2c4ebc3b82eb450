/**
 * Top-K queries of a simhash index. Its signatures are 64 one-bit slots, and the forest fingerprints all 64 of them
 * (forest.ts: trees·depth = 64 at k = 64), so a row's fingerprint agreement is exactly its 1 − Hamming / 64, the
 * estimate: no prefix descent is needed, nor would it help (a tree 4 bits deep meets a sixteenth of the index at its
 * longest prefix, nearly all of it over 16 trees). Every live row is met at once (64 fingerprints a row, in memory)
 * and rescored as topK.ts rescores (rerank.ts): most agreeing first, each while it could beat the K-th within the
 * estimate's error, by the exact angle (1 − θ / π of the weighted shingle vectors) where the index stores sets. So
 * the answer is the top K by Hamming distance, reranked by the exact angle among the rows whose Hamming could put them
 * there. A row sharing no shingle with the query (cos θ = 0) is never an answer, as MinHash's row of Jaccard 0; with
 * estimate reranking nothing tells it, and the nearest fingerprints are returned. Browser-safe.
 */
import type { SetMeasure } from '../verify/exactJaccard.js';
import type { PrefixForest } from './forest.js';
import type { IndexParameters } from './options.js';
import type { ShinglePostings } from './postings.js';
import { Ranking } from './rerank.js';
import type { IndexSegment } from './segment.js';
import type { ForestQuery, Met, RowScorer } from './topK.js';
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
  const met: Met[] = [];
  const rows: number[] = [];
  forests.forEach((forest, segment) => {
    rows.length = 0;
    forest.collect(segments[segment], 0, 0, forest.banded, rows);
    for (const row of rows) met.push({ segment, row, agreement: forest.agreement(row, query.fingerprints) });
  });
  ranking.rescoreMet(met, forests[0].slots, 0);
  return ranking.result(
    (segment, row) => segments[segment].id(row),
    (segment, row) => scorer.estimate(segments[segment], row),
  );
}
