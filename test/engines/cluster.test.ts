/**
 * `gpudedup cluster` against `gpudedup dedup --verify estimate` on the sample
 * corpus, through the built CLI: two shards joined in DuckDB (and in Spark
 * when GPUDEDUP_SPARK=1) give dedup's clusters file byte for byte, and
 * `dedup --clusters-from` gives its kept documents. Both keep policies, and a
 * --max-bucket-pairs small enough that the sample's buckets take the big-bucket
 * rule (star around the first member plus the predecessor chain).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const SAMPLE = 'data/sample.jsonl.gz';
const dir = tempDir();
const shards = [join(dir, 'shard-1.parquet'), join(dir, 'shard-2.parquet')];
const sigs = join(dir, 'sigs.npy');

async function cli(args: string[]): Promise<string> {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** Spark runs in CI (.ci/run installs it: scripts/install-spark.sh) and with GPUDEDUP_SPARK=1; there a missing pyspark fails. */
function sparkWanted(): boolean {
  if (process.env.GPUDEDUP_SPARK !== '1' && !process.env.CI) return false;
  execFileSync('python3', ['-c', 'import pyspark']);
  return true;
}

beforeAll(async () => {
  await Promise.all([
    ...shards.map((out, i) => cli(['sign', SAMPLE, '--shard', `${i + 1}/2`, '-o', out, '--backend', 'cpu', '--threads', '1', '-q'])),
    cli(['sign', SAMPLE, '-o', sigs, '--backend', 'cpu', '--threads', '1', '-q']),
  ]);
}, 240_000);

const variants = [
  { keep: 'first', maxBucketPairs: '16' },
  { keep: 'longest', maxBucketPairs: '2' },
];

async function expected(keep: string, maxBucketPairs: string): Promise<{ clusters: string; kept: string; stdout: string }> {
  const clusters = join(dir, `dedup-${keep}-${maxBucketPairs}.csv`);
  const kept = join(dir, `dedup-${keep}-${maxBucketPairs}.jsonl`);
  const stdout = await cli(['dedup', SAMPLE, '--signatures', sigs, '--verify', 'estimate', '--cluster-check', 'none', '--keep', keep, '--max-bucket-pairs', maxBucketPairs, '--clusters', clusters, '-o', kept]);
  return { clusters: readFileSync(clusters, 'utf8'), kept: readFileSync(kept, 'utf8'), stdout };
}

describe.each(['duckdb', 'spark'])('gpudedup cluster --engine %s on two shards of the sample', (engine) => {
  const run = engine === 'duckdb' || sparkWanted();
  if (!run) it.skip(`Spark: set GPUDEDUP_SPARK=1 (and run scripts/install-spark.sh: pyspark on Java 17) to run it; it takes about 2 minutes here`, () => undefined);
  else {
    it.each(variants)('equals dedup --verify estimate with --keep $keep --max-bucket-pairs $maxBucketPairs', async ({ keep, maxBucketPairs }) => {
      const want = await expected(keep, maxBucketPairs);
      const clusters = join(dir, `${engine}-${keep}-${maxBucketPairs}.csv`);
      const removed = join(dir, `${engine}-${keep}-${maxBucketPairs}-removed.csv`);
      const stdout = await cli(['cluster', ...shards, '--engine', engine, '--keep', keep, '--max-bucket-pairs', maxBucketPairs, '--clusters', clusters, '--removed', removed]);
      expect(readFileSync(clusters, 'utf8')).toBe(want.clusters);
      // The same candidate and verified counts as dedup's summary.
      const candidates = /candidates\s+(\d+) pairs, (\d+) verified; largest bucket (\d+)/;
      expect(stdout.match(candidates)?.slice(1)).toEqual(want.stdout.match(candidates)?.slice(1));
      expect(want.stdout).toMatch(/removed\s+1\d\d/); // a real amount of deduplication to compare

      const wantRemoved = want.clusters.trim().split('\n').slice(1).filter((line) => line.endsWith(',false')).map((line) => line.slice(0, line.lastIndexOf(',', line.length - 7)));
      expect(readFileSync(removed, 'utf8')).toBe(['id', ...wantRemoved].join('\n') + '\n');

      const kept = join(dir, `${engine}-${keep}-${maxBucketPairs}.jsonl`);
      await cli(['dedup', SAMPLE, '--clusters-from', clusters, '-o', kept, '-q']);
      expect(readFileSync(kept, 'utf8')).toBe(want.kept);
    }, 600_000);
  }
});

describe('gpudedup cluster outputs and refusals', () => {
  it('writes Parquet clusters that --clusters-from applies like the CSV', async () => {
    const want = await expected('first', '16');
    const parquet = join(dir, 'clusters.parquet');
    await cli(['cluster', ...shards, '--clusters', parquet, '-q']);
    const kept = join(dir, 'from-parquet.jsonl');
    await cli(['dedup', SAMPLE, '--clusters-from', parquet, '-o', kept, '-q']);
    expect(readFileSync(kept, 'utf8')).toBe(want.kept);
  }, 120_000);

  it('refuses a missing shard, naming it', async () => {
    const result = await runCli(['cluster', shards[0], '--clusters', join(dir, 'x.csv')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/missing shard 2\/2/);
  });

  it('refuses clusters of another corpus in --clusters-from', async () => {
    const clusters = join(dir, 'one.csv');
    await cli(['cluster', ...shards, '--clusters', clusters, '-q']);
    const other = join(dir, 'other.jsonl');
    execFileSync('bash', ['-c', `gzip -dc ${SAMPLE} | tail -n +2 > ${other}`]);
    const result = await runCli(['dedup', other, '--clusters-from', clusters, '-o', join(dir, 'k.jsonl')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/one\.csv:2: id .* but corpus document 1 has id .*not this corpus's clusters/);
  }, 60_000);

  it('--emit-script writes a Python job that carries the plan unchanged', async () => {
    const job = join(dir, 'job.py');
    const stdout = await cli(['cluster', ...shards, '--emit-script', job]);
    expect(stdout).toContain(`spark-submit ${job} --out OUT_DIR`);
    const text = readFileSync(job, 'utf8');
    const planText = /PLAN = json\.loads\(r'''([\s\S]*?)'''\)/.exec(text)![1];
    const { clusterPlan, minimumAgreement } = await import('../../src/engines/clusterSql.js');
    expect(JSON.parse(planText)).toEqual(JSON.parse(JSON.stringify(clusterPlan({ k: 128, bands: 14, maxBucketPairs: 16, minAgreement: minimumAgreement(0.8, 128), keep: 'first' }))));
    execFileSync('python3', ['-m', 'py_compile', job]); // valid Python, without needing pyspark
  });
});
