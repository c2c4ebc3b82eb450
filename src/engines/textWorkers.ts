/**
 * The exact pass's work on the texts (textPairs.ts) on Node's worker threads. Shingling: the ranges, in file order,
 * cut into contiguous runs (up to RUNS_A_WORKER a worker), each taken by the next worker free and read front to
 * back; the sets come back as parts in shared memory, in range order. Deciding: the pairs cut into one slice a
 * worker, each reading the sets where they lie.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTemporary, temporaryDirectory } from '../formats/files/temporaries.js';
import { WorkerPool } from '../workers/workerPool.js';
import { workerScript } from '../workers/workerScript.js';
import type { PackedSets, TextRanges, TextWork, TextSource } from './textPairs.js';
import { heldBytes } from './textSets.js';
import type { TextBody, TextRequest, TextResponse } from './textWorker.js';

/** Ranges fewer than this are shingled in one run. */
const MIN_RANGES_A_WORKER = 256;
/** Runs of ranges a worker, at most. */
const RUNS_A_WORKER = 8;
/** Pairs fewer than this are decided on one worker. */
const MIN_PAIRS_A_WORKER = 1024;

/** How much of the sets the host may hold (cluster.ts: its share of --memory-limit). */
export interface SetMemory {
  /** Bytes of sets held in shared memory at most, all runs together; past them a run's sets go to a file. */
  readonly budgetBytes: number;
  /** Where such files go (a directory of their own, removed at close); default the system's. */
  readonly tempDirectory?: string;
  /** Called once, at the first run written to a file. */
  readonly onSpill?: (budgetBytes: number, dir: string) => void;
}

/**
 * The work and the end of its pool: started at its first call, kept for the run's later exact passes. With `memory`,
 * the runs' sets stay within its budget (SetBudget).
 */
export function textWorkInWorkers(
  source: TextSource,
  threads: number,
  memory?: SetMemory,
): { work: TextWork; held: () => number; close: () => void } {
  let pool: WorkerPool<TextRequest, TextResponse> | undefined;
  const budget = memory === undefined ? undefined : new SetBudget(memory);
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
    shingle: (ranges) => shingleInRuns(ranges, size, (w, body) => ask(w, { ...body, source }, []), budget),
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
  return {
    work,
    held: () => budget?.heldBytes ?? 0,
    close: () => {
      pool?.destroy();
      budget?.close();
    },
  };
}

/**
 * The ranges cut into runs, several a worker, each taken by the next worker free (one slow worker does not hold the
 * others up); each run's sets in shared memory or, past the budget, a file.
 */
async function shingleInRuns(
  ranges: TextRanges,
  workers: number,
  ask: (w: number, body: TextRanges & { type: 'shingle'; spill?: string }) => Promise<TextResponse>,
  budget: SetBudget | undefined,
): Promise<PackedSets[]> {
  const cuts = cutsOf(ranges.file.length, RUNS_A_WORKER * workers, MIN_RANGES_A_WORKER);
  const runs: (readonly PackedSets[])[] = [];
  let next = 0;
  const shingleRuns = async (w: number): Promise<void> => {
    for (let run = next++; run + 1 < cuts.length; run = next++) {
      const [from, to, { file, start, bytes }] = [cuts[run], cuts[run + 1], ranges];
      const part = { file: file.slice(from, to), start: start.slice(from, to), bytes: bytes.slice(from, to) };
      const textBytes = part.bytes.reduce((sum, b) => sum + b, 0);
      const room = budget?.ask(textBytes);
      const response = await ask(w, { type: 'shingle', ...part, spill: room?.spill });
      if (response.sets === undefined) throw new Error('exact pass worker: no sets');
      if (room !== undefined) budget!.took(textBytes, room, response.sets);
      runs[run] = response.sets;
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, cuts.length - 1) }, (_, w) => shingleRuns(w)));
  return runs.flat();
}

/** Bytes of sets a text byte makes, until runs say: 1.2 at 1 M (English, 5-word shingles), with room. */
const FIRST_SETS_PER_TEXT_BYTE = 2;

/**
 * The sets' room: a run is shingled into shared memory while what is held, what is on its way and the run's own
 * (its text bytes times the sets' bytes a text byte, as the runs held so far measure it) fit the budget; else into a
 * file of its own.
 */
class SetBudget {
  private held = 0;
  private coming = 0;
  private heldText = 0;
  private dir: string | undefined;
  private files = 0;

  constructor(private readonly memory: SetMemory) {}

  /** Bytes of sets held in shared memory. */
  get heldBytes(): number {
    return this.held;
  }

  private expected(textBytes: number): number {
    return textBytes * (this.heldText > 0 ? this.held / this.heldText : FIRST_SETS_PER_TEXT_BYTE);
  }

  /** Where a run of `textBytes` goes: `spill` undefined for shared memory (`expected` bytes), else a file's path. */
  ask(textBytes: number): { readonly spill?: string; readonly expected: number } {
    const expected = this.expected(textBytes);
    if (this.held + this.coming + expected <= this.memory.budgetBytes) {
      this.coming += expected;
      return { expected };
    }
    if (this.dir === undefined) {
      this.dir = temporaryDirectory(this.memory.tempDirectory ?? tmpdir(), 'gpudedup-sets-');
      this.memory.onSpill?.(this.memory.budgetBytes, this.dir);
    }
    return { spill: join(this.dir, `sets-${this.files++}.u32`), expected: 0 };
  }

  /** A run's sets came back (in memory where `room.spill` is undefined). */
  took(
    textBytes: number,
    room: { readonly spill?: string; readonly expected: number },
    sets: readonly PackedSets[],
  ): void {
    if (room.spill !== undefined) return;
    this.coming -= room.expected;
    this.held += sets.reduce((sum, part) => sum + heldBytes(part), 0);
    this.heldText += textBytes;
  }

  close(): void {
    if (this.dir !== undefined) removeTemporary(this.dir);
  }
}

/** n items cut into at most `workers` contiguous runs of at least `least` each (one run below that): the cuts. */
function cutsOf(n: number, workers: number, least: number): number[] {
  const runs = Math.max(1, Math.min(workers, Math.floor(n / least)));
  return Array.from({ length: runs + 1 }, (_, w) => Math.round((w * n) / runs));
}
