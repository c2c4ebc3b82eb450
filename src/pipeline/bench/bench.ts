/**
 * `gpudedup bench` without its command line: every signing kernel side by side
 * on the same documents, on this machine. The documents are read and shingled
 * once; each backend then signs the whole batch once to warm up and `runs`
 * more times, timed. Every backend's signatures must equal the first one's
 * word for word (a mismatch throws, naming the backend). TypeScript signs a
 * prefix of the documents, its time scaled by evaluations (its rate per
 * evaluation does not depend on the document count).
 */
import { counted } from '../../format.js';
import { cpus, totalmem } from 'node:os';
import type { ReadOptions } from '../../io/documents.js';
import { listInputFiles, readDocuments } from '../../io/readDocuments.js';
import { pack, type ShingleBatch } from '../../shingles/shingleBatch.js';
import { shingleDocument } from '../../shingles/shingles.js';
import { openCpuKernel, type CpuKernelName } from '../../signatures/cpuKernel.js';
import { ParallelCpuSigner } from '../../signatures/cpuParallel.js';
import type { HashFamily } from '../../signatures/hashFamily.js';
import { hashFamilyOf, shingleOptionsOf, type SignatureParams } from '../../signatures/params.js';
import { cpuThreads, resolveBackend } from '../../firstPass/node/resolveBackend.js';
import { errorMessage } from '../../errors.js';
import { SILENT_HOOKS, type DedupHooks } from '../shared/config.js';
import { requireUniqueIds } from '../../exact/uniqueIds.js';
import { measureEndToEnd, type EndToEnd } from './endToEnd.js';
import { measureFeedRate, projectFeed, type FeedProjections, type FeedRate } from './feedRate.js';

/** How each backend is timed: shared by `gpudedup bench` and bench/kernels.bench.ts. */
export interface SigningBenchOptions {
  /** Timed runs per backend, after one warm-up run. */
  readonly runs: number;
  /** Threads of the all-threads row; default one per core. */
  readonly cpuThreads?: number;
  /** Hash evaluations the TypeScript kernel is given (a prefix of the documents); default 5·10⁷. */
  readonly typescriptEvaluations?: number;
  /** Try WebGPU (default true); skipped with a note when no adapter is found. */
  readonly webgpu?: boolean;
  /** Time the one-thread rows (default true); without them the all-threads row is the reference. */
  readonly singleThread?: boolean;
}

export interface BenchConfig extends SigningBenchOptions {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly params: SignatureParams;
  /** Run one whole dedup of the inputs and project it to more cores (default true). */
  readonly endToEnd?: boolean;
}

/** What the rates are per: the documents of the batch. */
export interface CorpusSize {
  readonly documents: number;
  /** UTF-8 bytes of the documents' texts. */
  readonly bytes: number;
  /** Shingles signed: distinct within their document. */
  readonly shingles: number;
  readonly evaluations: number;
}

/** One backend's measurement; rates are for the whole corpus (a prefix's time scaled up). */
export interface BenchRow {
  readonly backend: string;
  /** Share of the documents' evaluations actually signed (1, or less for a scaled prefix). */
  readonly measuredShare: number;
  readonly runs: number;
  /** Seconds for the whole corpus: median, fastest and slowest run. */
  readonly seconds: { readonly median: number; readonly min: number; readonly max: number };
  readonly docsPerSecond: number;
  readonly mbPerSecond: number;
  readonly shinglesPerSecond: number;
  readonly evaluationsPerSecond: number;
  /** Median time over the fastest row's median time (1 for the fastest). */
  readonly timeVsFastest: number;
}

export interface BenchMachine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly node: string;
  /** The WebGPU adapter's description, when one was found. */
  readonly adapter?: string;
}

export interface BenchSummary extends CorpusSize {
  readonly k: number;
  readonly machine: BenchMachine;
  readonly rows: readonly BenchRow[];
  /** The host's feed rate for a GPU (feedRate.ts): one thread, then every thread. */
  readonly feed: readonly FeedRate[];
  /** The feed projected for 16 and 64 cores from the every-thread run; absent without one on workers. */
  readonly feedProjection?: FeedProjections;
  /** One whole dedup with the defaults, per stage, projected to 16 and 64 cores (endToEnd.ts). */
  readonly endToEnd?: EndToEnd;
}

/** How a backend signs the batch, for the timing loop. */
interface Candidate {
  readonly backend: string;
  readonly sign: (batch: ShingleBatch) => Uint32Array | Promise<Uint32Array>;
  readonly close?: () => void;
  /** Signs a prefix of the documents only (the TypeScript kernel). */
  readonly onPrefix?: boolean;
  /** A WebGPU adapter: its description is the machine's adapter. */
  readonly gpu?: boolean;
}

export async function runBench(config: BenchConfig, hooks: DedupHooks = SILENT_HOOKS): Promise<BenchSummary> {
  const { texts, batch } = await readAndShingle(config);
  const corpus: CorpusSize = {
    documents: texts.length,
    bytes: texts.reduce((s, t) => s + Buffer.byteLength(t), 0),
    shingles: batch.offsets[texts.length],
    evaluations: batch.offsets[texts.length] * config.params.k,
  };
  if (corpus.documents === 0) throw new RangeError('bench: the inputs hold no documents');
  hooks.note(
    `${counted(corpus.documents, 'document')}, ${(corpus.bytes / 1e6).toFixed(2)} MB, ` +
      `${counted(corpus.shingles, 'shingle')}, k = ${config.params.k}`,
  );
  const { rows, adapter } = await benchSigning(batch, hashFamilyOf(config.params), corpus, config, hooks);
  const files = await listInputFiles(config.inputs);
  const feed: FeedRate[] = [];
  const all = cpuThreads(config.cpuThreads).threads;
  for (const threads of [...new Set(config.singleThread === false ? [all] : [1, all])]) {
    hooks.note(`timing the feed rate (read, parse, exact pre-pass, shingle buffers) on ${counted(threads, 'thread')}`);
    feed.push(await measureFeedRate(files, config.params, config.read, threads));
  }
  const feedProjection = projectFeed(feed);
  let endToEnd: EndToEnd | undefined;
  if (config.endToEnd !== false) {
    hooks.note(`timing one whole dedup with the defaults (CPU backend) on ${counted(all, 'thread')}`);
    endToEnd = await measureEndToEnd(config.inputs, config.read, config.params, config.cpuThreads);
  }
  return {
    ...corpus,
    k: config.params.k,
    machine: machineOf(adapter),
    rows,
    feed,
    ...(feedProjection === undefined ? {} : { feedProjection }),
    ...(endToEnd === undefined ? {} : { endToEnd }),
  };
}

/**
 * Times every backend on `batch` (classic scheme: evaluations = shingles · k);
 * `reference` is the first backend's signatures, which every other one equalled.
 */
export async function benchSigning(
  batch: ShingleBatch,
  family: HashFamily,
  corpus: CorpusSize,
  options: SigningBenchOptions,
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<{ rows: BenchRow[]; adapter?: string; reference: Uint32Array }> {
  const measured: Omit<BenchRow, 'timeVsFastest'>[] = [];
  let reference: Uint32Array | undefined;
  let adapter: string | undefined;
  for await (const candidate of candidates(options, family, hooks)) {
    try {
      if (candidate.gpu) adapter = candidate.backend;
      const prefix = candidate.onPrefix ? prefixFor(batch, family.k, options.typescriptEvaluations ?? 5e7) : batch;
      const share = prefix === batch ? 1 : prefix.offsets[prefix.offsets.length - 1] / Math.max(1, corpus.shingles);
      const backend = share < 1 ? `${candidate.backend} (prefix, scaled)` : candidate.backend;
      hooks.note(`timing ${backend}`);
      const { signatures, seconds } = await timeRuns(candidate, prefix, options.runs);
      reference ??= signatures;
      checkEqual(backend, signatures, reference);
      measured.push(
        rowOf(
          backend,
          seconds.map((s) => s / share),
          share,
          corpus,
        ),
      );
    } finally {
      candidate.close?.();
    }
  }
  const fastest = Math.min(...measured.map((r) => r.seconds.median));
  return {
    rows: measured.map((r) => ({ ...r, timeVsFastest: r.seconds.median / fastest })),
    adapter,
    reference: reference!,
  };
}

async function readAndShingle(config: BenchConfig): Promise<{ texts: string[]; batch: ShingleBatch }> {
  const files = await listInputFiles(config.inputs);
  const texts: string[] = [];
  for await (const doc of requireUniqueIds(readDocuments(files, config.read))) texts.push(doc.text);
  const options = shingleOptionsOf(config.params);
  return { texts, batch: pack(texts.map((t) => shingleDocument(t, options))) };
}

/** The backends in table order: the first is the reference the others must equal. */
async function* candidates(
  config: SigningBenchOptions,
  family: HashFamily,
  hooks: DedupHooks,
): AsyncGenerator<Candidate> {
  for (const name of (config.singleThread === false
    ? []
    : ['wasm-simd', 'wasm-scalar', 'typescript']) as CpuKernelName[]) {
    const { kernel, notes } = openCpuKernel(name);
    if (kernel.name !== name) {
      hooks.note(`${name} skipped: ${notes.join('; ')}`);
      continue;
    }
    const label = { 'wasm-simd': 'wasm SIMD', 'wasm-scalar': 'wasm scalar', typescript: 'TypeScript' }[name];
    yield { backend: `${label}, 1 thread`, sign: (b) => kernel.sign(family, b), onPrefix: name === 'typescript' };
  }
  const { threads } = cpuThreads(config.cpuThreads);
  const parallel = new ParallelCpuSigner(family, threads);
  yield {
    backend: `${parallel.description.replace(/^CPU \((.*)\)$/, '$1')} (all threads)`,
    sign: (b) => parallel.sign(b),
    close: () => parallel.destroy(),
  };
  if (config.webgpu === false) return;
  let gpu: Awaited<ReturnType<typeof resolveBackend>>['backend'];
  try {
    gpu = (await resolveBackend('webgpu', family)).backend;
  } catch (error) {
    hooks.note(`WebGPU skipped: ${errorMessage(error)}`);
    return;
  }
  yield { backend: gpu.description, sign: (b) => gpu.sign(b), close: () => gpu.destroy(), gpu: true };
}

/** The first documents whose evaluations reach `evaluations` (at least one document). */
function prefixFor(batch: ShingleBatch, k: number, evaluations: number): ShingleBatch {
  const documents = batch.offsets.length - 1;
  let prefix = 1;
  while (prefix < documents && batch.offsets[prefix] * k < evaluations) prefix++;
  if (prefix === documents) return batch;
  return {
    shingles: batch.shingles.subarray(0, 2 * batch.offsets[prefix]),
    offsets: batch.offsets.subarray(0, prefix + 1),
  };
}

async function timeRuns(
  candidate: Candidate,
  batch: ShingleBatch,
  runs: number,
): Promise<{ signatures: Uint32Array; seconds: number[] }> {
  const signatures = await candidate.sign(batch); // warm-up: compiles, spawns workers, uploads pipelines
  const seconds: number[] = [];
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    await candidate.sign(batch);
    seconds.push((performance.now() - started) / 1000);
  }
  return { signatures, seconds };
}

/**
 * `got` (maybe a prefix's signatures) equal to the start of `expected`, word for word; else an error naming `backend`.
 */
export function checkEqual(backend: string, got: Uint32Array, expected: Uint32Array): void {
  if (got.length > expected.length)
    throw new Error(`bench: ${backend} returned ${got.length} signature words, the reference ${expected.length}`);
  for (let i = 0; i < got.length; i++) {
    if (got[i] !== expected[i])
      throw new Error(
        `bench: ${backend}'s signatures differ from the reference's (first at word ${i} of ${got.length})`,
      );
  }
}

function rowOf(backend: string, seconds: number[], share: number, corpus: CorpusSize): Omit<BenchRow, 'timeVsFastest'> {
  const sorted = [...seconds].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const per = (n: number): number => n / Math.max(median, 1e-9);
  return {
    backend,
    measuredShare: share,
    runs: seconds.length,
    seconds: { median, min: sorted[0], max: sorted[sorted.length - 1] },
    docsPerSecond: per(corpus.documents),
    mbPerSecond: per(corpus.bytes / 1e6),
    shinglesPerSecond: per(corpus.shingles),
    evaluationsPerSecond: per(corpus.evaluations),
  };
}

function machineOf(adapter: string | undefined): BenchMachine {
  const list = cpus();
  return {
    cpu: list[0]?.model ?? 'unknown',
    cores: list.length,
    memoryBytes: totalmem(),
    node: process.version,
    ...(adapter === undefined ? {} : { adapter }),
  };
}
