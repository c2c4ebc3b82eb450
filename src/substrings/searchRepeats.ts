/**
 * The search, whatever runs its rounds: the key space is cut into equal
 * slices, so that one slice's windows fit the memory budget; each slice is a
 * round (repeatGroups.ts), run in this thread or by workers sharing the
 * corpus and the marks (repeatWorkers.ts). Then the marks become spans.
 */
import type { CutMode } from '../options.js';
import { windowCount, type CorpusText } from './corpusText.js';
import { collectRound, markRound, sortRound, type RoundStats } from './repeatGroups.js';
import { findFirsts, mergeMarks, type SpanColumns } from './spans.js';

export interface SearchOptions {
  readonly minLength: number;
  readonly cut: CutMode;
  /** Bytes for the rounds' tables (the corpus and its marks come on top). */
  readonly memoryLimitBytes: number;
}

export interface SearchStats extends RoundStats {
  /** The rounds run: the key space's slices, as many as --memory-limit needs and at least one a thread. */
  rounds: number;
  /**
   * The threads that ran them at once (the tab's search: one). With more threads a round is cut finer, so the same
   * corpus takes more rounds (2 on two threads where one thread takes 1); every other count is the same.
   */
  threads: number;
}

/** Runs the round of keys [lo, hi) on lane `lane` (a worker): marks its repeated windows in that lane's marks. */
export type RoundRunner = (lo: number, hi: number, lane: number) => Promise<RoundStats>;

/** What one window costs in a round: key, lane and position, twice while sorting (4 bytes each), and some slack. */
export const BYTES_PER_WINDOW = 28;
const KEY_SPACE = 2 ** 32;

/** Slices of the key space, as many as the budget needs (at least `parallel`, one per worker at a time). */
export function keySlices(windows: number, memoryLimitBytes: number, parallel: number): Array<[number, number]> {
  const perRound = Math.max(1, Math.floor(memoryLimitBytes / BYTES_PER_WINDOW / parallel));
  const count = Math.min(KEY_SPACE, Math.max(parallel, Math.ceil(windows / perRound)));
  return Array.from({ length: count }, (_, i) => [
    Math.floor((i * KEY_SPACE) / count),
    Math.floor(((i + 1) * KEY_SPACE) / count),
  ]);
}

export function newMarks(corpus: CorpusText, shared: boolean): Int32Array {
  const words = Math.ceil(corpus.bytes.length / 32) + 1;
  return new Int32Array(shared ? new SharedArrayBuffer(words * 4) : new ArrayBuffer(words * 4));
}

/** One marks array per lane (each written by one worker only), ORed into the first once the rounds are done. */
export function laneMarks(corpus: CorpusText, lanes: number, shared: boolean): Int32Array[] {
  return Array.from({ length: lanes }, () => newMarks(corpus, shared));
}

/** The first array with every other ORed into it (also a checkpoint's snapshot, into a fresh array). */
export function orMarks(marks: readonly Int32Array[], into: Int32Array = marks[0]): Int32Array {
  const others = marks.filter((m) => m !== into);
  for (const other of others) for (let w = 0; w < into.length; w++) into[w] |= other[w];
  return into;
}

/** The round of keys [lo, hi) in this thread. */
export function runRound(
  corpus: CorpusText,
  options: SearchOptions,
  marks: Int32Array,
  lo: number,
  hi: number,
  windows?: number,
): RoundStats {
  const expected = windows === undefined ? undefined : Math.ceil(((windows * (hi - lo)) / KEY_SPACE) * 1.05) + 1024;
  const entries = collectRound(corpus, options.minLength, lo, hi, 0, corpus.starts.length - 1, undefined, expected);
  return markRound(corpus, options.minLength, sortRound(entries), marks, options.cut);
}

/**
 * How a search runs its rounds beyond the budget: a resumed run gives the slices of the run it continues, the rounds
 * that run finished and the marks it had made; a checkpointing caller is told after each round.
 */
export interface SearchPlan {
  /** The rounds' key slices (default: keySlices for the budget and the lanes). */
  readonly slices?: ReadonlyArray<readonly [number, number]>;
  /** Indexes into slices of the rounds already done: skipped. */
  readonly done?: ReadonlySet<number>;
  /** Marks of the done rounds (a bit per corpus byte), ORed into this search's. */
  readonly resumedMarks?: Int32Array;
  /** The done rounds' counts (windows, groups, collisions), added to this search's: the report covers every round. */
  readonly resumedStats?: RoundStats;
  /** Rounds done so far (resumed ones included) of the total. */
  readonly onRound?: (done: number, total: number) => void;
  /**
   * After each round, before that lane takes another: the slices finished so far and every lane's marks (a lane
   * still in a round has some of its bits set: marks are only ever verified windows, so a snapshot is never wrong),
   * and the finished rounds' counts.
   */
  readonly afterRound?: (
    finished: ReadonlySet<number>,
    marks: readonly Int32Array[],
    stats: RoundStats,
  ) => Promise<void> | void;
}

/**
 * Every repeated span: the rounds (by `run`, `parallel` at a time, lane i
 * marking marks[i]), then the marks merged into spans with their first occurrences.
 */
export async function searchRepeats(
  corpus: CorpusText,
  options: SearchOptions,
  marks: readonly Int32Array[],
  run: RoundRunner,
  parallel: number,
  plan: SearchPlan = {},
): Promise<{ spans: SpanColumns; stats: SearchStats }> {
  const slices = plan.slices ?? keySlices(windowCount(corpus, options.minLength), options.memoryLimitBytes, parallel);
  const finished = new Set(plan.done ?? []);
  const todo = slices.map((_, i) => i).filter((i) => !finished.has(i));
  const resumed = plan.resumedStats;
  const stats: SearchStats = {
    rounds: slices.length,
    threads: parallel,
    windows: resumed?.windows ?? 0,
    groups: resumed?.groups ?? 0,
    repeatedWindows: resumed?.repeatedWindows ?? 0,
    collisions: resumed?.collisions ?? 0,
  };
  let next = 0;
  const lane = async (_: unknown, index: number): Promise<void> => {
    while (next < todo.length) {
      const slice = todo[next++];
      const round = await run(slices[slice][0], slices[slice][1], index);
      stats.windows += round.windows;
      stats.groups += round.groups;
      stats.repeatedWindows += round.repeatedWindows;
      stats.collisions += round.collisions;
      finished.add(slice);
      plan.onRound?.(finished.size, slices.length);
      await plan.afterRound?.(finished, marks, roundStats(stats));
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  const merged = orMarks(plan.resumedMarks === undefined ? marks : [...marks, plan.resumedMarks]);
  const spans = mergeMarks(corpus, options.minLength, merged);
  findFirsts(corpus, options.minLength, spans);
  return { spans, stats };
}

/** The counts of the rounds finished so far (a copy: the search goes on adding to its own). */
function roundStats(stats: SearchStats): RoundStats {
  const { windows, groups, repeatedWindows, collisions } = stats;
  return { windows, groups, repeatedWindows, collisions };
}

/** The search in this thread (the library, the tab, small corpora). */
export function searchRepeatsHere(
  corpus: CorpusText,
  options: SearchOptions,
  plan: SearchPlan = {},
): Promise<{ spans: SpanColumns; stats: SearchStats }> {
  const marks = newMarks(corpus, false);
  const windows = windowCount(corpus, options.minLength);
  return searchRepeats(
    corpus,
    options,
    [marks],
    async (lo, hi) => runRound(corpus, options, marks, lo, hi, windows),
    1,
    plan,
  );
}
