/**
 * Issue 29's targets in one run, whole processes, interleaved rounds, medians:
 *   - feed (bench/feed.bench.ts: read, parse, exact pre-pass, shingle buffers) on 1 and 2 threads,
 *     MB/s and the 2-thread / 1-thread ratio;
 *   - `dedup --backend cpu --threads 2` on a large corpus: CPU seconds (user + sys) per MB and wall,
 *     this build and, with --baseline DIR (another checkout, built), that build;
 *   - `sign --threads 1` classic against `--scheme oph`: the OPH speed-up, whole process.
 * The load average is printed before and after every row: the machine may be shared.
 *
 *   node dist/bench/firstPassTargets.bench.js --feed CORPUS --large CORPUS [--baseline DIR] [--runs N]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const feedCorpus = resolve(option('--feed') ?? 'data/sample.jsonl.gz');
const largeCorpus = resolve(option('--large') ?? feedCorpus);
const baseline = option('--baseline');
const runs = Number(option('--runs') ?? 3);
const here = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(tmpdir(), 'gpudedup-targets-'));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Timed {
  readonly wall: number;
  readonly cpu: number;
  readonly stdout: string;
}

/** A whole process under GNU time: wall and user + sys seconds. */
function timed(args: string[]): Timed {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')}: exit ${result.status}: ${result.stderr.slice(-500)}`);
  const [wall, user, sys] = result.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  return { wall, cpu: user + sys, stdout: result.stdout };
}

function feedRates(): void {
  const mb = statSync(feedCorpus).size / 1e6;
  const rates: Record<number, number[]> = { 1: [], 2: [] };
  console.log(`\n## Feed: ${feedCorpus} (${mb.toFixed(1)} MB), ${runs} rounds; load before ${load()}`);
  for (let r = 0; r < runs; r++) {
    for (const threads of [1, 2]) {
      const { stdout } = timed([join(here, 'dist/bench/feed.bench.js'), feedCorpus, String(threads)]);
      rates[threads].push(Number(/([\d.]+) MB\/s,/.exec(stdout)![1]));
    }
  }
  const one = median(rates[1]);
  const two = median(rates[2]);
  console.log(`| threads | MB/s (median) | runs |\n| --: | --: | --- |`);
  console.log(`| 1 | ${one.toFixed(1)} | ${rates[1].map((x) => x.toFixed(1)).join(', ')} |`);
  console.log(`| 2 | ${two.toFixed(1)} | ${rates[2].map((x) => x.toFixed(1)).join(', ')} |`);
  console.log(`2 threads / 1 thread: ${(two / one).toFixed(2)}×; load after ${load()}`);
}

function dedupCost(): void {
  const mb = statSync(largeCorpus).size / 1e6;
  const builds = [
    { label: 'this build', root: here },
    ...(baseline ? [{ label: 'baseline', root: resolve(baseline) }] : []),
  ];
  const rows = new Map<string, Timed[]>(builds.map((b) => [b.label, []]));
  console.log(
    `\n## dedup --backend cpu --threads 2: ${largeCorpus} (${mb.toFixed(1)} MB), ${runs} rounds; load before ${load()}`,
  );
  for (let r = 0; r < runs; r++) {
    for (const build of builds) {
      const kept = join(out, 'kept.jsonl');
      rows
        .get(build.label)!
        .push(
          timed([
            join(build.root, 'dist/src/cli/main.js'),
            'dedup',
            largeCorpus,
            '-o',
            kept,
            '--backend',
            'cpu',
            '--threads',
            '2',
            '-q',
          ]),
        );
      rmSync(kept, { force: true });
    }
  }
  console.log(`| build | wall s | CPU s (user + sys) | CPU-ms per MB | MB/s |\n| --- | --: | --: | --: | --: |`);
  for (const [label, times] of rows) {
    const wall = median(times.map((t) => t.wall));
    const cpu = median(times.map((t) => t.cpu));
    console.log(
      `| ${label} | ${wall.toFixed(2)} | ${cpu.toFixed(2)} | ${((1000 * cpu) / mb).toFixed(1)} | ${(mb / wall).toFixed(1)} |`,
    );
  }
  console.log(`load after ${load()}`);
}

function ophSpeedup(): void {
  const mb = statSync(feedCorpus).size / 1e6;
  const times: Record<string, Timed[]> = { classic: [], oph: [] };
  console.log(
    `\n## sign --threads 1 --backend cpu, classic and oph: ${feedCorpus} (${mb.toFixed(1)} MB), ${runs} rounds; load before ${load()}`,
  );
  for (let r = 0; r < runs; r++) {
    for (const scheme of ['classic', 'oph']) {
      const target = join(out, `${scheme}.npy`);
      times[scheme].push(
        timed([
          join(here, 'dist/src/cli/main.js'),
          'sign',
          feedCorpus,
          '-o',
          target,
          '--scheme',
          scheme,
          '--threads',
          '1',
          '--backend',
          'cpu',
          '-q',
        ]),
      );
      rmSync(target, { force: true });
      rmSync(`${target}.json`, { force: true });
    }
  }
  console.log(`| scheme | wall s | CPU s |\n| --- | --: | --: |`);
  for (const scheme of ['classic', 'oph'])
    console.log(
      `| ${scheme} | ${median(times[scheme].map((t) => t.wall)).toFixed(2)} | ${median(times[scheme].map((t) => t.cpu)).toFixed(2)} |`,
    );
  const ratio = median(times.classic.map((t) => t.wall)) / median(times.oph.map((t) => t.wall));
  const cpuRatio = median(times.classic.map((t) => t.cpu)) / median(times.oph.map((t) => t.cpu));
  console.log(
    `oph speed-up over classic: ${ratio.toFixed(2)}× by wall, ${cpuRatio.toFixed(2)}× by CPU; load after ${load()}`,
  );
}

try {
  feedRates();
  ophSpeedup();
  dedupCost();
} finally {
  rmSync(out, { recursive: true, force: true });
}
