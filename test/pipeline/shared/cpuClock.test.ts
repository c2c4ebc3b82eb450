// The report's per-stage CPU seconds: the main thread's time from /proc, the other threads' as the rest of the
// process's. Busy work on this thread shows as main; busy work on a worker thread as other.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuSince } from '../../../src/dedup/stageTimer.js';
import { nodeCpuClock } from '../../../src/pipeline/shared/cpuClock.js';

/** A fixed amount of work (not of time: the machine may be busy): about 0.3 s of one core. */
const WORK = 'let x = 0; for (let i = 0; i < 3e8; i++) x = (x + i) | 0; globalThis.sink = x;';
const spin = new Function(WORK) as () => void;

describe.runIf(process.platform === 'linux')('nodeCpuClock', () => {
  it('counts busy work on the main thread as main, and on a worker as other', async () => {
    const clock = nodeCpuClock()!;
    expect(clock).toBeDefined();
    let started = clock();
    spin();
    const main = cpuSince(clock, started)!;
    expect(main.mainMs).toBeGreaterThan(50);
    expect(main.mainMs).toBeGreaterThan(2 * main.otherMs);
    started = clock();
    const worker = new Worker(`${WORK} require("node:worker_threads").parentPort.postMessage(1);`, { eval: true });
    // It ends by itself once its script has run (terminate() could cut short V8's compiles of it: workerPool.ts).
    await new Promise((resolve) => worker.once('exit', resolve));
    const other = cpuSince(clock, started)!;
    expect(other.otherMs).toBeGreaterThan(50);
    expect(other.otherMs).toBeGreaterThan(2 * other.mainMs);
  });
});
