/**
 * The cluster join under a 256 MB DuckDB memory limit on shards whose
 * signatures alone are 300 MB: DuckDB must spill to the temporary directory
 * and still give the planted clusters (bench/syntheticShards.ts: planted
 * pairs, not real text, with the metadata of real shards).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticShard } from '../../bench/syntheticShards.js';
import { runCluster } from '../../src/pipeline/cluster/cluster.js';
import { tempDir } from '../support/cli.js';

const DOCS = 300_000;
const K = 128;
const BANDS = 16;
const ROWS = 8;

const write = (path: string, index: number): Promise<void> =>
  writeSyntheticShard(path, { documents: DOCS, k: K, bands: BANDS, rows: ROWS, shard: { index, count: 2 } });

describe('cluster on DuckDB under a memory limit', () => {
  it('spills under 256 MB and finds every planted pair', async () => {
    const dir = tempDir();
    const shards = [join(dir, 'a.parquet'), join(dir, 'b.parquet')];
    await write(shards[0], 0);
    await write(shards[1], 1);
    const spill = join(dir, 'spill');
    let spilled = 0;
    const summary = await runCluster({
      shards,
      engine: 'duckdb',
      maxBucketPairs: 16,
      keep: { kind: 'first' },
      // Planted signatures, no shingle sets: verification by the estimate, as the planted answer assumes.
      verify: 'estimate',
      clusterCheck: 'none',
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
    expect(lines.slice(0, 5)).toEqual([
      'id,cluster,kept',
      'doc-0,0,true',
      'doc-1,0,false',
      'doc-2,1,true',
      'doc-3,1,false',
    ]);
    const removed = readFileSync(join(dir, 'removed.csv'), 'utf8').split('\n');
    expect(removed.slice(0, 3)).toEqual(['id', 'doc-1', 'doc-3']);
  }, 300_000);
});
