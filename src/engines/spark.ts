/**
 * The cluster plan as a Spark SQL job: a PySpark script that carries the plan
 * of clusterSql.ts as JSON and runs its statements in order, each
 * materialized (a local checkpoint, cached; see keep() in the job) and
 * registered as a temporary view (the dialect difference from DuckDB's CREATE
 * TABLE; see clusterSql.ts), or only registered where the step is a view.
 *
 * `--engine spark` writes the job to a temporary folder and runs it with
 * `python3` in local mode (`pip install pyspark`; Java 17 or newer); the job
 * writes the clusters as Parquet part files (id, cluster, kept, position,
 * sorted by position) and stats.json, read back here. `--emit-script job.py`
 * writes the same job for `spark-submit` on a cluster. The job's Python is sparkJob.py, beside this.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { removeTemporary, temporaryDirectory } from '../formats/files/temporaries.js';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import type { ClusterPlan } from './clusterSql.js';
import {
  checkFailed,
  bufferLimit,
  DEFAULT_MAX_ROUNDS,
  memoryLimitOf,
  EngineUnavailableError,
  numberClusters,
  writeRowsParquet,
  type ClusterRow,
  type EngineOptions,
  type EngineRun,
  type EngineStats,
  type Inspected,
} from './engine.js';

export const SPARK_INSTALL_HINT =
  'python3 -m pip install pyspark (Spark with its jars; needs Java 17 or newer on PATH)';

/** The PySpark job: `spark-submit job.py --out DIR SHARD...` (or `python3 job.py --master local[2] …`). */
export function sparkJobScript(plan: ClusterPlan, maxRounds = DEFAULT_MAX_ROUNDS): string {
  // In a raw string JSON's escapes reach json.loads untouched; a quote becomes \u0027 so no ''' can end the string.
  const planJson = JSON.stringify(plan, null, 1).replace(/'/g, '\\u0027');
  // The plan goes in last (a placeholder's text in it stays), by a function (a `$` in it is no replacement pattern).
  return sparkJobTemplate()
    .replace('{{MAX_ROUNDS}}', () => String(maxRounds))
    .replace('{{PLAN_JSON}}', () => planJson);
}

let template: string | undefined;

/**
 * The job's Python (src/engines/sparkJob.py, with its two placeholders), found
 * above this module: src/engines/ when the tests run the TypeScript, dist/src/engines/ compiled.
 */
function sparkJobTemplate(): string {
  if (template !== undefined) return template;
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    const path = join(dir, 'src', 'engines', 'sparkJob.py');
    if (existsSync(path)) return (template = readFileSync(path, 'utf8'));
    if (dirname(dir) === dir) throw new Error(`gpudedup: no src/engines/sparkJob.py above ${here}`);
  }
}

function pythonCommand(): string {
  return process.env.GPUDEDUP_PYTHON ?? 'python3';
}

function runProcess(
  command: string,
  args: readonly string[],
  onLine?: (line: string) => void,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (data: Buffer): void => {
      const text = data.toString();
      output = (output + text).slice(-20000);
      for (const line of text.split('\n')) if (line.trim() !== '') onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', (data: Buffer) => (output = (output + data.toString()).slice(-20000)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Throws EngineUnavailableError, saying how to install, when python3 or pyspark is missing. */
export async function checkPySpark(): Promise<void> {
  let result;
  try {
    result = await runProcess(pythonCommand(), ['-c', 'import pyspark; print(pyspark.__version__)']);
  } catch (error) {
    throw new EngineUnavailableError(
      `--engine spark runs ${pythonCommand()}, which could not start (${(error as Error).message}): install Python 3, ` +
        `then ${SPARK_INSTALL_HINT}`,
    );
  }
  if (result.code !== 0)
    throw new EngineUnavailableError(
      `--engine spark needs PySpark, which ${pythonCommand()} cannot import: ${SPARK_INSTALL_HINT}`,
    );
}

export async function runSpark(
  plan: ClusterPlan,
  shardPaths: readonly string[],
  options: EngineOptions = {},
): Promise<EngineRun> {
  await checkPySpark();
  // DuckDB creates its temporary directory when it spills; the job's folder needs it first.
  const base = options.tempDirectory ?? tmpdir();
  await mkdir(base, { recursive: true });
  const dir = temporaryDirectory(base, 'gpudedup-spark-');
  try {
    const job = join(dir, 'job.py');
    await writeFile(job, sparkJobScript(plan, options.maxRounds));
    const result = await runProcess(pythonCommand(), sparkArgs(job, dir, shardPaths, options), (line) => {
      const match = /^round (\d+): (\d+) (\w+)$/.exec(line.trim());
      if (match) options.onRound?.(Number(match[1]), Number(match[2]), match[3]);
    });
    if (result.code !== 0) await throwJobFailure(plan, dir, result);
    const stats = JSON.parse(await readFile(join(dir, 'stats.json'), 'utf8')) as EngineStats;
    const parts = await partFiles(join(dir, 'clusters'));
    const inspected =
      plan.inspect === undefined
        ? undefined
        : (JSON.parse(await readFile(join(dir, 'inspect.json'), 'utf8')) as Inspected);
    return {
      stats,
      inspected,
      rows: () => readParts(parts),
      writeParquet: (path) => writeRowsParquet(path, readParts(parts)),
      close: async () => removeTemporary(dir),
    };
  } catch (error) {
    removeTemporary(dir);
    throw error;
  }
}

/** The job's command line after the Python interpreter. */
function sparkArgs(job: string, dir: string, shardPaths: readonly string[], options: EngineOptions): string[] {
  const args = [
    job,
    '--master',
    `local[${options.threads ?? 2}]`,
    '--shuffle-partitions',
    String(Math.max(2, (options.threads ?? 2) * 2)),
    '--out',
    dir,
  ];
  const limit = bufferLimit(memoryLimitOf(options));
  args.push('--driver-memory', limit.replace(/B$/i, '').toLowerCase());
  if (options.explain !== undefined) args.push('--explain', options.explain);
  for (const path of options.reference ?? []) args.push('--reference', path);
  args.push('--local-dir', join(dir, 'spill'), ...shardPaths);
  return args;
}

/** A failed job's error: a plan check that failed (exit 3), else the job's own. */
async function throwJobFailure(
  plan: ClusterPlan,
  dir: string,
  result: { code: number; output: string },
): Promise<never> {
  if (result.code === 3) {
    const found = JSON.parse(await readFile(join(dir, 'check_failed.json'), 'utf8')) as {
      name: string;
      n: number;
      example: unknown;
    };
    throw checkFailed(plan.checks.find((c) => c.name === found.name)!, found.n, found.example);
  }
  // A Java stack trace ends the output; its cause is higher up, on the lines naming an exception.
  const lines = result.output.trim().split('\n');
  const causes = lines.filter((line) => /(Exception|Error)\b/.test(line) && !/^\s+at /.test(line)).slice(-3);
  throw new Error(`the Spark job failed (exit ${result.code}): ${causes.join(' | ')}\n${lines.slice(-15).join('\n')}`);
}

/** The rows of a job's clusters folder (`OUT_DIR/clusters`), clusters numbered 0, 1, … as `cluster` writes them. */
export async function* jobClusterRows(dir: string): AsyncGenerator<readonly ClusterRow[]> {
  yield* readParts(await partFiles(dir));
}

async function partFiles(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((name) => name.startsWith('part-') && name.endsWith('.parquet'))
    .sort()
    .map((name) => join(dir, name));
}

/** The part files in order; Spark's sort writes ranges of positions, each file sorted, checked here. */
async function* readParts(parts: readonly string[]): AsyncGenerator<readonly ClusterRow[]> {
  let last = -1n;
  const number = numberClusters();
  for (const part of parts) {
    const file = await asyncBufferFromFile(part);
    const metadata = await parquetMetadataAsync(file);
    const rowCount = Number(metadata.num_rows);
    for (let start = 0; start < rowCount; start += 65536) {
      const rows = await parquetReadObjects({
        file,
        metadata,
        rowStart: start,
        rowEnd: Math.min(rowCount, start + 65536),
      });
      yield rows.map((r) => {
        const position = BigInt(r.position as bigint | number);
        if (position <= last)
          throw new Error(`internal: the Spark job's rows are out of order at position ${position}`);
        last = position;
        return { id: String(r.id), cluster: number(Number(position), Number(r.cluster)), kept: r.kept === true };
      });
    }
  }
}
