/**
 * `node dist/bench/shardJoin.js CORPUS --dir DIR`: the comparison at
 * scale. The corpus is signed as two shards (`sign --shard 1/2`, `2/2`), the
 * shards are joined by `cluster --engine duckdb` and by `--engine spark`
 * (local[2]), and both clusters tables must equal, byte for byte, those of one
 * `gpudedup dedup` over the corpus, as must the kept documents
 * `dedup --clusters-from` writes from each — all with their defaults (hybrid
 * verification, the representative check), or all with the options after
 * `--` (e.g. `-- --verify estimate --cluster-check none`, which `sign` gets as
 * `--verify estimate`). BENCH_ENGINES=duckdb skips Spark; BENCH_SHARDS=4 signs
 * four; BENCH_REUSE=1 joins the shards of an earlier run in DIR again. Each
 * engine's join is timed after its baseline in the same run: the join with
 * `--verify estimate --cluster-check none` on the same shards. Prints the
 * wall time and load average of every step (one process each, as a user runs them).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

async function step(name: string, args: readonly string[]): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (c) => resolve(c ?? 1));
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${name} failed (exit ${code}): gpudedup ${args.join(' ')}`);
  console.log(
    `| ${name} | ${seconds.toFixed(1)} | ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} |`,
  );
  return seconds;
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const options = dashes >= 0 ? argv.slice(dashes + 1) : [];
const [corpus, ...rest] = dashes >= 0 ? argv.slice(0, dashes) : argv;
const verifyAt = options.indexOf('--verify');
const signOptions = verifyAt >= 0 ? options.slice(verifyAt, verifyAt + 2) : [];
const engines = (process.env.BENCH_ENGINES ?? 'duckdb,spark').split(',');
const dirAt = rest.indexOf('--dir');
const dir = dirAt >= 0 ? rest[dirAt + 1] : 'bench-shard-join';
if (corpus === undefined) {
  console.error('usage: node dist/bench/shardJoin.js CORPUS [--dir DIR]');
  process.exit(2);
}
const shardCount = Number(process.env.BENCH_SHARDS ?? 2);
// BENCH_REUSE=1: the shards and dedup's answer of an earlier run in DIR are used again (timing the joins only).
const reuse = process.env.BENCH_REUSE === '1';
mkdirSync(dir, { recursive: true });
const at = (name: string): string => join(dir, name);
const shards = Array.from({ length: shardCount }, (_, i) => at(`shard-${i + 1}.parquet`));
console.log(`| step | seconds | load |\n| --- | --: | --- |`);
if (!reuse) {
  for (const [i, shard] of shards.entries())
    await step(`sign --shard ${i + 1}/${shardCount}`, [
      'sign',
      corpus,
      '--shard',
      `${i + 1}/${shardCount}`,
      ...signOptions,
      '-o',
      shard,
      '-q',
    ]);
  await step(`dedup ${options.join(' ')} (signs itself)`, [
    'dedup',
    corpus,
    ...options,
    '--clusters',
    at('dedup.csv'),
    '-o',
    at('dedup.jsonl'),
    '-q',
  ]);
  writeFileSync(at('dedup-kept.sha256'), await sha256(at('dedup.jsonl')));
  rmSync(at('dedup.jsonl'));
}
const results: Record<string, { clusters: string; kept: string }> = {};
for (const engine of engines) {
  // The baseline in the same run: the join without verification or the check, on the same shards.
  if (process.env.BENCH_BASELINE !== '0') {
    await step(`cluster --engine ${engine} --verify estimate --cluster-check none (baseline)`, [
      'cluster',
      ...shards,
      '--engine',
      engine,
      '--verify',
      'estimate',
      '--cluster-check',
      'none',
      '--clusters',
      at(`${engine}-estimate.csv`),
      '--temp-directory',
      dir,
      '-q',
    ]);
  }
  await step(`cluster --engine ${engine}`, [
    'cluster',
    ...shards,
    '--engine',
    engine,
    ...options,
    '--clusters',
    at(`${engine}.csv`),
    '--temp-directory',
    dir,
    '-q',
  ]);
  await step(`dedup --clusters-from (${engine})`, [
    'dedup',
    corpus,
    '--clusters-from',
    at(`${engine}.csv`),
    '-o',
    at(`${engine}.jsonl`),
    '-q',
  ]);
  results[engine] = { clusters: await sha256(at(`${engine}.csv`)), kept: await sha256(at(`${engine}.jsonl`)) };
}
const want = { clusters: await sha256(at('dedup.csv')), kept: readFileSync(at('dedup-kept.sha256'), 'utf8') };
for (const [engine, got] of Object.entries(results)) {
  const same = got.clusters === want.clusters && got.kept === want.kept;
  console.log(
    `${engine}: clusters ${got.clusters === want.clusters ? 'equal' : 'DIFFER'}, kept documents ${got.kept === want.kept ? 'equal' : 'DIFFER'} to dedup's`,
  );
  if (!same) process.exitCode = 1;
}
for (const name of ['duckdb.jsonl', 'spark.jsonl']) rmSync(at(name), { force: true });
