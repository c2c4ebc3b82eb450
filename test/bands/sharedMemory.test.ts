// Shared arrays that worker threads read where they lie: only those a worker receives whole count as shared. Node 20
// posts a SharedArrayBuffer's length in 32 bits, so one of 4 GiB arrives cut short (reads past the cut give undefined,
// a silently wrong result); isShared must say so, and the stages then read such an array on the thread that holds it.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { isShared, MAX_POSTED_SHARED_BYTES, sharedWords } from '../../src/bands/sharedMemory.js';

/** The length a worker sees of `array` posted to it. */
async function lengthInWorker(array: Uint32Array): Promise<number> {
  const worker = new Worker(
    "require('node:worker_threads').parentPort.once('message', (a) => require('node:worker_threads').parentPort.postMessage(a.length))",
    { eval: true },
  );
  // It answers once and ends by itself (terminate() could cut short V8's compiles of it: workerPool.ts).
  const ended = new Promise((resolve) => worker.once('exit', resolve));
  worker.postMessage(array);
  const length = await new Promise<number>((resolve) => worker.once('message', resolve));
  await ended;
  return length;
}

describe('isShared', () => {
  it('is true for shared words, false for an ordinary array', () => {
    expect(isShared(sharedWords(16))).toBe(true);
    expect(isShared(new Uint32Array(16))).toBe(false);
  });

  it('is true exactly for the shared arrays a worker receives whole: not for one of 4 GiB', async () => {
    const small = sharedWords(1024);
    expect(await lengthInWorker(small)).toBe(small.length);
    // Only the pages touched take memory: a 4 GiB buffer of zeros costs none.
    const large = new Uint32Array(new SharedArrayBuffer(MAX_POSTED_SHARED_BYTES + 1));
    const seen = await lengthInWorker(large);
    expect(isShared(large)).toBe(seen === large.length); // the day the platform posts it whole, the limit can go
    expect(isShared(large)).toBe(false);
  });
});
