/**
 * What a dedup run is given (DedupConfig) and how it talks back (DedupHooks):
 * notes for the user and one progress display per stage. `stageRunner` times
 * every stage under its name and shows its progress, for src/clusters'
 * in-memory stages and the passes over files alike.
 */
import { counted } from '../../format.js';
import type { LshParams } from '../../bands/lshParams.js';
import type { StageRunner } from '../../dedup/dedupSigned.js';
import { availableParallelism } from 'node:os';
import { defaultThreads, type OptionValues, type VerificationOptions } from '../../options.js';
import type { StageTimer } from '../../dedup/stageTimer.js';
import type { ReadOptions } from '../../io/documents.js';
import type { SignatureParams } from '../../signatures/params.js';
import { hashFamilyOf } from '../../signatures/params.js';
import { openSigner, type BackendChoice } from '../../firstPass/node/resolveBackend.js';

/**
 * The option table's fields (src/options.ts: types, defaults) as DedupSettings picks them, with keep and the audit's.
 */
export interface DedupConfig
  extends Pick<OptionValues, 'threshold' | 'verify' | 'clusterCheck' | 'keep'>,
    Partial<Omit<VerificationOptions, 'verify' | 'clusterCheck'>>,
    Partial<Pick<OptionValues, 'audit' | 'auditSeed'>> {
  /** Corpus files; may be empty when `signatures` is given (then only clusters and the report come out). */
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  /** Signature parameters; with `signatures`, those of the file. */
  readonly params: SignatureParams;
  readonly backend: BackendChoice;
  /** Worker threads of the CPU backend and the stages; default runThreads's. */
  readonly threads?: number;
  readonly lsh: LshParams;
  /** Reference files for decontamination. */
  readonly against: readonly string[];
  /** A `.npy` from `gpudedup sign` over the same inputs, instead of signing them. */
  readonly signatures?: string;
  /**
   * Past their share of this many bytes (rowSpill.ts's memoryPlan), signatures and shingle sets spill to
   * `tempDirectory` (default: 1 GiB, or a quarter of RAM if less).
   */
  readonly memoryLimitBytes?: number;
  /**
   * The shingle sets' share of the limit, held in memory (default: a quarter of it; tests raise it to spill rows
   * alone).
   */
  readonly shingleSetBytes?: number;
  /** Where spilled signatures go (default: the system's temporary directory). */
  readonly tempDirectory?: string;
}

export interface StageProgress {
  update(done: number, bytes?: number): void;
  stop(): void;
}

export interface DedupHooks {
  note(message: string): void;
  /** A progress display for a stage: total in bytes for passes over files, in items otherwise. */
  stage(label: string, total: number | undefined, unit: 'bytes' | 'items'): StageProgress;
}

export const SILENT_HOOKS: DedupHooks = {
  note: () => undefined,
  stage: () => ({ update: () => undefined, stop: () => undefined }),
};

/** Runs `work` with a progress display that is stopped however it ends. */
export async function withProgress<T>(
  hooks: DedupHooks,
  label: string,
  total: number | undefined,
  unit: 'bytes' | 'items',
  work: (progress: StageProgress) => Promise<T> | T,
): Promise<T> {
  const progress = hooks.stage(label, total, unit);
  try {
    return await work(progress);
  } finally {
    progress.stop();
  }
}

/**
 * A StageRunner that adds each stage's milliseconds to `timings` under its name and shows an item count when it has a
 * total.
 */
export function stageRunner(hooks: DedupHooks, timer: StageTimer): StageRunner {
  return (name, work, total) =>
    timer.time(name, () =>
      total === undefined
        ? work(() => undefined)
        : withProgress(hooks, name, total, 'items', (progress) => work((done) => progress.update(done))),
    );
}

/**
 * Counts what the first pass skipped (later passes meet the same again):
 * malformed lines under --skip-invalid, and binary files; notes each.
 */
export function skippedInputCounter(hooks: DedupHooks, read: ReadOptions) {
  const counter = {
    skipped: 0,
    /** The first skipped line's message, for refuseAllSkipped. */
    first: undefined as string | undefined,
    binaryFiles: [] as string[],
    onInvalid: (message: string): void => {
      counter.skipped++;
      counter.first ??= message;
      hooks.note(`skipped ${message}`);
      read.onInvalid?.(message);
    },
    onBinary: (path: string): void => {
      counter.binaryFiles.push(path);
      hooks.note(`skipped ${path}: a binary file`);
      read.onBinary?.(path);
    },
  };
  return counter;
}

/**
 * --skip-invalid that skipped every line left no document: most likely a misnamed --text-field or --id-field, so the
 * run is refused (its outputs would be empty) rather than ending well; one line, with the first line's reason.
 */
export function refuseAllSkipped(documents: number, skipped: { skipped: number; first?: string }): void {
  if (documents > 0 || skipped.skipped === 0) return;
  throw new RangeError(
    `--skip-invalid skipped every line (${counted(skipped.skipped, 'line')}) and no document is left; the first: ` +
      `${skipped.first ?? 'unknown'} (check --text-field and --id-field)`,
  );
}

/** A run's signer (GPU with CPU fallback, or CPU) and the first pass's workers. */
export type RunSigner = Awaited<ReturnType<typeof openSigner>>;

/**
 * A run's worker threads: `requested` (--threads), else options.ts's defaultThreads for this machine's cores and the
 * input's bytes as stored (`inputBytes`, undefined when unknown).
 */
export function runThreads(requested: number | undefined, inputBytes: number | undefined): number {
  return requested ?? defaultThreads(availableParallelism(), inputBytes);
}

/**
 * Runs `work` with the run's signer: the backend choice and any GPU fallback
 * are noted, and signer and workers are always released (a live Dawn
 * device busy-waits a core until destroyed). Without --threads, its threads are sized to `inputBytes` (runThreads).
 */
export async function withRunSigner<T>(
  config: { readonly backend: BackendChoice; readonly params: SignatureParams; readonly threads?: number },
  hooks: DedupHooks,
  inputBytes: number | undefined,
  work: (signer: RunSigner) => Promise<T>,
): Promise<T> {
  const signer = await openSigner(config.backend, hashFamilyOf(config.params), {
    cpuThreads: config.threads,
    inputBytes,
    onFallback: (error) => hooks.note(`warning: the GPU backend failed (${error.message}); finishing on the CPU`),
  });
  try {
    for (const line of signer.notes) hooks.note(`backend ${line}`);
    return await work(signer);
  } finally {
    signer.signer.destroy();
    signer.firstPass.workers.destroy();
  }
}
