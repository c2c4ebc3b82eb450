/** The band tables' sort: a comparison sort below 2,048 entries (a one-document add sorted 65,536 counters four times per band), radix above; both the stable 64-bit order. */
import { describe, expect, it } from 'vitest';
import { radixSortByKey } from '../../src/lshIndex/segmentFiles.js';
import { rng } from '../support/reference.js';

describe('radixSortByKey', () => {
  for (const n of [0, 1, 2, 100, 2047, 2048, 5000]) {
    it(`${n} entries, many keys equal, sorted by (hi, lo) as BigInt, equal keys in row order`, () => {
      const next = rng(n + 1);
      const pick = (): number =>
        (next() < 0.5 ? Math.floor(next() * 4) * 0x7fffffff : Math.floor(next() * 2 ** 32)) >>> 0;
      const lo = Uint32Array.from({ length: n }, pick);
      const hi = Uint32Array.from({ length: n }, pick);
      const rows = Uint32Array.from({ length: n }, (_, i) => i);
      const key = (i: number): bigint => (BigInt(hi[i]) << 32n) | BigInt(lo[i]);
      const expected = [...rows]
        .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b))
        .map((i) => [lo[i], hi[i], i]);
      radixSortByKey(lo, hi, rows);
      expect([...rows].map((r, i) => [lo[i], hi[i], r])).toEqual(expected);
    });
  }
});
