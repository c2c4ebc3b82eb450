/**
 * Each step's peak resident set, sampled: the process's VmRSS (Linux's
 * /proc/self/status) every few milliseconds while the step runs, and once
 * more at its end. The high-water mark (VmHWM) is not reset for this: a reset
 * would also lower what `/usr/bin/time` and getrusage report as the run's
 * peak. Where /proc is absent, no figure.
 */
import { readFileSync } from 'node:fs';

/** The process's resident set in bytes (VmRSS), or undefined without /proc. */
export function residentBytes(): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** How often the resident set is sampled while a step runs. */
const SAMPLE_MS = 25;

/** The steps running now (withStepPeak), each with its largest sample so far: one timer samples for all of them. */
const running = new Set<{ highest: number }>();
let sampler: ReturnType<typeof setInterval> | undefined;

function sample(): void {
  const bytes = residentBytes();
  if (bytes === undefined) return;
  for (const step of running) if (bytes > step.highest) step.highest = bytes;
}

/**
 * Runs `work` while sampling the resident set every SAMPLE_MS (the engine's queries run off the event loop, so the
 * samples keep coming): `peak` gets the largest sample in bytes, where the system gives one. Steps inside steps (a
 * phase, its steps, a host step's parts) share one sampler rather than each reading /proc on a timer of its own.
 */
export async function withStepPeak<T>(work: () => Promise<T>, peak: (bytes: number) => void): Promise<T> {
  const start = residentBytes();
  if (start === undefined) return work();
  const step = { highest: start };
  running.add(step);
  sampler ??= setInterval(sample, SAMPLE_MS);
  try {
    return await work();
  } finally {
    sample();
    running.delete(step);
    if (running.size === 0) {
      clearInterval(sampler);
      sampler = undefined;
    }
    peak(step.highest);
  }
}

/** One step's cost, summed over its runs (a loop's step runs once a round): what `cluster --report` lists. */
export interface StepCost {
  /** The phase it ran in (setup, components, finish, inspect). */
  readonly phase: string;
  /** The step's table, or `table.part` for a part of a host step (its pairs out, sets, decisions, pairs back in). */
  readonly step: string;
  readonly runs: number;
  readonly ms: number;
  /** The whole process's CPU (every thread: DuckDB's, the exact pass's workers') while it ran. */
  readonly userMs: number;
  readonly systemMs: number;
  /** Pages the process touched first (or again after the system took them back) while it ran. */
  readonly minorFaults: number;
  /** The largest resident set sampled while it ran (withStepPeak), where the system gives one. */
  readonly peakBytes?: number;
}

const NO_COST = { runs: 0, ms: 0, userMs: 0, systemMs: 0, minorFaults: 0 };

/**
 * Each step's wall time, CPU (user and system, process.resourceUsage: all threads) and peak resident set, by phase and
 * step, in the order first run; a step inside another (the host step's parts) is named `outer.inner`.
 */
export class StepLog {
  private readonly costs = new Map<string, StepCost>();
  private readonly open: string[] = [];
  private phase = '';
  /** Milliseconds per phase. */
  readonly timings: Record<string, number> = {};
  /** Peak resident bytes per phase, where the system says. */
  readonly peaks: Record<string, number> = {};

  /** Runs a phase (setup, components, …): the steps run in it belong to it. */
  async inPhase<T>(phase: string, work: () => Promise<T>): Promise<T> {
    this.phase = phase;
    const started = performance.now();
    try {
      return await withStepPeak(work, (bytes) => {
        this.peaks[phase] = bytes;
      });
    } finally {
      this.timings[phase] = performance.now() - started;
    }
  }

  async step<T>(name: string, work: () => Promise<T>): Promise<T> {
    const step = [...this.open, name].join('.');
    const key = `${this.phase}\n${step}`;
    // Listed in the order first started (a step before its parts).
    if (!this.costs.has(key)) this.costs.set(key, { ...NO_COST, phase: this.phase, step });
    const before = process.resourceUsage();
    const started = performance.now();
    let peakBytes: number | undefined;
    this.open.push(name);
    try {
      return await withStepPeak(work, (bytes) => {
        peakBytes = bytes;
      });
    } finally {
      this.open.pop();
      const after = process.resourceUsage();
      const was = this.costs.get(key)!;
      this.costs.set(key, {
        ...was,
        runs: was.runs + 1,
        ms: was.ms + performance.now() - started,
        userMs: was.userMs + (after.userCPUTime - before.userCPUTime) / 1000,
        systemMs: was.systemMs + (after.systemCPUTime - before.systemCPUTime) / 1000,
        minorFaults: was.minorFaults + after.minorPageFault - before.minorPageFault,
        peakBytes: peakBytes === undefined ? was.peakBytes : Math.max(peakBytes, was.peakBytes ?? 0),
      });
    }
  }

  list(): StepCost[] {
    return [...this.costs.values()];
  }
}
