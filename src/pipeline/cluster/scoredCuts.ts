/**
 * Where `cluster` on DuckDB cuts the `scored` join into parts (src/engines/scoredSql.ts says why): each part's hash
 * table holds the k slots of its run of documents, and is kept to a share of DuckDB's memory_limit.
 */
import type { ShardMeta } from '../../formats/shards/shardFile.js';
import type { ExactPass } from '../../engines/exactPassSql.js';
import type { EngineOptions } from '../../engines/engine.js';
import { RANGE_POSITION_STRIDE, rangeOffsets } from '../../formats/shards/shardRanges.js';
import { bufferLimit, defaultMemoryLimit, limitBytes } from '../../engines/engine.js';

/**
 * Bytes a document takes in a part's hash table: its position and k slots (8 bytes each), with DuckDB's row header,
 * hash and pointers (about 8 words, measured: the unparted join's 13 GB of spill at 10 M documents).
 */
export const scoredRowBytes = (k: number): number => (k + 8) * 8;

/** The share of DuckDB's memory_limit a part's hash table may take: the rest is for the scans and the join's output. */
export const SCORED_TABLE_SHARE = 0.5;

/**
 * The positions cutting the documents into runs whose slots fit SCORED_TABLE_SHARE of the engine's limit under
 * `memoryLimit` (default defaultMemoryLimit()), the first 0 and the last above every position; undefined where one
 * part does (1 M documents at k = 128 under the default limit). Runs of equal documents in input order: shards read by
 * pieces number their documents i × 2^32 + ordinal, shards of standard input by global position.
 */
export function scoredCuts(
  metas: readonly ShardMeta[],
  k: number,
  memoryLimit = defaultMemoryLimit(),
): number[] | undefined {
  const engineBytes = limitBytes(bufferLimit(memoryLimit));
  const total = metas.reduce((n, m) => n + m.documents, 0);
  if (engineBytes === undefined || total === 0) return undefined;
  const perPart = Math.max(1, Math.floor((engineBytes * SCORED_TABLE_SHARE) / scoredRowBytes(k)));
  const parts = Math.ceil(total / perPart);
  if (parts <= 1) return undefined;
  const ranged = metas[0].ranges !== undefined;
  const offsets = ranged ? rangeOffsets(metas) : [0];
  // The position of the document `g` documents into the input (0-based).
  const positionOf = (g: number): number => {
    let shard = offsets.length - 1;
    while (shard > 0 && offsets[shard] > g) shard--;
    return ranged ? shard * RANGE_POSITION_STRIDE + (g - offsets[shard]) : g;
  };
  const end = ranged ? offsets.length * RANGE_POSITION_STRIDE : total;
  return [0, ...Array.from({ length: parts - 1 }, (_, j) => positionOf(Math.round(((j + 1) * total) / parts))), end];
}

/**
 * How the plan joins on the engine: the exact pass (exactPassSql.ts says why: from the texts on the host for shards
 * with text ranges, Spark's lists intersected in a pair's row, DuckDB's exploded and joined) and, on DuckDB, the
 * `scored` parts.
 */
export function engineJoins(
  config: { readonly engine: string; readonly engineOptions?: Pick<EngineOptions, 'memoryLimit'> },
  metas: readonly ShardMeta[],
  k: number,
  byText: boolean,
): { exactPass: ExactPass; scoredCuts?: number[] } {
  if (config.engine === 'spark') return { exactPass: byText ? 'host' : 'intersect' };
  return { exactPass: byText ? 'host' : 'join', scoredCuts: scoredCuts(metas, k, config.engineOptions?.memoryLimit) };
}
