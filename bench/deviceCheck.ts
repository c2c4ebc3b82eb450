/**
 * The device check's steps (scripts/device/check.sh unpacks the bundle and runs
 * this with the bundle's Node): find the GPU through Dawn, `gpudedup doctor`,
 * generate the real-text corpus (bench/scaleCorpus.ts), `gpudedup bench` on it
 * (all threads against WebGPU), the kernel against its integer-multiply
 * roofline (bench/deviceRoofline.ts), the host feed rate, and a whole `dedup`
 * on `--backend webgpu` and on `--backend cpu`. Each step is time-boxed
 * (coreutils `timeout`) within one deadline, and summary.json is rewritten
 * after every step, so what finished is there even when a later step fails or
 * the whole check is stopped.
 *
 *   node dist/bench/deviceCheck.js --out DIR --work DIR [--docs N] [--runs N]
 *        [--budget SECONDS] [--started EPOCH_MS] [--allow-software] [--quick] [--loader TEXT] [--manifest FILE]
 *
 * Files under --out (at most 8): summary.json, check.log, doctor.json,
 * bench.json, bench.svg, dedup-webgpu.json, dedup-cpu.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgeTargets, knownSmCount, roofline, type Roofline, type Target } from './deviceRoofline.js';
import type { FeedRate } from './deviceFeedRate.js';

const APP = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(APP, 'dist/src/cli/main.js');
const GENERATOR = join(APP, 'dist/bench/scaleCorpus.js');
const FEED = join(APP, 'dist/bench/deviceFeedRate.js');
/** The NVIDIA driver's Vulkan ICD on the GPU machine (its notes: the VK_DRIVER_FILES line), when the loader finds none. */
export const NVIDIA_ICD = '/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json';
/** Documents of the generated corpus by default: about 2,000 bytes each, so just over 1 GB. */
export const DEFAULT_DOCUMENTS = 520_000;
const BIG_HEAP = '--max-old-space-size=16384'; // bench holds the corpus's texts and shingles

export type StepStatus = 'ok' | 'failed' | 'timeout' | 'skipped';

export interface StepRecord {
  readonly name: string;
  readonly status: StepStatus;
  readonly seconds: number;
  readonly exitCode?: number | null;
  readonly note?: string;
}

export interface BenchRowLite {
  readonly backend: string;
  readonly seconds: number;
  readonly evaluationsPerSecond: number;
  readonly mbPerSecond: number;
}

export interface DedupRun {
  readonly backend: string;
  readonly seconds: number;
  readonly mbPerSecond: number;
  readonly documents: number;
  readonly removed: number;
  readonly stages: Record<string, number>;
  readonly signingSeconds?: Record<string, number>;
}

export interface GpuInfo {
  readonly name: string;
  readonly driver?: string;
  readonly maxSmClockMHz?: number;
  readonly memoryMiB?: number;
  readonly smCount?: number;
  readonly smCountSource?: 'torch' | 'table';
}

export interface DeviceSummary {
  readonly schema: 'gpudedup-device-check/1';
  readonly started: string;
  finished?: string;
  readonly check: {
    readonly documents: number;
    readonly runs: number;
    readonly budgetSeconds: number;
    readonly allowSoftware: boolean;
  };
  readonly machine: {
    readonly cpu: string;
    readonly cores: number;
    readonly memoryBytes: number;
    readonly node: string;
    readonly kernel: string;
  };
  bundle?: unknown;
  loader?: string;
  vkDriverFiles?: string;
  adapter?: { readonly description: string; readonly software: boolean; readonly parity: boolean };
  gpu?: GpuInfo;
  corpus?: { readonly documents: number; readonly bytes: number; readonly files: number; readonly seconds: number };
  bench?: {
    readonly runs: number;
    readonly shingles: number;
    readonly evaluations: number;
    readonly rows: readonly BenchRowLite[];
    readonly gpuOverCpu?: number;
    readonly cpuThreads?: number;
  };
  roofline?: Roofline;
  feedRate?: FeedRate;
  readonly dedup: { webgpu?: DedupRun; cpu?: DedupRun };
  readonly steps: StepRecord[];
  targets: Target[];
}

interface Options {
  readonly out: string;
  readonly work: string;
  readonly documents: number;
  readonly runs: number;
  readonly budgetSeconds: number;
  readonly started: number;
  readonly allowSoftware: boolean;
  /** doctor without its rates (prepare.sh's traced run: the rates load no module that bench does not). */
  readonly quick: boolean;
  readonly loader?: string;
  readonly manifest?: string;
}

interface CommandResult {
  readonly status: StepStatus;
  readonly code: number | null;
  readonly stdout: string;
  readonly seconds: number;
}

const CAPTURE = 4 << 20; // bytes of a command's output kept in memory and in the log

/** Runs the steps against one deadline; `log` is check.log, `summary` is rewritten after each step. */
class Check {
  readonly summary: DeviceSummary;
  private readonly env: NodeJS.ProcessEnv = { ...process.env };
  private readonly hasTimeout = spawnSync('timeout', ['--version'], { stdio: 'ignore' }).status === 0;
  private readonly running = new Set<ReturnType<typeof spawn>>();

  constructor(readonly options: Options) {
    this.summary = {
      schema: 'gpudedup-device-check/1',
      started: new Date(options.started).toISOString(),
      check: {
        documents: options.documents,
        runs: options.runs,
        budgetSeconds: options.budgetSeconds,
        allowSoftware: options.allowSoftware,
      },
      machine: {
        cpu: cpus()[0]?.model ?? 'unknown',
        cores: availableParallelism(),
        memoryBytes: totalmem(),
        node: process.version,
        kernel: release(),
      },
      ...(options.loader ? { loader: options.loader } : {}),
      dedup: {},
      steps: [],
      targets: [],
    };
    if (options.manifest && existsSync(options.manifest)) {
      const { app, ...bundle } = JSON.parse(readFileSync(options.manifest, 'utf8')) as { app?: string[] };
      this.summary.bundle = { ...bundle, appFiles: app?.length };
    }
  }

  get log(): string {
    return join(this.options.out, 'check.log');
  }

  secondsLeft(): number {
    return (this.options.started + this.options.budgetSeconds * 1000 - Date.now()) / 1000;
  }

  /** The step's box, cut to what the deadline leaves (minus a margin to write the summary); 0 when too little is left (the step is then recorded as a timeout). */
  box(seconds: number): number {
    const left = Math.floor(this.secondsLeft() - 5);
    return left < 5 ? 0 : Math.min(seconds, left);
  }

  write(): void {
    this.summary.targets = judgeTargets({
      roofline: this.summary.roofline,
      gpuOverCpuSigning: this.summary.bench?.gpuOverCpu,
      cpuThreads: this.summary.bench?.cpuThreads ?? this.summary.machine.cores,
      corpusBytes: this.summary.corpus?.bytes,
      webgpuDedupMBps: this.summary.dedup.webgpu?.mbPerSecond,
      feedAllCoresMBps: this.summary.feedRate?.allCoresMBps,
      feedPerCoreMBps: this.summary.feedRate?.perCoreMBps,
    });
    const path = join(this.options.out, 'summary.json');
    writeFileSync(`${path}.partial`, `${JSON.stringify(this.summary, null, 2)}\n`);
    renameSync(`${path}.partial`, path);
  }

  record(step: StepRecord): void {
    this.summary.steps.push({ ...step, seconds: Number(step.seconds.toFixed(2)) });
    appendFileSync(
      this.log,
      `== ${step.name}: ${step.status} in ${step.seconds.toFixed(1)} s${step.note ? ` (${step.note})` : ''}\n`,
    );
    this.write();
  }

  /** One command under `timeout`, its output appended to check.log (and stdout to `stdoutTo` when given). */
  run(
    label: string,
    boxSeconds: number,
    command: string,
    args: readonly string[],
    stdoutTo?: string,
  ): Promise<CommandResult> {
    const started = performance.now();
    if (boxSeconds <= 0) return Promise.resolve({ status: 'timeout', code: null, stdout: '', seconds: 0 }); // `timeout 0` would never stop it
    const argv = this.hasTimeout ? ['--kill-after=5', String(boxSeconds), command, ...args] : [command, ...args];
    return new Promise((resolve) => {
      const child = spawn(this.hasTimeout ? 'timeout' : command, this.hasTimeout ? argv : args, {
        env: this.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.running.add(child);
      const timer = this.hasTimeout ? undefined : setTimeout(() => child.kill('SIGKILL'), boxSeconds * 1000);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => stdout.length < CAPTURE && (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => stderr.length < CAPTURE && (stderr += chunk.toString('utf8')));
      const done = (code: number | null, signal: NodeJS.Signals | null): void => {
        clearTimeout(timer);
        this.running.delete(child);
        const timedOut = (this.hasTimeout && (code === 124 || code === 137)) || signal === 'SIGKILL';
        const status: StepStatus = timedOut ? 'timeout' : code === 0 ? 'ok' : 'failed';
        if (stdoutTo !== undefined) writeFileSync(stdoutTo, stdout);
        appendFileSync(
          this.log,
          `-- ${label}: ${[command, ...args].join(' ')}\n${stdoutTo ? `(stdout in ${stdoutTo})\n` : stdout}${stderr}-- exit ${code ?? signal}${timedOut ? ` (over its ${boxSeconds} s box)` : ''}\n`,
        );
        resolve({ status, code, stdout, seconds: (performance.now() - started) / 1000 });
      };
      child.on('error', (error) => {
        stderr += `${error.message}\n`;
        done(127, null);
      });
      child.on('close', done);
    });
  }

  /** Stops what is running (the check was told to stop). */
  stop(): void {
    for (const child of this.running) child.kill('SIGTERM');
  }

  setEnv(name: string, value: string): void {
    this.env[name] = value;
  }
}

function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

interface DoctorJson {
  readonly adapters: {
    readonly description?: string;
    readonly check?: { readonly ok: boolean };
    readonly error?: string;
  }[];
  readonly auto: string;
}

/** A usable adapter in a doctor report: one whose parity check passed, hardware unless software is allowed. */
function usableAdapter(report: DoctorJson | undefined, allowSoftware: boolean): DeviceSummary['adapter'] | undefined {
  const passed = report?.adapters.find((a) => a.check?.ok);
  if (!report || !passed) return undefined;
  const software = !report.auto.startsWith('webgpu');
  if (software && !allowSoftware) return undefined;
  return {
    description: passed.description ?? 'unknown adapter',
    software,
    parity: report.adapters.every((a) => a.check?.ok !== false),
  };
}

/** Finds the GPU through Dawn; without one, tries the NVIDIA driver's ICD file (VK_DRIVER_FILES). */
async function probe(c: Check): Promise<void> {
  const attempt = async (
    label: string,
  ): Promise<{ adapter?: DeviceSummary['adapter']; result: CommandResult; report?: DoctorJson }> => {
    const result = await c.run(label, c.box(60), process.execPath, [CLI, 'doctor', '--json', '--no-rates']);
    const report = parseJson<DoctorJson>(result.stdout);
    return { adapter: usableAdapter(report, c.options.allowSoftware), result, report };
  };
  let found = await attempt('probe');
  let note = '';
  if (!found.adapter && process.env.VK_DRIVER_FILES === undefined && existsSync(NVIDIA_ICD)) {
    note = `none at first (${found.report?.auto ?? 'no report'}); retried with VK_DRIVER_FILES=${NVIDIA_ICD}`;
    c.setEnv('VK_DRIVER_FILES', NVIDIA_ICD);
    found = await attempt('probe with VK_DRIVER_FILES');
    if (found.adapter) c.summary.vkDriverFiles = NVIDIA_ICD;
  }
  if (found.adapter) c.summary.adapter = found.adapter;
  const why = found.adapter
    ? found.adapter.description
    : found.result.status === 'timeout'
      ? found.result.seconds === 0
        ? 'not started: no time left'
        : 'doctor did not answer within its box'
      : `no ${c.options.allowSoftware ? '' : 'hardware '}adapter: ${found.report?.auto ?? found.result.stdout.slice(0, 200)}`;
  c.record({
    name: 'probe',
    status: found.adapter ? 'ok' : found.result.status === 'timeout' ? 'timeout' : 'failed',
    seconds: found.result.seconds,
    exitCode: found.result.code,
    note: [note, why].filter(Boolean).join('; '),
  });
}

/** nvidia-smi's name, driver, clocks and memory, and the SM count from PyTorch (or a table of known parts). */
async function gpuInfo(c: Check): Promise<GpuInfo | undefined> {
  const smi = await c.run('nvidia-smi', c.box(30), 'nvidia-smi', [
    '--query-gpu=name,driver_version,clocks.max.sm,memory.total',
    '--format=csv,noheader,nounits',
  ]);
  if (smi.status === 'timeout')
    return (
      c.record({
        name: 'gpu info',
        status: 'timeout',
        seconds: smi.seconds,
        note: 'nvidia-smi did not answer in time',
      }),
      undefined
    );
  if (smi.status !== 'ok')
    return (
      c.record({
        name: 'gpu info',
        status: 'skipped',
        seconds: smi.seconds,
        exitCode: smi.code,
        note: 'no nvidia-smi here: no NVIDIA GPU, no roofline',
      }),
      undefined
    );
  const [name, driver, clock, memory] = smi.stdout
    .split('\n')[0]
    .split(',')
    .map((s) => s.trim());
  const torch = await c.run('SM count (PyTorch)', c.box(60), 'python3', [
    '-c',
    'import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)',
  ]);
  const fromTorch = torch.status === 'ok' ? Number(torch.stdout.trim().split('\n').pop()) : NaN;
  const fromTable = knownSmCount(name);
  const smCount = Number.isInteger(fromTorch) && fromTorch > 0 ? fromTorch : fromTable;
  c.record({
    name: 'gpu info',
    status: 'ok',
    seconds: smi.seconds + torch.seconds,
    note: `${name}, SM count ${smCount ?? 'unknown'} (${Number.isInteger(fromTorch) && fromTorch > 0 ? 'PyTorch' : 'table'})`,
  });
  return {
    name,
    driver,
    ...(Number(clock) > 0 ? { maxSmClockMHz: Number(clock) } : {}),
    ...(Number(memory) > 0 ? { memoryMiB: Number(memory) } : {}),
    ...(smCount === undefined
      ? {}
      : { smCount, smCountSource: smCount === fromTorch ? ('torch' as const) : ('table' as const) }),
  };
}

async function doctor(c: Check): Promise<void> {
  const box = c.box(90);
  if (box === 0) return c.record({ name: 'doctor', status: 'timeout', seconds: 0, note: 'not started: no time left' });
  const r = await c.run(
    'doctor',
    box,
    process.execPath,
    [CLI, 'doctor', '--json', ...(c.options.quick ? ['--no-rates'] : [])],
    join(c.options.out, 'doctor.json'),
  );
  c.record({
    name: 'doctor',
    status: r.status,
    seconds: r.seconds,
    exitCode: r.code,
    note: r.code === 1 ? 'an adapter signed differently from the CPU (doctor.json)' : undefined,
  });
}

function corpusBytes(dir: string): { bytes: number; files: number } {
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  return { bytes: files.reduce((s, f) => s + statSync(join(dir, f)).size, 0), files: files.length };
}

/** The generated corpus, in one part per core (at most 16), side by side in one directory. */
async function corpus(c: Check, dir: string): Promise<boolean> {
  const box = c.box(120);
  if (box === 0)
    return (c.record({ name: 'corpus', status: 'timeout', seconds: 0, note: 'not started: no time left' }), false);
  mkdirSync(dir, { recursive: true });
  const parts = Math.max(1, Math.min(16, availableParallelism(), c.options.documents));
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: parts }, (_, i) => {
      const name = `part-${String(i + 1).padStart(2, '0')}.jsonl`;
      return c.run(`corpus ${name}`, box, process.execPath, [
        GENERATOR,
        String(c.options.documents),
        join(dir, name),
        '--part',
        `${i + 1}/${parts}`,
      ]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const bad = results.find((r) => r.status !== 'ok');
  if (bad) return (c.record({ name: 'corpus', status: bad.status, seconds, exitCode: bad.code }), false);
  const { bytes, files } = corpusBytes(dir);
  c.summary.corpus = { documents: c.options.documents, bytes, files, seconds: Number(seconds.toFixed(1)) };
  c.record({
    name: 'corpus',
    status: 'ok',
    seconds,
    note: `${c.options.documents} documents, ${(bytes / 1e9).toFixed(3)} GB in ${files} files`,
  });
  return true;
}

interface BenchJson {
  readonly shingles: number;
  readonly evaluations: number;
  readonly machine: { readonly adapter?: string };
  readonly rows: readonly {
    backend: string;
    seconds: { median: number };
    evaluationsPerSecond: number;
    mbPerSecond: number;
  }[];
  readonly [key: string]: unknown;
}

/** `gpudedup bench` on the corpus, all threads against WebGPU; then the roofline of the WebGPU row. */
async function bench(c: Check, dir: string, gpu: Promise<GpuInfo | undefined>): Promise<BenchJson | undefined> {
  c.summary.gpu = await gpu; // before timing: PyTorch's start-up would take cores from the benchmark
  c.write();
  const box = c.box(180);
  if (box === 0)
    return (c.record({ name: 'bench', status: 'timeout', seconds: 0, note: 'not started: no time left' }), undefined);
  const json = join(c.options.out, 'bench.json');
  const args = [
    BIG_HEAP,
    CLI,
    'bench',
    dir,
    '--runs',
    String(c.options.runs),
    '--no-single-thread',
    '--no-end-to-end', // the check runs its own whole dedups, timed apart; this box is for signing
    '--json',
    json,
    '--plot',
    join(c.options.out, 'bench.svg'),
  ];
  const r = await c.run('bench', box, process.execPath, args);
  const report = r.status === 'ok' && existsSync(json) ? parseJson<BenchJson>(readFileSync(json, 'utf8')) : undefined;
  if (report) {
    const rows = report.rows.map((row) => ({
      backend: row.backend,
      seconds: row.seconds.median,
      evaluationsPerSecond: row.evaluationsPerSecond,
      mbPerSecond: row.mbPerSecond,
    }));
    const gpuRow = rows.find((row) => row.backend === report.machine.adapter);
    const cpuRow = rows.find((row) => row.backend.includes('(all threads)'));
    const threads = Number(/(\d+) threads?/.exec(cpuRow?.backend ?? '')?.[1]);
    c.summary.bench = {
      runs: c.options.runs,
      shingles: report.shingles,
      evaluations: report.evaluations,
      rows,
      ...(gpuRow && cpuRow ? { gpuOverCpu: gpuRow.evaluationsPerSecond / cpuRow.evaluationsPerSecond } : {}),
      ...(threads > 0 ? { cpuThreads: threads } : {}),
    };
    const g = c.summary.gpu;
    if (gpuRow && g?.smCount && g.maxSmClockMHz)
      c.summary.roofline = roofline(g.smCount, g.maxSmClockMHz, gpuRow.evaluationsPerSecond);
  }
  c.record({
    name: 'bench',
    status: report || r.status !== 'ok' ? r.status : 'failed',
    seconds: r.seconds,
    exitCode: r.code,
    note: report && !c.summary.roofline ? 'no roofline: no NVIDIA GPU seen (nvidia-smi) or no WebGPU row' : undefined,
  });
  return report;
}

/**
 * The feed rate `gpudedup bench --json` reports itself: its `feed` rows (src/pipeline/bench/feedRate.ts), one per
 * thread count; per core from the one-thread row when there is one, else the all-threads row's share.
 */
export function feedFromBench(report: Record<string, unknown> | undefined): FeedRate | undefined {
  const rows = report?.feed;
  if (!Array.isArray(rows) || rows.length === 0) return undefined;
  const feed = rows as { threads: number; mbPerSecond: number; mbPerSecondPerCore: number; shingles?: number }[];
  const all = feed.reduce((a, b) => (b.threads > a.threads ? b : a));
  const one = feed.find((r) => r.threads === 1);
  return {
    source: 'bench',
    what: 'gpudedup bench --json, field "feed"',
    threads: all.threads,
    perCoreMBps: one?.mbPerSecond ?? all.mbPerSecondPerCore,
    allCoresMBps: all.mbPerSecond,
    shingles: all.shingles,
  };
}

async function feedRate(c: Check, dir: string, report: BenchJson | undefined): Promise<void> {
  const fromBench = feedFromBench(report);
  if (fromBench) {
    c.summary.feedRate = fromBench;
    return c.record({ name: 'feed rate', status: 'ok', seconds: 0, note: fromBench.what });
  }
  const box = c.box(90);
  if (box === 0)
    return c.record({ name: 'feed rate', status: 'timeout', seconds: 0, note: 'not started: no time left' });
  const r = await c.run('feed rate', box, process.execPath, [FEED, dir]);
  const measured = r.status === 'ok' ? parseJson<FeedRate>(r.stdout.trim().split('\n').pop() ?? '') : undefined;
  if (measured) c.summary.feedRate = measured;
  c.record({
    name: 'feed rate',
    status: measured || r.status !== 'ok' ? r.status : 'failed',
    seconds: r.seconds,
    exitCode: r.code,
  });
}

interface DedupReportJson {
  readonly documents: number;
  readonly removed: number;
  readonly backend: string;
  readonly seconds: Record<string, number>;
  readonly signingSeconds?: Record<string, number>;
}

/** A whole `gpudedup dedup` of the corpus, as a user runs it, its report in OUT/dedup-BACKEND.json. */
async function dedup(c: Check, dir: string, backend: 'webgpu' | 'cpu'): Promise<void> {
  const name = `dedup --backend ${backend}`;
  const box = c.box(180);
  if (box === 0) return c.record({ name, status: 'timeout', seconds: 0, note: 'not started: no time left' });
  const report = join(c.options.out, `dedup-${backend}.json`);
  const kept = join(c.options.work, `kept-${backend}.jsonl`);
  const temp = join(c.options.work, `tmp-${backend}`);
  mkdirSync(temp, { recursive: true });
  const r = await c.run(name, box, process.execPath, [
    CLI,
    'dedup',
    dir,
    '-o',
    kept,
    '--report',
    report,
    '--backend',
    backend,
    '--temp-directory',
    temp,
    '-q',
  ]);
  rmSync(kept, { force: true });
  rmSync(temp, { recursive: true, force: true });
  const json =
    r.status === 'ok' && existsSync(report) ? parseJson<DedupReportJson>(readFileSync(report, 'utf8')) : undefined;
  if (json && c.summary.corpus) {
    c.summary.dedup[backend] = {
      backend: json.backend,
      seconds: Number(r.seconds.toFixed(2)),
      mbPerSecond: c.summary.corpus.bytes / 1e6 / r.seconds,
      documents: json.documents,
      removed: json.removed,
      stages: json.seconds,
      ...(json.signingSeconds ? { signingSeconds: json.signingSeconds } : {}),
    };
  }
  c.record({
    name,
    status: json || r.status !== 'ok' ? r.status : 'failed',
    seconds: r.seconds,
    exitCode: r.code,
    note: json?.backend,
  });
}

export async function runDeviceCheck(options: Options): Promise<DeviceSummary> {
  mkdirSync(options.out, { recursive: true });
  mkdirSync(options.work, { recursive: true });
  const c = new Check(options);
  const stop = (signal: NodeJS.Signals): void => {
    c.stop();
    c.record({
      name: 'stopped',
      status: 'failed',
      seconds: 0,
      note: `${signal}: the check was stopped; the steps above finished`,
    });
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  c.write();
  await probe(c);
  await doctor(c);
  const gpu = gpuInfo(c); // while the corpus is generated
  const dir = join(options.work, 'corpus');
  if (await corpus(c, dir)) {
    const report = await bench(c, dir, gpu);
    await dedup(c, dir, 'webgpu');
    await feedRate(c, dir, report);
    await dedup(c, dir, 'cpu');
  } else {
    c.summary.gpu = await gpu;
    const status = c.summary.steps.find((s) => s.name === 'corpus')!.status;
    for (const name of ['bench', 'dedup --backend webgpu', 'feed rate', 'dedup --backend cpu'])
      c.record({ name, status, seconds: 0, note: 'not started: no corpus' });
  }
  c.summary.finished = new Date().toISOString();
  c.write();
  return c.summary;
}

function parseArgs(argv: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const out = value('--out');
  const work = value('--work');
  if (!out || !work)
    throw new RangeError(
      'usage: node dist/bench/deviceCheck.js --out DIR --work DIR [--docs N] [--runs N] [--budget S] [--started MS] [--allow-software] [--quick] [--loader TEXT] [--manifest FILE]',
    );
  const positive = (name: string, fallback: number): number => {
    const n = Number(value(name) ?? fallback);
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name} must be a positive integer, got ${value(name)}`);
    return n;
  };
  return {
    out,
    work,
    documents: positive('--docs', DEFAULT_DOCUMENTS),
    runs: positive('--runs', 3),
    budgetSeconds: positive('--budget', 480),
    started: positive('--started', Date.now()),
    allowSoftware: argv.includes('--allow-software'),
    quick: argv.includes('--quick'),
    loader: value('--loader'),
    manifest: value('--manifest'),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const summary = await runDeviceCheck(parseArgs(process.argv.slice(2)));
    // Skipped: not applicable here (no NVIDIA GPU for the roofline); failures and timeouts fail the check.
    const failed = summary.steps.filter((s) => s.status === 'failed' || s.status === 'timeout');
    console.log(
      `device check: ${summary.steps.filter((s) => s.status === 'ok').length} of ${summary.steps.length} steps ok${failed.length ? `; not ok: ${failed.map((s) => `${s.name} (${s.status})`).join(', ')}` : ''}`,
    );
    for (const t of summary.targets)
      console.log(`  ${t.met === null ? '·' : t.met ? '✓' : '✗'} ${t.target}: ${t.measured}`);
    process.exitCode = failed.length ? 1 : 0;
  } catch (error) {
    console.error(`device check: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
