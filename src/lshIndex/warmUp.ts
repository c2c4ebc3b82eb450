/**
 * The top-K query's paths compiled before the first query is answered
 * (issue 39): the first top-K query of a process (which builds the forests,
 * seconds at 1 M documents) also queries a few of the index's own rows and
 * drops their answers, so that V8 compiles the descent, the rescoring and the
 * intersection kernel (WebAssembly tiers up too) there, once, as a server
 * pays it at start, and not in the first queries whose rescoring reads a
 * family of ~1,000 rows (at 1 M their first-time cost was the top-10's p99).
 * Compiled code is per thread (isolate): each query thread warms once. The
 * sampled postings are not built for it (short queries' fallback: not asked).
 * Browser-safe.
 */
import { fingerprintsOf, type PrefixForest } from './forest.js';
import type { IndexParameters } from './options.js';
import type { RowScorer } from './rowScorer.js';
import { rowWidthOf, type IndexSegment } from './segment.js';
import { measureOf } from './simhashTopK.js';
import { topMatches } from './topK.js';

/** The index's rows queried, spread evenly over its rows (a few ms each at 1 M documents). */
export const WARM_QUERIES = 32;

/** Whether this thread's top-K paths were warmed (compiled code is per isolate, not per index). */
let warmed = false;

/**
 * Before a Jaccard index's first top-K query (`top` given) of the thread: queries WARM_QUERIES stored rows (their
 * signatures and, where stored, sets) for their top 10, as a query would be asked, and drops the answers. Rows
 * removed or without shingles are skipped.
 */
export function warmTopK(
  segments: readonly IndexSegment[],
  forests: readonly PrefixForest[],
  parameters: IndexParameters,
  scorer: RowScorer,
  top: number | undefined,
): void {
  if (warmed || top === undefined || forests.length === 0 || measureOf(parameters) !== 'jaccard') return;
  warmed = true;
  const words = new Uint32Array(rowWidthOf(parameters));
  const fingerprints = new Uint16Array(forests[0].slots);
  const rerank = segments.every((s) => s.hasSets) ? 'exact' : 'estimate';
  const total = segments.reduce((sum, s) => sum + s.count, 0);
  for (let i = 0; i < WARM_QUERIES && total > 0; i++) {
    let row = Math.floor(((i + 0.5) * total) / WARM_QUERIES);
    const segment = segments.find((s) => row < s.count || ((row -= s.count), false))!;
    const set = rerank === 'exact' ? segment.readSet(row) : undefined;
    if (segment.isRemoved(row) || set?.length === 0) continue;
    segment.readRow(row, words, 0);
    fingerprintsOf(parameters, words, 0, fingerprints);
    topMatches(segments, forests, () => undefined, { words, at: 0, fingerprints, set }, 10, rerank, scorer);
  }
}
