/**
 * The `scored` join in parts (src/engines/scoredSql.ts, src/pipeline/cluster/scoredCuts.ts): where the documents' slots
 * would pass half of DuckDB's memory_limit, the pairs are scored a run of later documents at a time, each part's joins
 * as written (the hash tables on the pairs and on the run). The cuts fall at equal runs of documents in input order;
 * the parts' union scores every candidate pair as the one join does, so the clusters are the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCliHere, tempDir } from '../support/cli.js';
import { runDuckDb } from '../../src/engines/duckdb.js';
import type { ClusterPlan } from '../../src/engines/clusterSql.js';
import { planFor } from '../../src/pipeline/cluster/cluster.js';
import { scoredCuts, scoredRowBytes } from '../../src/pipeline/cluster/scoredCuts.js';
import type { ShardMeta } from '../../src/formats/shards/shardFile.js';

const STRIDE = 2 ** 32;
/** Metadata of shard `index` of `count` holding `documents`, read by pieces (`ranged`) or from standard input. */
const metaOf = (index: number, count: number, documents: number, ranged = true): ShardMeta =>
  ({
    shard: { index, count },
    documents,
    ranges: ranged ? { plan: 'p', inputBytes: 1, pieces: [] } : undefined,
  }) as unknown as ShardMeta;

describe('scoredCuts', () => {
  it('cuts 10 M documents in two shards into three runs under the default limit of a 24 GiB machine, 1 M into none', () => {
    expect(scoredRowBytes(128)).toBe(1088);
    // 12638MB: DuckDB's 8847MB, half of it is 4.07 M documents' slots.
    const tenMillion = [metaOf(0, 2, 5_000_000), metaOf(1, 2, 5_000_000)];
    expect(scoredCuts(tenMillion, 128, '12638MB')).toEqual([0, 3_333_333, STRIDE + 1_666_667, 2 * STRIDE]);
    expect(scoredCuts([metaOf(0, 2, 500_000), metaOf(1, 2, 500_000)], 128, '12638MB')).toBeUndefined();
    // An empty shard between two: a cut never lands in it.
    const gap = [metaOf(0, 3, 300_000), metaOf(1, 3, 0), metaOf(2, 3, 300_000)];
    expect(scoredCuts(gap, 128, '1GB')).toEqual([0, 2 * STRIDE, 3 * STRIDE]);
    // Shards of standard input number documents by global position.
    const stdin = [metaOf(0, 2, 150_000, false), metaOf(1, 2, 150_000, false)];
    expect(scoredCuts(stdin, 128, '256MB')).toEqual([0, 100_000, 200_000, 300_000]);
  });
});

describe('the scored join in parts', () => {
  it('gives the clusters of the one join on the sample in two shards, with the parts as the cuts say', async () => {
    const dir = tempDir();
    const input = join(dir, 'sample.jsonl');
    writeFileSync(input, gunzipSync(readFileSync('data/sample.jsonl.gz')));
    const shards = [1, 2].map((i) => join(dir, `s${i}.parquet`));
    for (const [i, shard] of shards.entries()) {
      const result = await runCliHere(['sign', input, '--shard', `${i + 1}/2`, '--shard-lists', '-o', shard, '-q']);
      expect(result.code, result.stderr).toBe(0);
    }
    const settings = { shards, engine: 'duckdb' as const, maxBucketPairs: 16, keep: { kind: 'first' as const } };
    const one = (await planFor(settings)).plan;
    // 1MB: 459 documents a part, so the sample's 727 take two.
    const parted = (await planFor({ ...settings, engineOptions: { memoryLimit: '1MB' } })).plan;
    const names = (plan: ClusterPlan): string[] => plan.setup.map((s) => s.name).filter((n) => n.startsWith('scored'));
    expect(names(one)).toEqual(['scored']);
    expect(names(parted)).toEqual(['scored_0', 'scored_1', 'scored']);
    const rowsOf = async (plan: ClusterPlan): Promise<{ rows: string; candidates: number; exact: number }> => {
      const run = await runDuckDb(plan, shards);
      try {
        const rows: string[] = [];
        for await (const chunk of run.rows()) for (const r of chunk) rows.push(`${r.id},${r.cluster},${r.kept}`);
        return { rows: rows.join('\n'), candidates: run.stats.candidates, exact: run.stats.exactPairs };
      } finally {
        await run.close();
      }
    };
    const [want, got] = [await rowsOf(one), await rowsOf(parted)];
    expect(got.rows.split('\n')).toHaveLength(727);
    expect(want.exact).toBeGreaterThan(0);
    expect(got).toEqual(want);
  }, 60_000);
});
