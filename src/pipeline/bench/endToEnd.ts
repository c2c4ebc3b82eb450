/**
 * `gpudedup bench`'s end-to-end row: one whole dedup of the bench's inputs with
 * the defaults (CPU backend, `-o` and `--clusters` to a scratch directory), its
 * per-stage CPU seconds split into the main thread's and the other threads'
 * (the report's `cpuSeconds`), and what that run projects at more cores.
 *
 * The projection is a model, not a measurement: each stage takes at least its
 * main thread's CPU time (serial work) and at least all its CPU time spread
 * over the cores; the stages add up. It assumes the workers' share scales with
 * cores and that memory bandwidth and the disk keep up, and it names the stage
 * that bounds each projection and whether that stage's main thread does.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultLshParams } from '../../dedup/dedupSigned.js';
import type { ReadOptions } from '../../io/documents.js';
import { removeTemporary, temporaryDirectory } from '../../formats/files/temporaries.js';
import { defaultOf } from '../../options.js';
import type { SignatureParams } from '../../signatures/params.js';
import { dedupJob } from '../dedup/dedupJob.js';
import type { DedupConfig } from '../shared/config.js';

/** CPU seconds of one stage. */
export interface StageCpuSeconds {
  readonly main: number;
  readonly other: number;
}

export interface Projection {
  readonly cores: number;
  readonly seconds: number;
  readonly documentsPerSecond: number;
  readonly mbPerSecond: number;
  /** The stage that takes longest at these cores, and whether its main thread (serial) bounds it. */
  readonly bound: { readonly stage: string; readonly serial: boolean };
}

export interface EndToEnd {
  readonly threads?: number;
  readonly documents: number;
  /** Bytes of the input files. */
  readonly bytes: number;
  readonly seconds: number;
  /** The main thread's CPU time per MB of input over the whole run. */
  readonly mainMsPerMB: number;
  readonly cpuSeconds: Readonly<Record<string, StageCpuSeconds>>;
  readonly projections: readonly Projection[];
}

/** Seconds at `cores` cores from per-stage CPU seconds (see the header), and the stage that bounds it. */
export function projectStages(
  cpu: Readonly<Record<string, StageCpuSeconds>>,
  cores: number,
): { seconds: number; bound: Projection['bound'] } {
  let seconds = 0;
  let bound = { stage: '', serial: false, seconds: -1 };
  for (const [stage, { main, other }] of Object.entries(cpu)) {
    const spread = (main + other) / cores;
    const t = Math.max(main, spread);
    seconds += t;
    if (t > bound.seconds) bound = { stage, serial: main >= spread, seconds: t };
  }
  return { seconds, bound: { stage: bound.stage, serial: bound.serial } };
}

/** Every projection of a run of `documents` documents and `bytes` bytes. */
export function projectRun(
  cpu: Readonly<Record<string, StageCpuSeconds>>,
  documents: number,
  bytes: number,
  cores: readonly number[] = [16, 64],
): Projection[] {
  return cores.map((n) => {
    const { seconds, bound } = projectStages(cpu, n);
    return { cores: n, seconds, documentsPerSecond: documents / seconds, mbPerSecond: bytes / 1e6 / seconds, bound };
  });
}

/** One dedup of `inputs` with the defaults on the CPU backend, timed per stage and projected. */
export async function measureEndToEnd(
  inputs: readonly string[],
  read: ReadOptions,
  params: SignatureParams,
  threads?: number,
  /** Where its scratch directory goes (default: the system's temporary directory). */
  tempDirectory: string = tmpdir(),
): Promise<EndToEnd> {
  const verify = defaultOf('verify');
  const threshold = defaultOf('threshold');
  const config: DedupConfig = {
    inputs,
    read,
    params,
    backend: 'cpu',
    threads,
    threshold,
    lsh: defaultLshParams(threshold, params.k, verify),
    verify,
    clusterCheck: defaultOf('clusterCheck'),
    keep: defaultOf('keep'),
    against: [],
    tempDirectory,
  };
  const scratch = temporaryDirectory(tempDirectory, 'gpudedup-bench-');
  try {
    const started = performance.now();
    const { outcome, report } = await dedupJob(config, {
      out: join(scratch, 'kept.jsonl'),
      clusters: join(scratch, 'clusters.csv'),
    });
    const seconds = (performance.now() - started) / 1000;
    const bytes = outcome.files.reduce((sum, f) => sum + (f.size ?? 0), 0);
    const cpuSeconds = report.cpuSeconds;
    const mainSeconds = Object.values(cpuSeconds).reduce((sum, s) => sum + s.main, 0);
    return {
      threads,
      documents: outcome.table.documents,
      bytes,
      seconds,
      mainMsPerMB: (1000 * mainSeconds) / Math.max(bytes / 1e6, 1e-9),
      cpuSeconds,
      projections: projectRun(cpuSeconds, outcome.table.documents, bytes),
    };
  } finally {
    removeTemporary(scratch);
  }
}
