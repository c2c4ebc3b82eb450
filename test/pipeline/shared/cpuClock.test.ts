// The report's per-stage CPU seconds: the main thread's time from /proc, the other threads' as the rest of the
// process's. Busy work on this thread shows as main; busy work on a worker thread as other.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuSince } from '../../../src/dedup/stageTimer.js';
import { nodeCpuClock } from '../../../src/pipeline/shared/cpuClock.js';

const spin = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe.runIf(process.platform === 'linux')('nodeCpuClock', () => {
  it('counts busy work on the main thread as main, and on a worker as other', async () => {
    const clock = nodeCpuClock()!;
    expect(clock).toBeDefined();
    let started = clock();
    spin(300);
    const main = cpuSince(clock, started)!;
    expect(main.mainMs).toBeGreaterThan(200);
    expect(main.otherMs).toBeLessThan(150);
    started = clock();
    const worker = new Worker(
      'const end = performance.now() + 400; while (performance.now() < end); require("node:worker_threads").parentPort.postMessage(1);',
      { eval: true },
    );
    await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
    const other = cpuSince(clock, started)!;
    expect(other.otherMs).toBeGreaterThan(250);
    expect(other.mainMs).toBeLessThan(150);
  });
});
