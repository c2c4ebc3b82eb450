/** The metadata of a one-shard test file of `documents` rows, k slots and one band of one row, with `extra`. */
import type { ShardMeta } from '../../src/formats/shards/shardFile.js';
import { SHARD_FORMAT } from '../../src/formats/shards/shardFile.js';
import { makeParams } from '../../src/signatures/params.js';

export const ONE_BAND = { bands: 1, rows: 1 };

export function oneShardMeta(k: number, documents: number, extra: Partial<ShardMeta> = {}): () => ShardMeta {
  return () => ({
    format: SHARD_FORMAT,
    params: makeParams({ k }),
    lsh: ONE_BAND,
    threshold: 0.8,
    shard: { index: 0, count: 1 },
    documents,
    totalDocuments: documents,
    ...extra,
  });
}
