/**
 * Issue 38 item 3: the job `cluster --emit-script` writes, run by `spark-submit --master spark://…` on a real
 * standalone cluster (a master and two workers of one core each, started from pip's PySpark on 127.0.0.1:
 * test/support/sparkStandalone.ts), on two shards of the sample: its clusters equal `dedup --clusters`'s, and
 * both workers ran an executor of it. Runs where the other Spark tests run (GPUDEDUP_SPARK=1, or CI, where a
 * missing PySpark fails it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobClusterRows } from '../../src/engines/spark.js';
import { readClusterTable } from '../../src/formats/clusterTable.js';
import { runCli, tempDir } from '../support/cli.js';
import { sparkWanted } from '../support/spark.js';
import { type Standalone, startStandalone } from '../support/sparkStandalone.js';

const SAMPLE = 'data/sample.jsonl.gz';
const dir = tempDir();
const shards = [1, 2].map((i) => join(dir, `sample-${i}.parquet`));
let cluster: Standalone | undefined;

/**
 * spark-submit's settings for two cores, which `cluster --engine spark` sets itself in local mode (sparkJob.py's
 * local_tuning): no adaptive re-planning of each of the job's ~50 steps, and the C1 compiler only, in the driver and
 * the executors. With Spark's defaults (and its 200 shuffle partitions) the same run took 142 CPU-seconds against
 * 80. They change no result: the clusters are compared all the same.
 */
const SMALL_CLUSTER = [
  ...['--conf', 'spark.sql.adaptive.enabled=false'],
  ...['--conf', 'spark.driver.extraJavaOptions=-XX:TieredStopAtLevel=1 -XX:+UseParallelGC'],
  ...['--conf', 'spark.executor.extraJavaOptions=-XX:TieredStopAtLevel=1 -XX:+UseParallelGC'],
];

async function cli(args: string[]): Promise<string> {
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

describe('the emitted job on a standalone Spark cluster (master + 2 workers on 127.0.0.1)', () => {
  if (!sparkWanted()) {
    it.skip('Spark: set GPUDEDUP_SPARK=1 (and run scripts/install-spark.sh) to run it', () => undefined);
    return;
  }

  beforeAll(async () => {
    // The cluster starts while the shards are signed.
    const starting = startStandalone(join(dir, 'spark'), {
      workers: 2,
      coresPerWorker: 1,
      memoryPerWorker: '1g',
      limitSeconds: 600,
    });
    const signing = Promise.all([
      ...shards.map((out, i) =>
        cli(['sign', SAMPLE, '--shard', `${i + 1}/2`, '-o', out, '--backend', 'cpu', '--threads', '1', '-q']),
      ),
      cli(['dedup', SAMPLE, '--backend', 'cpu', '--threads', '1', '--clusters', join(dir, 'dedup.csv'), '-q']),
    ]);
    const [started] = await Promise.allSettled([starting, signing]);
    if (started.status === 'fulfilled') cluster = started.value;
    await Promise.all([starting, signing]);
  }, 300_000);

  afterAll(() => cluster?.stop());

  it('spark-submit of cluster --emit-script gives dedup --clusters, row for row, on both workers', async () => {
    const job = join(dir, 'job.py');
    await cli(['cluster', ...shards, '--emit-script', job]);
    const out = join(dir, 'out');
    const run = await cluster!.submit(
      [
        ...['--executor-memory', '512m', '--total-executor-cores', '2', ...SMALL_CLUSTER],
        ...[job, '--out', out, '--shuffle-partitions', '4', ...shards],
      ],
      420,
    );
    console.log(`standalone Spark: spark-submit ${run.seconds.toFixed(1)} s`);
    expect(run.code, run.output.slice(-4000)).toBe(0);
    // Each worker launched an executor of the one application.
    const executors = cluster!.executors();
    expect(executors.map((e) => e.length)).toEqual([1, 1]);
    expect(new Set(executors.flat().map((e) => e.split('/')[0])).size).toBe(1);
    const got: string[] = [];
    for await (const chunk of jobClusterRows(join(out, 'clusters')))
      for (const row of chunk) got.push(`${row.id},${row.cluster},${row.kept}`);
    const want: string[] = [];
    for await (const row of readClusterTable(join(dir, 'dedup.csv'))) want.push(`${row.id},${row.cluster},${row.kept}`);
    expect(want.length).toBe(727);
    expect(got).toEqual(want);
    expect(want.some((line) => line.endsWith(',false'))).toBe(true); // the sample has near-duplicates to remove
    const stats = JSON.parse(readFileSync(join(out, 'stats.json'), 'utf8')) as { rounds: number };
    expect(stats.rounds).toBeGreaterThan(0);
  }, 480_000);
});
