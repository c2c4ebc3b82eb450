/**
 * The exact pass's reading and shingling (textPairs.ts) on Node's worker threads: the ranges, in file order, cut
 * into one contiguous run a worker, each worker reading its run front to back; the sets come back packed.
 */
import { WorkerPool } from '../workers/workerPool.js';
import { workerScript } from '../workers/workerScript.js';
import type { RangeShingler, TextSource } from './textPairs.js';
import type { ShingleRequest, ShingleResponse } from './textWorker.js';

/** Ranges fewer than this are shingled on one worker. */
const MIN_RANGES_A_WORKER = 256;

/** The shingler and the end of its pool: started at its first call, kept for the run's later exact passes. */
export function shingleInWorkers(source: TextSource, threads: number): { shingle: RangeShingler; close: () => void } {
  let pool: WorkerPool<ShingleRequest, ShingleResponse> | undefined;
  const shingle: RangeShingler = async (ranges) => {
    const n = ranges.file.length;
    const workers = Math.max(1, Math.min(threads, Math.floor(n / MIN_RANGES_A_WORKER)));
    const running = (pool ??= new WorkerPool<ShingleRequest, ShingleResponse>(
      workerScript(import.meta.url, 'engines/textWorker.js'),
      Math.max(1, threads),
      'exact pass',
    ));
    const cuts = Array.from({ length: workers + 1 }, (_, w) => Math.round((w * n) / workers));
    return Promise.all(
      cuts.slice(0, -1).map(async (from, w) => {
        const to = cuts[w + 1];
        const part = {
          file: ranges.file.slice(from, to),
          start: ranges.start.slice(from, to),
          bytes: ranges.bytes.slice(from, to),
        };
        const response = await running.request(w, { ...part, source });
        if (response.error !== undefined || response.sets === undefined)
          throw new Error(response.error ?? 'exact pass worker: no answer');
        return response.sets;
      }),
    );
  };
  return { shingle, close: () => pool?.destroy() };
}
