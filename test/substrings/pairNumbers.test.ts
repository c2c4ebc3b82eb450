/** PairNumbers against a Map of the pairs: exact numbering (first come, first numbered) through many doublings. */
import { describe, expect, it } from 'vitest';
import { PairNumbers } from '../../src/substrings/pairNumbers.js';

describe('PairNumbers', () => {
  it('numbers 200,000 pairs as a Map does, from a table of 16 slots doubled many times', () => {
    let s = 5;
    const random = (range: number): number => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s % range;
    };
    const numbers = new PairNumbers(1);
    const reference = new Map<string, number>();
    const got: number[] = [];
    const expected: number[] = [];
    for (let i = 0; i < 200_000; i++) {
      // Small halves repeat often; large ones (up to 2^31 − 1) and −1 reach the sign bit and both ends of the mix.
      const lo = i % 3 === 0 ? random(300) : i % 3 === 1 ? 2 ** 31 - 1 - random(50) : -1;
      const hi = random(i % 2 === 0 ? 400 : 2 ** 31);
      const key = `${lo},${hi}`;
      if (!reference.has(key)) reference.set(key, reference.size);
      got.push(numbers.number(lo, hi));
      expected.push(reference.get(key)!);
    }
    expect(got).toEqual(expected);
    expect(numbers.size).toBe(reference.size);
    expect(reference.size).toBeGreaterThan(50_000);
  });
});
