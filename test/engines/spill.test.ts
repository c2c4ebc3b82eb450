/**
 * The cluster join under a 256 MB DuckDB memory limit on shards whose
 * signatures alone are 300 MB: DuckDB must spill to the temporary directory
 * and still give the planted clusters. The shard is generated in DuckDB (a
 * planted pair structure, not real text) with the metadata of a real shard.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDuckDb, sqlString } from '../../src/engines/duckdb.js';
import { SHARD_FORMAT, SHARD_META_KEY, type ShardMeta } from '../../src/formats/shardFile.js';
import { runCluster } from '../../src/pipeline/cluster.js';
import { makeParams } from '../../src/signatures/params.js';
import { tempDir } from '../support/cli.js';

const DOCS = 300_000;
const K = 128;
const BANDS = 16;
const ROWS = 8;

/**
 * Pairs (2p, 2p+1) agree on slots 10…127 (118/128 = 0.92) and on bands 2…15;
 * slots 0…9 and bands 0, 1 are the document's own. In every fifth pair the
 * first member takes the previous pair's band 15 instead of its own, so it is
 * a candidate of both previous members, agreeing with them on no slot: pairs
 * that verification must drop.
 */
async function writeSyntheticShard(path: string, shard: { index: number; count: number }): Promise<void> {
  const { connection, close } = await openDuckDb({ memoryLimit: '256MB', threads: 2 });
  try {
    const slot = (s: number): string => (s < 10 ? `CAST(hash(i, ${s}) >> 2 AS BIGINT)` : `CAST(hash(i // 2, ${s}) >> 2 AS BIGINT)`);
    const band = (j: number): string =>
      j < 2 ? `CAST(hash(i, 1000 + ${j}) >> 1 AS BIGINT)` : j === 15 ? `CAST(hash(CASE WHEN i % 10 = 2 THEN i // 2 - 1 ELSE i // 2 END, 1015) >> 1 AS BIGINT)` : `CAST(hash(i // 2, 1000 + ${j}) >> 1 AS BIGINT)`;
    const meta: ShardMeta = {
      format: SHARD_FORMAT,
      params: makeParams({ k: K }),
      lsh: { bands: BANDS, rows: ROWS },
      threshold: 0.8,
      shard,
      documents: DOCS / shard.count,
      totalDocuments: DOCS,
    };
    const columns = [
      `'doc-' || i AS id`,
      'CAST(i AS BIGINT) AS position',
      'CAST(i AS BIGINT) AS exact_lo',
      'CAST(7 AS BIGINT) AS exact_hi',
      'CAST(100 + i % 7 AS BIGINT) AS length',
      ...Array.from({ length: BANDS }, (_, j) => `${band(j)} AS band_${j}`),
      ...Array.from({ length: K }, (_, s) => `${slot(s)} AS slot_${s}`),
    ];
    await connection.run(
      `COPY (SELECT ${columns.join(', ')} FROM range(${DOCS}) t(i) WHERE i % ${shard.count} = ${shard.index}) TO ${sqlString(path)} ` +
        `(FORMAT PARQUET, ROW_GROUP_SIZE 8192, KV_METADATA {${sqlString(SHARD_META_KEY)}: ${sqlString(JSON.stringify(meta))}})`,
    );
  } finally {
    close();
  }
}

describe('cluster on DuckDB under a memory limit', () => {
  it('spills under 256 MB and finds every planted pair', async () => {
    const dir = tempDir();
    const shards = [join(dir, 'a.parquet'), join(dir, 'b.parquet')];
    await writeSyntheticShard(shards[0], { index: 0, count: 2 });
    await writeSyntheticShard(shards[1], { index: 1, count: 2 });
    const spill = join(dir, 'spill');
    let spilled = 0;
    const summary = await runCluster({
      shards,
      engine: 'duckdb',
      maxAllPairs: 16,
      keep: 'first',
      clusters: join(dir, 'clusters.csv'),
      removed: join(dir, 'removed.csv'),
      engineOptions: {
        memoryLimit: '256MB',
        tempDirectory: spill,
        threads: 2,
        onRound: () => {
          try {
            spilled = Math.max(spilled, readdirSync(spill).length);
          } catch {
            // not created yet
          }
        },
      },
    });
    expect(summary.documents).toBe(DOCS);
    expect(summary.clusters).toBe(DOCS / 2);
    expect(summary.removed).toBe(DOCS / 2);
    expect(summary.stats.verified).toBe(DOCS / 2);
    // Each planted cross-bucket member meets both members of the previous pair: two extra candidates.
    expect(summary.stats.candidates).toBe(DOCS / 2 + (2 * DOCS) / 10);
    expect(spilled).toBeGreaterThan(0);
    const lines = readFileSync(join(dir, 'clusters.csv'), 'utf8').split('\n');
    expect(lines.slice(0, 5)).toEqual(['id,cluster,kept', 'doc-0,0,true', 'doc-1,0,false', 'doc-2,1,true', 'doc-3,1,false']);
    const removed = readFileSync(join(dir, 'removed.csv'), 'utf8').split('\n');
    expect(removed.slice(0, 3)).toEqual(['id', 'doc-1', 'doc-3']);
  }, 300_000);
});
