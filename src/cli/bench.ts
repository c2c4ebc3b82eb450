/**
 * `gpudedup bench`: parses the command line, runs src/pipeline/bench/bench.ts, prints the table and writes --json /
 * --plot.
 */
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { counted } from '../format.js';
import { writeTextFile } from '../formats/files/textFile.js';
import { runBench, type BenchConfig, type BenchSummary } from '../pipeline/bench/bench.js';
import type { EndToEnd } from '../pipeline/bench/endToEnd.js';
import { checkOutputs } from '../pipeline/shared/outputChecks.js';
import { listInputFiles } from '../io/readDocuments.js';
import { makeParams } from '../signatures/params.js';
import { shortNumber, throughputSvg } from '../plots/throughput.js';
import { addInputOptions, positiveInteger, readOptionsFrom, tableOption, type InputCliOptions } from './options.js';

const SAMPLE = fileURLToPath(new URL('../../../data/sample.jsonl.gz', import.meta.url));

type BenchCliOptions = InputCliOptions & {
  k: number;
  seed: string;
  shingle: 'word' | 'char' | 'auto';
  ngram: number;
  runs: number;
  threads?: number;
  webgpu: boolean;
  singleThread: boolean;
  endToEnd: boolean;
  json?: string;
  plot?: string;
};

export function registerBenchCommand(program: Command): void {
  const command = program
    .command('bench')
    .description(
      'time every signing backend side by side on this machine (wasm SIMD, wasm scalar, TypeScript, all threads, WebGPU)',
    )
    .argument(
      '[corpus...]',
      'JSONL, Parquet or plain-text files or directories (default: the bundled data/sample.jsonl.gz)',
    )
    .addOption(tableOption('k', '-k, --k <hashes>', 'slots per signature (hash functions)'))
    .addOption(tableOption('seed', '--seed <u64>', '64-bit seed of the hash family (decimal or 0x hex)'))
    .addOption(tableOption('shingle', '--shingle <mode>', 'shingles: word n-grams, char n-grams, or auto per document'))
    .addOption(tableOption('n', '-n, --ngram <n>', 'shingle length: tokens (word) or code points (char)'))
    .option('--runs <n>', 'timed runs per backend, after one warm-up run', positiveInteger, 5)
    .addOption(tableOption('threads', '--threads <n>', 'threads of the all-threads row (default: one per core)'))
    .option('--no-webgpu', 'skip WebGPU even when an adapter is there')
    .option('--no-single-thread', 'skip the one-thread rows (all threads against WebGPU on a large corpus)')
    .option('--no-end-to-end', 'skip the whole dedup run and its projection to 16 and 64 cores')
    .option('--json <file>', 'write the machine and every row as JSON')
    .option('--plot <file.svg>', 'write a bar chart of throughput per backend');
  addInputOptions(command).action(async (corpus: string[], options: BenchCliOptions) => {
    const config: BenchConfig = {
      inputs: corpus.length > 0 ? corpus : [SAMPLE],
      read: readOptionsFrom(options, () => undefined),
      params: makeParams({ k: options.k, seed: options.seed, shingle: options.shingle, n: options.ngram }),
      runs: options.runs,
      cpuThreads: options.threads,
      webgpu: options.webgpu,
      singleThread: options.singleThread,
      endToEnd: options.endToEnd,
    };
    const outputs = [
      options.json && { flag: '--json', path: options.json },
      options.plot && { flag: '--plot', path: options.plot },
    ].filter((o) => !!o);
    await checkOutputs(outputs, await listInputFiles(config.inputs));
    const summary = await runBench(config, {
      note: (m) => !options.quiet && process.stderr.write(`${m}\n`),
      stage: () => ({ update: () => undefined, stop: () => undefined }),
    });
    if (options.json)
      await writeTextFile(
        options.json,
        JSON.stringify(
          { ...summary, runs: options.runs, seed: options.seed, shingle: options.shingle, ngram: options.ngram },
          null,
          2,
        ) + '\n',
      );
    if (options.plot) await writeTextFile(options.plot, plotOf(summary));
    process.stdout.write(tableOf(summary, options.runs)); // the table is the result: -q silences only the notes
  });
}

function tableOf(s: BenchSummary, runs: number): string {
  const m = s.machine;
  const lines = [
    `${counted(s.documents, 'document')}, ${(s.bytes / 1e6).toFixed(2)} MB, ${counted(s.shingles, 'shingle')}, k = ` +
      `${s.k}: ${counted(s.evaluations, 'hash evaluation')}`,
    `${m.cpu}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(1)} GiB, Node ` +
      `${m.node}${m.adapter ? `, ${m.adapter}` : ', no WebGPU adapter'}`,
    `median of ${runs} timed run${runs === 1 ? '' : 's'} after a warm-up; spread = fastest–slowest run; signatures ` +
      `equal to the first row's word for word`,
    '',
    '| backend | seconds (median) | spread | docs/s | MB/s | shingles/s | evaluations/s | time vs fastest |',
    '| --- | --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const r of s.rows) {
    lines.push(
      `| ${r.backend} | ${r.seconds.median.toFixed(4)} | ${r.seconds.min.toFixed(4)}–${r.seconds.max.toFixed(4)} | ` +
        `${shortNumber(r.docsPerSecond)} | ${r.mbPerSecond.toFixed(2)} | ${shortNumber(r.shinglesPerSecond)} | ` +
        `${shortNumber(r.evaluationsPerSecond)} | ${r.timeVsFastest.toFixed(2)}× |`,
    );
  }
  const scaled = s.rows.find((r) => r.measuredShare < 1);
  if (scaled)
    lines.push(
      '',
      `${scaled.backend}: signed ${(scaled.measuredShare * 100).toFixed(1)} % of the evaluations, its time scaled to ` +
        `the whole corpus`,
    );
  lines.push(
    '',
    'host feed rate for a GPU (read, parse, exact pre-pass, shingle buffers ready to upload):',
    '',
    '| threads | seconds | MB/s of text | MB/s per core | main thread ms/MB |',
    '| --: | --: | --: | --: | --: |',
  );
  for (const f of s.feed)
    lines.push(
      `| ${f.threads} | ${f.seconds.toFixed(3)} | ${f.mbPerSecond.toFixed(1)} | ${f.mbPerSecondPerCore.toFixed(1)} | ` +
        `${f.mainMsPerMB.toFixed(2)} |`,
    );
  const p = s.feedProjection;
  if (p) {
    lines.push(
      '',
      `main thread ms/MB: its CPU time per MB of text (with workers: reading, cutting units, ordering documents; ` +
        `where Linux's per-thread CPU time is missing, its event loop's busy time, which counts waits for a core)`,
      `feed projected from the ${p.threads}-thread run: min(cores × ${p.perCoreMBps.toFixed(1)} MB/s per worker, 1000 ` +
        `/ ${p.mainMsPerMB.toFixed(2)} ms per MB on the main thread = ${(1000 / p.mainMsPerMB).toFixed(0)} MB/s):`,
      '',
      '| cores | projected MB/s | bound by |',
      '| --: | --: | --- |',
    );
    for (const r of p.projections)
      lines.push(
        `| ${r.cores} | ${r.mbPerSecond.toFixed(0)} | ` +
          `${r.bound === 'workers' ? 'workers (cores × per worker)' : 'the main thread'} |`,
      );
  }
  if (s.endToEnd !== undefined) lines.push('', ...endToEndLines(s.endToEnd));
  return lines.join('\n') + '\n';
}

/** The whole dedup run per stage, then its projection (pipeline/bench/endToEnd.ts says how it is made). */
function endToEndLines(e: EndToEnd): string[] {
  const lines = [
    `end to end: one dedup with the defaults (CPU backend, -o and --clusters), ${e.seconds.toFixed(2)} s, ` +
      `${(e.bytes / 1e6 / e.seconds).toFixed(1)} MB/s; main thread ${e.mainMsPerMB.toFixed(2)} ms of CPU per MB`,
    '',
    '| stage | main thread CPU s | other threads CPU s |',
    '| --- | --: | --: |',
    ...Object.entries(e.cpuSeconds).map(([stage, t]) => `| ${stage} | ${t.main.toFixed(2)} | ${t.other.toFixed(2)} |`),
    '',
    "projected (each stage at least its main thread's CPU, at least all its CPU over the cores; assumes memory " +
      'bandwidth and the disk keep up):',
    '',
    '| cores | seconds | documents/s | MB/s | bound |',
    '| --: | --: | --: | --: | --- |',
  ];
  for (const p of e.projections)
    lines.push(
      `| ${p.cores} | ${p.seconds.toFixed(2)} | ${shortNumber(p.documentsPerSecond)} | ${p.mbPerSecond.toFixed(0)} | ` +
        `${p.bound.stage} (${p.bound.serial ? 'main thread: serial' : 'all threads'}) |`,
    );
  return lines;
}

function plotOf(s: BenchSummary): string {
  const bars = s.rows.map((r) => ({
    backend: r.backend,
    perSecond: r.evaluationsPerSecond,
    low: s.evaluations / r.seconds.max,
    high: s.evaluations / r.seconds.min,
  }));
  return throughputSvg(
    bars,
    'hash evaluations per second',
    `Signing throughput, k = ${s.k}, ${counted(s.documents, 'document')} (${s.machine.cpu})`,
  );
}
