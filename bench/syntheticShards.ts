/**
 * Synthetic shards for the cluster engine at scale, generated inside DuckDB
 * (no text: planted signatures), with the metadata of real shards. Documents
 * (2p, 2p+1) are a near-duplicate pair: they agree on slots 10…k−1 and bands
 * 2…b−1; slots 0…9 and bands 0, 1 are each document's own. In every fifth pair
 * the first member takes the previous pair's last band instead of its own: two
 * candidates per such pair that verification must drop. Expected: documents/2
 * clusters of two, documents/2 verified pairs, documents/2 + documents/5
 * candidates.
 *
 * With `sets`, each document also gets a shingle list of 200 values, 180 shared
 * with its pair (J = 180/220 ≈ 0.82), and every third pair agrees on slots
 * 20…k−1 only (108 of 128): inside hybrid's margin at t = 0.8 (88…115), so
 * exact Jaccard decides a third of the planted pairs, and accepts them — the
 * same expected answer.
 */
import { openDuckDb, sqlString } from '../src/engines/duckdb.js';
import { SHARD_FORMAT, SHARD_META_KEY, type ShardMeta } from '../src/formats/shards/shardFile.js';
import { makeParams } from '../src/signatures/params.js';

export interface SyntheticShardOptions {
  readonly documents: number;
  readonly k: number;
  readonly bands: number;
  readonly rows: number;
  readonly shard: { readonly index: number; readonly count: number };
  readonly memoryLimit?: string;
  /** Store shingle lists (for --verify hybrid and exact), and put every third pair inside hybrid's margin. */
  readonly sets?: boolean;
}

export async function writeSyntheticShard(path: string, o: SyntheticShardOptions): Promise<void> {
  const { connection, close } = await openDuckDb({ memoryLimit: o.memoryLimit ?? '256MB', threads: 2 });
  try {
    const last = o.bands - 1;
    const own = (s: number): string => (s < 10 ? 'TRUE' : o.sets && s < 20 ? '(i // 2) % 3 = 0' : 'FALSE');
    const slot = (s: number): string => `CAST(hash(CASE WHEN ${own(s)} THEN i ELSE i // 2 END, ${s}) >> 2 AS BIGINT)`;
    const band = (j: number): string =>
      j < 2
        ? `CAST(hash(i, 1000 + ${j}) >> 1 AS BIGINT)`
        : j === last
          ? `CAST(hash(CASE WHEN i % 10 = 2 THEN i // 2 - 1 ELSE i // 2 END, ${1000 + last}) >> 1 AS BIGINT)`
          : `CAST(hash(i // 2, 1000 + ${j}) >> 1 AS BIGINT)`;
    const inShard = Math.floor(o.documents / o.shard.count) + (o.shard.index < o.documents % o.shard.count ? 1 : 0);
    const meta: ShardMeta = {
      format: SHARD_FORMAT,
      params: makeParams({ k: o.k }),
      lsh: { bands: o.bands, rows: o.rows },
      threshold: 0.8,
      shard: o.shard,
      documents: inShard,
      totalDocuments: o.documents,
      sets: o.sets === true,
    };
    const columns = [
      `'doc-' || i AS id`,
      'CAST(i AS BIGINT) AS position',
      'CAST(i AS BIGINT) AS exact_lo',
      'CAST(7 AS BIGINT) AS exact_hi',
      'CAST(100 + i % 7 AS BIGINT) AS length',
      ...Array.from({ length: o.bands }, (_, j) => `${band(j)} AS band_${j}`),
      ...Array.from({ length: o.k }, (_, s) => `${slot(s)} AS slot_${s}`),
      ...(o.sets
        ? [
            '[CAST(hash(CASE WHEN j < 180 THEN i // 2 ELSE i END, 5000 + j) >> 1 AS BIGINT) FOR j IN range(200)] AS shingles',
          ]
        : []),
    ];
    await connection.run(
      `COPY (SELECT ${columns.join(', ')} FROM range(${o.documents}) t(i) WHERE i % ${o.shard.count} = ${o.shard.index}) TO ${sqlString(path)} ` +
        `(FORMAT PARQUET, ROW_GROUP_SIZE 8192, KV_METADATA {${sqlString(SHARD_META_KEY)}: ${sqlString(JSON.stringify(meta))}})`,
    );
  } finally {
    close();
  }
}
