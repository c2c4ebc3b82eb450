// The order the workers decide pairs in when sets lie in the spill file: by the file position of each pair's later
// set (256 KiB buckets), pairs with both sets in memory first, candidate order kept within a bucket.
import { describe, expect, it } from 'vitest';
import type { SharedSets } from '../../src/firstPass/sharedSets.js';
import { fileOrder } from '../../src/verify/fileOrder.js';

const BUCKET_WORDS = 2 ** 16;

/** 400 groups: every fifth held in memory, the others in a file in a shuffled order, up to 2^33 words in. */
function placedSets(file: string | undefined, readInFileOrder = true): SharedSets {
  const n = 400;
  const chunk = Int32Array.from({ length: n }, (_, g) => (g % 5 === 0 ? 0 : -1));
  const start = Float64Array.from({ length: n }, (_, g) =>
    chunk[g] === 0 ? g * 10 : ((g * 7919) % n) * 2 ** 24 + (g % 3) * 100,
  );
  return { chunks: [], chunk, start, length: new Uint32Array(n).fill(10), file, readInFileOrder };
}

const laterBucket = (sets: SharedSets, x: number, y: number): number => {
  const bucketOf = (g: number) => (sets.chunk[g] < 0 ? 1 + Math.floor(sets.start[g] / BUCKET_WORDS) : 0);
  return Math.max(bucketOf(x), bucketOf(y));
};

describe('fileOrder', () => {
  const a = Uint32Array.from({ length: 3000 }, (_, i) => (i * 31) % 400);
  const b = Uint32Array.from({ length: 3000 }, (_, i) => (i * 17 + 5) % 400);

  it('is a permutation of the pairs, by the later set’s place in the file, stable within a place', () => {
    const sets = placedSets('sets.bin');
    const order = fileOrder(sets, a, b)!;
    expect(Array.from(order).sort((x, y) => x - y)).toEqual(Array.from({ length: a.length }, (_, i) => i));
    for (let i = 1; i < order.length; i++) {
      const [before, now] = [
        laterBucket(sets, a[order[i - 1]], b[order[i - 1]]),
        laterBucket(sets, a[order[i]], b[order[i]]),
      ];
      expect(now).toBeGreaterThanOrEqual(before);
      if (now === before) expect(order[i]).toBeGreaterThan(order[i - 1]);
    }
    // Pairs of two held sets come first; the order is not the candidate order (the test would not test a sort).
    expect(laterBucket(sets, a[order[0]], b[order[0]])).toBe(0);
    expect(order.some((x, i) => x !== i)).toBe(true);
  });

  it('is undefined where no set lies in a file, or where the spool did not ask for it', () => {
    expect(fileOrder(placedSets(undefined), a, b)).toBeUndefined();
    expect(fileOrder(placedSets('sets.bin', false), a, b)).toBeUndefined();
  });
});
