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
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeScaleCorpus } from './scaleCorpus.js';

const CLI = join(import.meta.dirname, '../src/cli/main.js');

function run(args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`gpudedup ${args.join(' ')} failed (${result.status}): ${String(result.stderr)}`);
  return seconds;
}

const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

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
    const rate = (docs: number, s: number): string => Math.round(docs / s).toLocaleString('en-US');
    const dedupRate = (2 * n) / dedup;
    const addRate = n / add;
    console.log(`corpus: ${(2 * n).toLocaleString('en-US')} documents, ${((sa.bytes + sb.bytes) / 1e6).toFixed(1)} MB (A ${(sa.bytes / 1e6).toFixed(1)} MB, B ${(sb.bytes / 1e6).toFixed(1)} MB)`);
    console.log(`load average before ${loadBefore}, after ${loadAfter}\n`);
    console.log('| run | documents | seconds | docs/s |');
    console.log('|---|---:|---:|---:|');
    console.log(`| dedup A + B | ${2 * n} | ${dedup.toFixed(2)} | ${rate(2 * n, dedup)} |`);
    console.log(`| index create (empty) + add A | ${n} | ${create.toFixed(2)} | ${rate(n, create)} |`);
    console.log(`| index add B (into an index of A) | ${n} | ${add.toFixed(2)} | ${rate(n, add)} |`);
    console.log(`\nratio index add / dedup docs/s: ${(addRate / dedupRate).toFixed(2)}× (target ≥ 0.8×)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
