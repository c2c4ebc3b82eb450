/**
 * `npm run bench:scale -- 100000 1000000 10000000`: `gpudedup dedup` on the
 * generated corpus (bench/scaleCorpus.ts) at each size, as a user runs it (a
 * child process, default options unless given after `--`), measuring the wall
 * time of each stage (from `--report`), peak RSS (GNU time) and the peak disk
 * used by spilled signatures (polling `--temp-directory`).
 *
 *   node dist/bench/scale.js [--dir /work/scale] SIZE... [-- DEDUP-OPTIONS...]
 *
 * Corpora are generated once into DIR/corpus-SIZE/ (two parts side by side)
 * and kept; the kept documents go to DIR and are deleted after each run. The
 * rows (JSON) are appended to DIR/scale-results.jsonl and printed as a
 * Markdown table for bench/RESULTS.md.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const GENERATOR = fileURLToPath(new URL('./scaleCorpus.js', import.meta.url));

interface ScaleRow {
  readonly documents: number;
  readonly corpusBytes: number;
  readonly options: readonly string[];
  readonly seconds: number;
  readonly peakRssBytes: number;
  readonly peakTempBytes: number;
  readonly stages: Record<string, number>;
  readonly removed: number;
  readonly distinctTexts: number;
  readonly candidates: number;
  readonly largestBucket: number;
}

function run(command: string, args: readonly string[], onTick?: () => void): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = onTick && setInterval(onTick, 500);
    child.on('error', reject);
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      resolve({ code: code ?? 1, stderr });
    });
  });
}

async function corpus(dir: string, documents: number): Promise<string> {
  const path = join(dir, `corpus-${documents}`);
  const done = `${path}.done`; // beside the corpus: dedup reads every file in the directory
  if (existsSync(done)) return path;
  mkdirSync(path, { recursive: true });
  const parts = 2;
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: parts }, (_, i) =>
      run(process.execPath, [
        GENERATOR,
        String(documents),
        join(path, `part-${i + 1}.jsonl`),
        '--part',
        `${i + 1}/${parts}`,
      ]),
    ),
  );
  if (results.some((r) => r.code !== 0))
    throw new Error(`generating ${path} failed: ${results.map((r) => r.stderr).join('\n')}`);
  appendFileSync(done, `${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return path;
}

function directoryBytes(path: string): number {
  let total = 0;
  for (const name of readdirSync(path)) {
    try {
      total += statSync(join(path, name)).size;
    } catch {
      // removed while we looked
    }
  }
  return total;
}

async function measure(dir: string, documents: number, options: readonly string[]): Promise<ScaleRow> {
  const input = await corpus(dir, documents);
  const temp = join(dir, 'tmp');
  mkdirSync(temp, { recursive: true });
  const report = join(dir, `report-${documents}.json`);
  const kept = join(dir, `kept-${documents}.jsonl`);
  let peakTempBytes = 0;
  const args = [
    '-f',
    'rss-kb %M',
    process.execPath,
    CLI,
    'dedup',
    input,
    '-o',
    kept,
    '--report',
    report,
    '--temp-directory',
    temp,
    '-q',
    ...options,
  ];
  const started = performance.now();
  const result = await run(
    '/usr/bin/time',
    args,
    () => (peakTempBytes = Math.max(peakTempBytes, directoryBytes(temp))),
  );
  const seconds = (performance.now() - started) / 1000;
  rmSync(kept, { force: true });
  const rss = /rss-kb (\d+)/.exec(result.stderr);
  if (result.code !== 0 || !rss) throw new Error(`dedup of ${input} failed (${result.code}): ${result.stderr}`);
  const r = JSON.parse(readFileSync(report, 'utf8'));
  return {
    documents,
    corpusBytes: directoryBytes(input),
    options,
    seconds,
    peakRssBytes: Number(rss[1]) * 1024,
    peakTempBytes,
    stages: r.seconds,
    removed: r.removed,
    distinctTexts: r.distinctTexts,
    candidates: r.candidates.pairs,
    largestBucket: r.candidates.largestBucket,
  };
}

function table(rows: readonly ScaleRow[]): string {
  const stageNames = [...new Set(rows.flatMap((r) => Object.keys(r.stages)))];
  const head = [
    'documents',
    'JSONL GB',
    'seconds',
    'docs/s',
    'MB/s',
    'peak RSS GiB',
    'peak spill GB',
    ...stageNames.map((s) => `${s} s`),
    'removed',
    'largest bucket',
  ];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '--:').join(' | ')} |`];
  for (const r of rows) {
    const cells = [
      r.documents.toLocaleString('en-US'),
      (r.corpusBytes / 1e9).toFixed(2),
      r.seconds.toFixed(0),
      Math.round(r.documents / r.seconds).toLocaleString('en-US'),
      (r.corpusBytes / 1e6 / r.seconds).toFixed(1),
      (r.peakRssBytes / 2 ** 30).toFixed(2),
      (r.peakTempBytes / 1e9).toFixed(2),
      ...stageNames.map((s) => (r.stages[s] === undefined ? '' : r.stages[s].toFixed(1))),
      `${((100 * r.removed) / r.documents).toFixed(1)} %`,
      r.largestBucket.toLocaleString('en-US'),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const ours = split >= 0 ? argv.slice(0, split) : argv;
const options = split >= 0 ? argv.slice(split + 1) : [];
const dirAt = ours.indexOf('--dir');
const dir = dirAt >= 0 ? ours.splice(dirAt, 2)[1] : 'bench-scale';
const sizes = ours.map(Number);
if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error('usage: node dist/bench/scale.js [--dir DIR] SIZE... [-- DEDUP-OPTIONS...]');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}`,
);
const rows: ScaleRow[] = [];
for (const documents of sizes) {
  const row = await measure(dir, documents, options);
  appendFileSync(join(dir, 'scale-results.jsonl'), JSON.stringify({ ...row, date: new Date().toISOString() }) + '\n');
  rows.push(row);
  console.log(table(rows));
}
