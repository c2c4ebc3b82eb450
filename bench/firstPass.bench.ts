/**
 * The first pass's targets (issue 18), in one run on one corpus:
 *   - `dedup` and `sign --backend cpu`, whole processes, `--threads 2` against `--threads 1`;
 *   - the same commands from a baseline build (`--baseline DIR`: a checkout of an earlier commit, built);
 *   - the main thread's share of the first pass (event-loop utilization while `read + sign` runs, in process);
 *   - writing's share of a dedup run (from its --report).
 *
 *   node dist/bench/firstPass.bench.js CORPUS [--baseline DIR] [--runs N]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_READ } from '../src/io/documents.js';
import { runDedup, type DedupConfig } from '../src/pipeline/dedup/dedup.js';
import { defaultLshParams } from '../src/dedup/dedupSigned.js';
import { makeParams } from '../src/signatures/params.js';

const argv = process.argv.slice(2);
const corpus = resolve(argv[0]);
const option = (name: string): string | undefined =>
  argv.indexOf(name) > 0 ? argv[argv.indexOf(name) + 1] : undefined;
const baseline = option('--baseline');
const runs = Number(option('--runs') ?? 1);
const out = mkdtempSync(join(tmpdir(), 'gpudedup-firstpass-'));
const megabytes = statSync(corpus).size / 1e6;

function timeCommand(cli: string, args: string[]): { seconds: number; report?: Record<string, unknown> } {
  let best = Infinity;
  let report: Record<string, unknown> | undefined;
  for (let r = 0; r < runs; r++) {
    const reportPath = join(out, `report-${r}.json`);
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [cli, ...args, ...(args[0] === 'dedup' ? ['--report', reportPath] : [])],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 0)
      throw new Error(`${args.join(' ')}: exit ${result.status}: ${result.stderr.toString().slice(-400)}`);
    if (seconds < best) {
      best = seconds;
      if (args[0] === 'dedup') report = JSON.parse(readFileSync(reportPath, 'utf8'));
    }
  }
  return { seconds: best, report };
}

function rows(label: string, cli: string): string[] {
  const lines: string[] = [];
  const times: Record<string, number> = {};
  for (const command of ['dedup', 'sign'] as const) {
    for (const threads of [1, 2]) {
      const target = join(out, command === 'dedup' ? 'kept.jsonl' : 'sigs.npy');
      const args = [command, corpus, '-o', target, '--backend', 'cpu', '--threads', String(threads), '-q'];
      const { seconds, report } = timeCommand(cli, args);
      times[`${command}${threads}`] = seconds;
      const stages = report?.seconds as Record<string, number> | undefined;
      const writing = stages?.writing;
      const share = writing === undefined ? '' : `${((100 * writing) / seconds).toFixed(1)} %`;
      lines.push(
        `| ${label} | ${command} | ${threads} | ${seconds.toFixed(2)} | ${(megabytes / seconds).toFixed(1)} | ${share} |`,
      );
      rmSync(target, { force: true });
      rmSync(`${target}.json`, { force: true });
    }
  }
  lines.push(
    `| ${label} | **threads 2 / threads 1** | | dedup ${(times.dedup1 / times.dedup2).toFixed(2)}×, sign ${(times.sign1 / times.sign2).toFixed(2)}× | | |`,
  );
  return lines;
}

/** Event-loop utilization of this (the main) thread while the first pass runs, with two worker threads. */
async function mainThreadShare(): Promise<{ elu: number; seconds: number }> {
  const params = makeParams({});
  const config: DedupConfig = {
    inputs: [corpus],
    read: DEFAULT_READ,
    params,
    backend: 'cpu',
    threads: 2,
    threshold: 0.8,
    lsh: defaultLshParams(0.8, params.k, 'hybrid'),
    verify: 'hybrid',
    clusterCheck: 'representative',
    keep: { kind: 'first' },
    against: [],
  };
  let start = performance.eventLoopUtilization();
  let began = 0;
  let result = { elu: 0, seconds: 0 };
  const hooks = {
    note: () => undefined,
    stage: (label: string) => {
      if (label === 'signing') {
        start = performance.eventLoopUtilization();
        began = performance.now();
      }
      return {
        update: () => undefined,
        stop: () => {
          if (label === 'signing')
            result = {
              elu: performance.eventLoopUtilization(start).utilization,
              seconds: (performance.now() - began) / 1000,
            };
        },
      };
    },
  };
  await runDedup(config, hooks);
  return result;
}

const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
console.log(`corpus ${corpus}: ${megabytes.toFixed(1)} MB; load average before: ${load}; best of ${runs}`);
console.log('');
console.log('| build | command | threads | seconds | MB/s | writing share |');
console.log('| --- | --- | --: | --: | --: | --: |');
for (const line of rows('this', resolve('dist/src/cli/main.js'))) console.log(line);
if (baseline) for (const line of rows('baseline', join(baseline, 'dist/src/cli/main.js'))) console.log(line);
const share = await mainThreadShare();
console.log('');
console.log(
  `main thread busy during the first pass (2 worker threads, in process): ${(100 * share.elu).toFixed(1)} % of ${share.seconds.toFixed(1)} s`,
);
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
rmSync(out, { recursive: true, force: true });
