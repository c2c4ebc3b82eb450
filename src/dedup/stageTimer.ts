/** The one stage timer of dedup (the CLI, the library, the tab) and the index: milliseconds per named stage. */

/** CPU milliseconds used so far by the whole process and by the main thread alone (where the platform tells). */
export type CpuClock = () => { readonly processMs: number; readonly mainMs: number };

/** CPU milliseconds of a stage: the main thread's, and every other thread's (workers, the GC's, the file pool's). */
export interface StageCpu {
  readonly mainMs: number;
  readonly otherMs: number;
}

export interface StageTime {
  readonly stage: string;
  readonly ms: number;
  /** With a CpuClock. */
  readonly cpu?: StageCpu;
}

/** Stages in the order they ended; a name timed twice appears twice (`byName` sums them). */
export class StageTimer {
  readonly stages: StageTime[] = [];

  constructor(private readonly clock?: CpuClock) {}

  add(stage: string, ms: number, cpu?: StageCpu): void {
    this.stages.push({ stage, ms, cpu });
  }

  /** Runs `work`, adding its time under `stage` whether it succeeds or throws. */
  async time<T>(stage: string, work: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    const cpuStarted = this.clock?.();
    try {
      return await work();
    } finally {
      this.add(stage, performance.now() - started, cpuSince(this.clock, cpuStarted));
    }
  }

  /** Milliseconds per stage name, summed, in the order each name first ended. */
  byName(): Record<string, number> {
    const sums: Record<string, number> = {};
    for (const { stage, ms } of this.stages) sums[stage] = (sums[stage] ?? 0) + ms;
    return sums;
  }

  /** CPU milliseconds per stage name, summed (empty without a clock). */
  cpuByName(): Record<string, StageCpu> {
    const sums: Record<string, StageCpu> = {};
    for (const { stage, cpu } of this.stages) {
      if (cpu === undefined) continue;
      const sum = sums[stage];
      sums[stage] = sum === undefined ? cpu : { mainMs: sum.mainMs + cpu.mainMs, otherMs: sum.otherMs + cpu.otherMs };
    }
    return sums;
  }
}

/** The CPU time since `started` (a reading of `clock`). */
export function cpuSince(clock: CpuClock | undefined, started: ReturnType<CpuClock> | undefined): StageCpu | undefined {
  if (clock === undefined || started === undefined) return undefined;
  const now = clock();
  const mainMs = now.mainMs - started.mainMs;
  return { mainMs, otherMs: Math.max(0, now.processMs - started.processMs - mainMs) };
}
