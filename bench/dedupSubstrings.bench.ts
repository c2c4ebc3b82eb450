/**
 * `dedup --substrings` against the two commands it replaces, `dedup -o K` then
 * `substrings K`, on one corpus in one run: each timed by GNU time (wall,
 * user + sys, peak RSS) with the load average, and the outputs compared byte
 * for byte (-o and --spans). `dedup -o K` alone is the baseline. The three
 * runs are repeated, interleaved (--repeat, default 3), and each one's best
 * wall time is shown (with its CPU time and peak), as the machine is shared.
 *
 *   node dist/bench/dedupSubstrings.bench.js CORPUS.jsonl [--dir WORK] [--repeat N] [-- SEARCH-FLAGS...]
 *
 * SEARCH-FLAGS (e.g. --min-length 50 --memory-limit 4GiB) go to both runs of the search. WORK (default: a new
 * directory beside the corpus) keeps the outputs until the end of the run.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, timed, type Timed } from './gnuTime.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

function parseArgs(argv: readonly string[]): { corpus: string; dir?: string; repeat: number; search: string[] } {
  const split = argv.indexOf('--');
  const own = [...(split < 0 ? argv : argv.slice(0, split))];
  const search = split < 0 ? [] : argv.slice(split + 1);
  const take = (flag: string): string | undefined => {
    const at = own.indexOf(flag);
    return at < 0 ? undefined : own.splice(at, 2)[1];
  };
  const dir = take('--dir');
  const repeat = Number(take('--repeat') ?? 3);
  if (own.length !== 1 || !(repeat >= 1))
    throw new Error('usage: dedupSubstrings.bench.js CORPUS.jsonl [--dir WORK] [--repeat N] [-- SEARCH-FLAGS...]');
  return { corpus: resolve(own[0]), dir, repeat, search };
}

const best = (runs: readonly Timed[]): Timed => runs.reduce((a, b) => (b.wall < a.wall ? b : a));

function row(name: string, t: Timed, megabytes: number): string {
  const cells = [t.wall.toFixed(1), t.cpu.toFixed(1), (t.cpu / megabytes).toFixed(3), (megabytes / t.wall).toFixed(2)];
  return `| ${name} | ${cells.join(' | ')} | ${t.peakGiB.toFixed(2)} |`;
}

/** One round of the three runs; whether the outputs are equal. */
function round(corpus: string, dir: string, search: readonly string[]): { times: Timed[]; equal: boolean } {
  const at = (name: string): string => join(dir, name);
  const node = process.execPath;
  const dedup = timed(node, [CLI, 'dedup', corpus, '-o', at('k.jsonl'), '-q'], dir);
  const substrings = timed(
    node,
    [CLI, 'substrings', at('k.jsonl'), '-o', at('y.jsonl'), '--spans', at('ys.csv'), '-q', ...search],
    dir,
  );
  const combined = timed(
    node,
    [
      CLI,
      'dedup',
      corpus,
      '--substrings',
      '-o',
      at('x.jsonl'),
      '--spans',
      at('xs.csv'),
      '--report',
      at('r.json'),
      '-q',
    ].concat(search),
    dir,
  );
  const same = (a: string, b: string): boolean => readFileSync(at(a)).equals(readFileSync(at(b)));
  return { times: [dedup, substrings, combined], equal: same('x.jsonl', 'y.jsonl') && same('xs.csv', 'ys.csv') };
}

function main(): void {
  const { corpus, dir: given, repeat, search } = parseArgs(process.argv.slice(2));
  const dir = given ?? mkdtempSync(join(dirname(corpus), 'dedup-substrings-bench-'));
  const megabytes = statSync(corpus).size / 1e6;
  const loadBefore = load();
  const rounds = Array.from({ length: repeat }, () => round(corpus, dir, search));
  const loadAfter = load();
  const equal = rounds.every((r) => r.equal);
  const [dedup, substrings, combined] = [0, 1, 2].map((i) => best(rounds.map((r) => r.times[i])));
  const twoSteps = best(
    rounds.map(({ times: [a, b] }) => ({
      wall: a.wall + b.wall,
      cpu: a.cpu + b.cpu,
      peakGiB: Math.max(a.peakGiB, b.peakGiB),
    })),
  );
  const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
  console.log(
    `corpus ${corpus} (${megabytes.toFixed(1)} MB, ${report.documents} documents, ${report.kept} kept, ` +
      `${report.substrings.bytesCut} bytes cut); ${cpus().length} cores; load ${loadBefore} → ${loadAfter}; ` +
      `search flags: ${search.join(' ') || '(defaults)'}; best of ${repeat}; outputs equal: ${equal}`,
  );
  console.log('| run | wall s | CPU s | CPU-s/MB | MB/s | peak GiB |\n| --- | --- | --- | --- | --- | --- |');
  console.log(row('dedup -o K (baseline)', dedup, megabytes));
  console.log(row('substrings K', substrings, megabytes));
  console.log(row('the two steps (best round)', twoSteps, megabytes));
  console.log(row('dedup --substrings', combined, megabytes));
  if (given === undefined) rmSync(dir, { recursive: true, force: true });
  if (!equal) process.exitCode = 1;
}

main();
