import { describe, expect, it } from 'vitest';
import { ParallelCpuSigner } from '../../src/signatures/cpuParallel.js';
import { splitByWeight } from '../../src/workers/splitByWeight.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { pack } from '../../src/shingles/shingleBatch.js';
import { u64 } from '../../src/math/u64.js';
import { randomU32, rng } from '../support/reference.js';

function randomSets(count: number, seed: number): Uint32Array[] {
  const next = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const n = i % 17 === 0 ? 0 : Math.floor(next() * 400);
    const set = new Uint32Array(2 * n);
    for (let j = 0; j < n; j++) {
      set[2 * j] = randomU32(next);
      set[2 * j + 1] = randomU32(next) & 0x1fffffff;
    }
    return set;
  });
}

describe('ParallelCpuSigner', () => {
  it('gives the single-thread signatures, word for word, on batches big enough to split', async () => {
    const family = makeHashFamily(64, u64(0, 42));
    const signer = new ParallelCpuSigner(family, 3);
    try {
      for (const seed of [1, 2]) {
        const batch = pack(randomSets(150, seed));
        expect(batch.offsets[150] * 64).toBeGreaterThan(1 << 20); // really goes to the workers
        expect(await signer.sign(batch)).toEqual(signBatchOnCpu(family, batch));
      }
    } finally {
      signer.destroy();
    }
  });

  it('rejects, instead of waiting forever, once a worker has died', async () => {
    const family = makeHashFamily(64, u64(0, 42));
    const signer = new ParallelCpuSigner(family, 2);
    try {
      const batch = pack(randomSets(150, 3));
      await signer.sign(batch); // starts the workers (they start on the first request)
      // A worker that exits (here: asked to end, as destroy() does, behind the pool's back) fails the next request.
      const worker = (
        signer as unknown as { pool: { workers: import('../../src/workers/pool.js').PoolWorker<never>[] } }
      ).pool.workers[0];
      worker.end();
      await expect(signer.sign(batch)).rejects.toThrow(/CPU signer worker exited/);
    } finally {
      signer.destroy();
    }
  });

  it('splits documents into contiguous ranges that cover all of them', () => {
    const offsets = Uint32Array.of(0, 10, 10, 50, 51, 100, 100);
    for (const parts of [1, 2, 3, 4, 10]) {
      const ranges = splitByWeight(offsets, parts);
      expect(ranges[0][0]).toBe(0);
      expect(ranges[ranges.length - 1][1]).toBe(6);
      ranges.forEach(([from, to], i) => {
        expect(to).toBeGreaterThan(from);
        if (i > 0) expect(from).toBe(ranges[i - 1][1]);
      });
      expect(ranges.length).toBeLessThanOrEqual(parts);
    }
  });
});
