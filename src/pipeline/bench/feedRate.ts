/**
 * The host's feed rate for a GPU: input read, parsed, keyed by the exact
 * pre-pass and shingled into the buffers a device signer uploads — the first
 * pass with the workers returning shingles (src/firstPass), the device left
 * out — on one thread and on every core, in MB/s of UTF-8 text. A GPU signs far
 * faster than this, so this is what a workstation's cores can feed it.
 *
 * More cores feed more only while the one thread that cuts the input and
 * orders the documents keeps up: a run with workers also times that thread
 * (its event loop's busy time per MB), and projectFeed says what N cores
 * could feed, whichever of the two limits comes first.
 */
import { performance } from 'node:perf_hooks';
import { ExactPrePass } from '../../exact/exactPrePass.js';
import { firstPass } from '../../firstPass/firstPass.js';
import { UniqueIds } from '../../exact/uniqueIds.js';
import type { ReadOptions } from '../../io/documents.js';
import { inputUnits } from '../../firstPass/node/inputUnits.js';
import type { InputFile } from '../../io/readDocuments.js';
import type { SignatureParams } from '../../signatures/params.js';
import { nodeFirstPassWorkers } from '../../firstPass/node/firstPassWorkers.js';
import { unitSetup } from '../shared/corpusPass.js';
import { threadClock } from '../shared/cpuClock.js';

export interface FeedRate {
  readonly threads: number;
  readonly seconds: number;
  /** UTF-8 bytes of the texts turned into shingle buffers, per second. */
  readonly mbPerSecond: number;
  readonly mbPerSecondPerCore: number;
  readonly shingles: number;
  /**
   * This thread's CPU time per MB of text (Linux: /proc/thread-self/schedstat;
   * elsewhere its event loop's busy time, which also counts any wait for a
   * core): with workers, what reading, cutting and ordering cost it; on one
   * thread, all the work.
   */
  readonly mainMsPerMB: number;
}

/** What `cores` cores could feed: the workers' rate or the ordering thread's, whichever binds. */
export interface FeedProjection {
  readonly cores: number;
  readonly mbPerSecond: number;
  readonly bound: 'workers' | 'main thread';
}

export interface FeedProjections {
  /** The run with workers that the projection is from. */
  readonly threads: number;
  /** Its MB/s per worker thread. */
  readonly perCoreMBps: number;
  /** Its main thread's ms per MB of text: that thread alone feeds at most 1000 / mainMsPerMB MB/s. */
  readonly mainMsPerMB: number;
  readonly projections: readonly FeedProjection[];
}

/** The first pass to shingle buffers on `threads` workers (1: this thread alone), timed. */
export async function measureFeedRate(
  files: readonly InputFile[],
  params: SignatureParams,
  read: ReadOptions,
  threads: number,
): Promise<FeedRate> {
  const workers = nodeFirstPassWorkers(threads);
  const busy = performance.eventLoopUtilization();
  const threadCpuMs = threadClock();
  const cpuBefore = threadCpuMs?.();
  const started = performance.now();
  let bytes = 0;
  let shingles = 0;
  try {
    const prePass = new ExactPrePass(params.normalize, { kind: 'first' });
    for await (const unit of firstPass(inputUnits(files), {
      setup: unitSetup(params, read, { kind: 'first' }),
      workers,
      finish: { sign: false },
      prePass,
      ids: new UniqueIds(),
    })) {
      bytes += unit.documents.textBytes;
      shingles += unit.result.shingleCount;
    }
  } finally {
    workers.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = threadCpuMs?.();
  // The kernel brings a running thread's schedstat up to date only at a tick or a switch, so a short run on a
  // thread that never slept can read 0: then the event loop's active time stands in for it.
  const onCpuMs = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : 0;
  const mainMs = onCpuMs > 0 ? onCpuMs : performance.eventLoopUtilization(busy).active;
  const mbPerSecond = bytes / 1e6 / seconds;
  return {
    threads,
    seconds,
    mbPerSecond,
    mbPerSecondPerCore: mbPerSecond / threads,
    shingles,
    mainMsPerMB: mainMs / Math.max(bytes / 1e6, 1e-9),
  };
}

/**
 * The feed of `cores` cores, from the run with the most workers: min(cores × its
 * MB/s per worker, 1000 / its main thread's ms per MB). Undefined without a run
 * on workers (one thread does all the work, so its cost cannot be told apart).
 */
export function projectFeed(
  feed: readonly FeedRate[],
  cores: readonly number[] = [16, 64],
): FeedProjections | undefined {
  const run = feed.filter((f) => f.threads > 1).sort((a, b) => b.threads - a.threads)[0];
  if (run === undefined) return undefined;
  const mainLimit = 1000 / run.mainMsPerMB;
  const projections = cores.map((n): FeedProjection => {
    const workers = n * run.mbPerSecondPerCore;
    return workers <= mainLimit
      ? { cores: n, mbPerSecond: workers, bound: 'workers' }
      : { cores: n, mbPerSecond: mainLimit, bound: 'main thread' };
  });
  return { threads: run.threads, perCoreMBps: run.mbPerSecondPerCore, mainMsPerMB: run.mainMsPerMB, projections };
}
