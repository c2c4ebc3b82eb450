/**
 * `gpudedup cluster --engine spark` (when GPUDEDUP_SPARK=1 or in CI, where
 * .ci/run installs pyspark): on two shards of the sample it equals dedup with
 * the defaults, every statement's plan (the inspection's included) is free of
 * a one-partition step, and its report and audit sample equal DuckDB's; an id
 * in two shards is refused on both engines. Apart from cluster.test.ts so that
 * the two files run side by side.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { sparkWanted } from '../support/spark.js';
import { runCluster } from '../../src/pipeline/cluster/cluster.js';

const SAMPLE = 'data/sample.jsonl.gz';
const dir = tempDir();
const shardsOf = (name: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => join(dir, `${name}-${i + 1}-of-${n}.parquet`));

async function cli(args: string[]): Promise<string> {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** dedup's clusters file of the sample, with its defaults. */
async function dedupClusters(): Promise<string> {
  const clusters = join(dir, 'dedup.csv');
  await cli(['dedup', SAMPLE, '--backend', 'cpu', '--threads', '1', '--clusters', clusters, '-q']);
  return readFileSync(clusters, 'utf8');
}

beforeAll(async () => {
  if (!sparkWanted()) return;
  await Promise.all(
    shardsOf('sample', 2).map((out, i) =>
      cli(['sign', SAMPLE, '--shard', `${i + 1}/2`, '-o', out, '--backend', 'cpu', '--threads', '1', '-q']),
    ),
  );
}, 300_000);

describe.each(['spark'])('sign --shard + cluster on %s', () => {
  if (!sparkWanted())
    it.skip('Spark: set GPUDEDUP_SPARK=1 (and run scripts/install-spark.sh: pyspark on Java 17) to run it; it takes about 3 minutes here', () =>
      undefined);
  else {
    it('equals dedup with the defaults on two shards, and no statement runs in one partition', async () => {
      const want = { clusters: await dedupClusters() };
      const [clusters, explain] = [join(dir, 'spark.csv'), join(dir, 'explain.json')];
      const shards = shardsOf('sample', 2);
      // With the inspection (--report, --audit) too, whose statements must keep to the same rule, and whose
      // report and audit sample must be DuckDB's (test/pipeline/cluster/clusterInspect.test.ts checks DuckDB's against dedup).
      const inspect = (engine: string) => ({
        report: join(dir, `${engine}-report.json`),
        audit: 10,
        auditFile: join(dir, `${engine}-audit.csv`),
      });
      const settings = { shards, maxBucketPairs: 16, keep: { kind: 'first' } as const };
      await runCluster({
        ...settings,
        engine: 'spark',
        clusters,
        inspect: inspect('spark'),
        engineOptions: { explain },
      });
      expect(readFileSync(clusters, 'utf8')).toBe(want.clusters);
      await runCluster({
        ...settings,
        engine: 'duckdb',
        clusters: join(dir, 'duckdb-inspected.csv'),
        inspect: inspect('duckdb'),
        engineOptions: {},
      });
      expect(readFileSync(join(dir, 'spark-audit.csv'), 'utf8')).toBe(
        readFileSync(join(dir, 'duckdb-audit.csv'), 'utf8'),
      );
      const report = (engine: string) => {
        const {
          seconds: _s,
          peakMiB: _p,
          steps: _t,
          backend: _b,
          ...rest
        } = JSON.parse(readFileSync(join(dir, `${engine}-report.json`), 'utf8'));
        return rest;
      };
      expect(report('spark')).toEqual(report('duckdb'));
      const plans = JSON.parse(readFileSync(explain, 'utf8')) as { name: string; plan: string }[];
      expect(plans.map((p) => p.name)).toEqual(
        expect.arrayContaining([
          'buckets',
          'margin_passed',
          'check_ranked',
          'piece_edges',
          'clusters',
          'audit_sliced',
          'audit_chosen',
          'largest_pool',
          'audit_sample',
        ]),
      );
      for (const { name, plan } of plans) {
        const lines = plan.split('\n');
        lines.forEach((line, i) => {
          // A window partitioned by nothing would read `Window [...], [], [...]`.
          if (/\bWindow \[/.test(line)) expect(line, `${name}: ${line}`).not.toMatch(/\], \[\](, \[|$)/);
          // Only the counts of the loop tests, the stats and the report's counts gather into one partition: one row of partial counts per partition.
          if (line.includes('SinglePartition')) {
            expect(lines[i - 1], `${name}: ${line}`).toMatch(/HashAggregate\(keys=\[\], functions=\[(count|max)\(/);
            expect(lines[i + 1], `${name}: ${line}`).toMatch(
              /HashAggregate\(keys=\[\], functions=\[(partial|merge)_(count|max)\(/,
            );
            expect(name === 'stats' || name === 'counts' || name.endsWith('(until)'), name).toBe(true);
          }
        });
      }
    }, 900_000);
  }
});

describe('gpudedup cluster refusals on both engines', () => {
  it('refuses an id in two range shards (each shard checked only its own), naming it', async () => {
    const input = join(dir, 'repeat.jsonl');
    const docs = Array.from({ length: 300 }, (_, i) => ({
      id: i === 0 || i === 299 ? 'twice' : `d${i}`,
      text: `document ${i} ${'word '.repeat(i % 17)}`,
    }));
    writeFileSync(input, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const shards = [1, 2].map((i) => join(dir, `repeat-${i}.parquet`));
    await Promise.all(
      shards.map((out, i) => cli(['sign', input, '--shard', `${i + 1}/2`, '-o', out, '-q', '--shard-lists'])),
    );
    const clusters = join(dir, 'repeat.csv');
    for (const engine of sparkWanted() ? ['duckdb', 'spark'] : ['duckdb']) {
      const result = await runCli(['cluster', ...shards, '--engine', engine, '--clusters', clusters]);
      expect(result.code, engine).toBe(1);
      expect(result.stderr, engine).toMatch(
        /ids must be unique across the shards, and this one is in more than one document: "twice"/,
      );
      expect(existsSync(clusters)).toBe(false);
    }
  }, 300_000);
});
