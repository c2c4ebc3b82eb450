/**
 * `gpudedup index add` of N new documents into an index of N, against
 * `gpudedup dedup` of the same 2N documents: documents per second of each and
 * their ratio (the target: index add ≥ 0.8× dedup's docs/s). Both run
 * as a user runs them (the built CLI, one process each, --backend cpu, -o),
 * on the generated real-text corpus of bench/scaleCorpus.ts (1–3 KB
 * documents with planted exact and near duplicates): A = documents [0, N),
 * B = [N, 2N), so B holds near-duplicates of A's documents.
 *
 *   npm run build:bench && node dist/bench/indexAdd.bench.js [N=50000] [--threads T]
 *
 * Prints a Markdown table with the load average before and after.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeScaleCorpus } from './scaleCorpus.js';

const CLI = join(import.meta.dirname, '../src/cli/main.js');

/** GNU time, when there: the run's CPU seconds (user + system), which a shared machine's load distorts less than wall time. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function run(args: readonly string[]): { wall: number; cpu?: number } {
  const started = performance.now();
  const command =
    TIME === undefined ? [process.execPath, CLI, ...args] : [TIME, '-f', 'cpu %U %S', process.execPath, CLI, ...args];
  const result = spawnSync(command[0], command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0)
    throw new Error(`gpudedup ${args.join(' ')} failed (${result.status}): ${String(result.stderr)}`);
  const cpu = /cpu ([0-9.]+) ([0-9.]+)\s*$/.exec(String(result.stderr));
  return { wall, cpu: cpu === null ? undefined : Number(cpu[1]) + Number(cpu[2]) };
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 50_000);
  const threadsAt = process.argv.indexOf('--threads');
  const cpu = ['--backend', 'cpu', '-q', ...(threadsAt > 0 ? ['--threads', process.argv[threadsAt + 1]] : [])];
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-index-bench-'));
  try {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    const sa = await writeScaleCorpus(a, 0, n);
    const sb = await writeScaleCorpus(b, n, 2 * n);
    const loadBefore = load();
    const dedup = run(['dedup', a, b, '-o', join(dir, 'dedup-kept.jsonl'), ...cpu]);
    const index = join(dir, 'index');
    const create = run(['index', 'create', index, a, '-o', join(dir, 'a-kept.jsonl'), ...cpu]);
    const add = run(['index', 'add', index, b, '-o', join(dir, 'b-kept.jsonl'), ...cpu]);
    const loadAfter = load();
    const rate = (docs: number, s: number | undefined): string =>
      s === undefined ? '—' : Math.round(docs / s).toLocaleString('en-US');
    const row = (name: string, docs: number, r: { wall: number; cpu?: number }): string =>
      `| ${name} | ${docs.toLocaleString('en-US')} | ${r.wall.toFixed(2)} | ${rate(docs, r.wall)} | ${r.cpu?.toFixed(2) ?? '—'} | ${rate(docs, r.cpu)} |`;
    console.log(
      `corpus: ${(2 * n).toLocaleString('en-US')} documents, ${((sa.bytes + sb.bytes) / 1e6).toFixed(1)} MB (A ${(sa.bytes / 1e6).toFixed(1)} MB, B ${(sb.bytes / 1e6).toFixed(1)} MB)`,
    );
    console.log(`load average before ${loadBefore}, after ${loadAfter}\n`);
    console.log('| run | documents | wall s | docs/s (wall) | CPU s | docs per CPU s |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(row('dedup A + B', 2 * n, dedup));
    console.log(row('index create (empty) + add A', n, create));
    console.log(row('index add B (into an index of A)', n, add));
    console.log(
      `\nratio index add / dedup docs/s: ${(n / add.wall / ((2 * n) / dedup.wall)).toFixed(2)}× by wall time` +
        (add.cpu !== undefined && dedup.cpu !== undefined
          ? `, ${(n / add.cpu / ((2 * n) / dedup.cpu)).toFixed(2)}× by CPU time`
          : '') +
        ' (target ≥ 0.8×)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
