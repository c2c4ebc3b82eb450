/** The one stage timer of dedup (the CLI, the library, the tab) and the index: milliseconds per named stage. */

export interface StageTime {
  readonly stage: string;
  readonly ms: number;
}

/** Stages in the order they ended; a name timed twice appears twice (`byName` sums them). */
export class StageTimer {
  readonly stages: StageTime[] = [];

  add(stage: string, ms: number): void {
    this.stages.push({ stage, ms });
  }

  /** Runs `work`, adding its time under `stage` whether it succeeds or throws. */
  async time<T>(stage: string, work: () => T | Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(stage, performance.now() - started);
    }
  }

  /** Milliseconds per stage name, summed, in the order each name first ended. */
  byName(): Record<string, number> {
    const sums: Record<string, number> = {};
    for (const { stage, ms } of this.stages) sums[stage] = (sums[stage] ?? 0) + ms;
    return sums;
  }
}
