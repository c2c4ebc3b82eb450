/**
 * The exact pass's work on the texts (textPairs.ts) on Node's worker threads. Shingling: the ranges, in file order,
 * cut into contiguous runs (up to RUNS_A_WORKER a worker), each taken by the next worker free and read front to
 * back; the sets come back as parts in shared memory, in range order. Deciding: the pairs cut into one slice a
 * worker, each reading the sets where they lie.
 */
import { WorkerPool } from '../workers/workerPool.js';
import { workerScript } from '../workers/workerScript.js';
import type { PackedSets, TextWork, TextSource } from './textPairs.js';
import type { TextBody, TextRequest, TextResponse } from './textWorker.js';

/** Ranges fewer than this are shingled in one run. */
const MIN_RANGES_A_WORKER = 256;
/** Runs of ranges a worker, at most. */
const RUNS_A_WORKER = 8;
/** Pairs fewer than this are decided on one worker. */
const MIN_PAIRS_A_WORKER = 1024;

/** The work and the end of its pool: started at its first call, kept for the run's later exact passes. */
export function textWorkInWorkers(source: TextSource, threads: number): { work: TextWork; close: () => void } {
  let pool: WorkerPool<TextRequest, TextResponse> | undefined;
  const size = Math.max(1, threads);
  const running = (): WorkerPool<TextRequest, TextResponse> =>
    (pool ??= new WorkerPool<TextRequest, TextResponse>(
      workerScript(import.meta.url, 'engines/textWorker.js'),
      size,
      'exact pass',
    ));
  const ask = async (w: number, body: TextBody, transfer: ArrayBuffer[]): Promise<TextResponse> => {
    const response = await running().request(w, body, transfer);
    if (response.error !== undefined) throw new Error(response.error);
    return response;
  };
  const work: TextWork = {
    shingle: async (ranges) => {
      // Several runs a worker, each taken by the next worker free: one slow worker does not hold the others up.
      const cuts = cutsOf(ranges.file.length, RUNS_A_WORKER * size, MIN_RANGES_A_WORKER);
      const runs: (readonly PackedSets[])[] = [];
      let next = 0;
      const shingleRuns = async (w: number): Promise<void> => {
        for (let run = next++; run + 1 < cuts.length; run = next++) {
          const [from, to, { file, start, bytes }] = [cuts[run], cuts[run + 1], ranges];
          const part = { file: file.slice(from, to), start: start.slice(from, to), bytes: bytes.slice(from, to) };
          const response = await ask(w, { type: 'shingle', ...part, source }, []);
          if (response.sets === undefined) throw new Error('exact pass worker: no sets');
          runs[run] = response.sets;
        }
      };
      await Promise.all(Array.from({ length: Math.min(size, cuts.length - 1) }, (_, w) => shingleRuns(w)));
      return runs.flat();
    },
    decide: async (parts, pairs, rule) => {
      const cuts = cutsOf(pairs.a.length, size, MIN_PAIRS_A_WORKER);
      const passed = new Uint8Array(pairs.a.length);
      await Promise.all(
        cuts.slice(0, -1).map(async (from, w) => {
          const [a, b] = [pairs.a.slice(from, cuts[w + 1]), pairs.b.slice(from, cuts[w + 1])];
          const response = await ask(w, { type: 'decide', parts, a, b, rule }, [a.buffer, b.buffer]);
          if (response.passed === undefined) throw new Error('exact pass worker: no decisions');
          passed.set(response.passed, from);
        }),
      );
      return passed;
    },
  };
  return { work, close: () => pool?.destroy() };
}

/** n items cut into at most `workers` contiguous runs of at least `least` each (one run below that): the cuts. */
function cutsOf(n: number, workers: number, least: number): number[] {
  const runs = Math.max(1, Math.min(workers, Math.floor(n / least)));
  return Array.from({ length: runs + 1 }, (_, w) => Math.round((w * n) / runs));
}
