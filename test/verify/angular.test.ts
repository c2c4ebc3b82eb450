/**
 * The least cosine of an angular similarity (angular.ts): it decides every cosine as exactAngular's arithmetic does,
 * at SimHash's thresholds 1 − h / 64 and below them (the cluster check's t − δ, down past ½).
 */
import { describe, expect, it } from 'vitest';
import { angularCosineFloor, angularOfCosine } from '../../src/verify/angular.js';
import { exactAngular } from '../../src/verify/exactJaccard.js';

/** The double just below x > 0. */
function below(x: number): number {
  const bits = new BigInt64Array(1);
  new Float64Array(bits.buffer)[0] = x;
  bits[0] -= 1n;
  return new Float64Array(bits.buffer)[0];
}

/** A set of n (lo, hi) values, the first `common` shared with every other such set. */
function set(n: number, common: number, tag: number): Uint32Array {
  const words = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) [words[2 * i], words[2 * i + 1]] = i < common ? [i, 0] : [i, tag];
  return words;
}

describe('angularCosineFloor', () => {
  const thresholds = [
    ...Array.from({ length: 31 }, (_, h) => (64 - (h + 1)) / 64),
    ...Array.from({ length: 31 }, (_, h) => (64 - (h + 1)) / 64 - 0.1),
    0.5,
    0.3,
  ];

  it('is the least double whose angular similarity reaches the threshold', () => {
    for (const t of thresholds) {
      const floor = angularCosineFloor(t);
      expect(angularOfCosine(floor)).toBeGreaterThanOrEqual(t);
      if (floor > 0) expect(angularOfCosine(below(floor))).toBeLessThan(t);
    }
    expect(angularCosineFloor(0.5)).toBe(0); // cos θ = 0 is exactly ½
  });

  it('decides pairs of sets as exactAngular does', () => {
    for (const t of [61 / 64, 56 / 64, 56 / 64 - 0.1])
      for (const [na, nb] of [
        [200, 200],
        [200, 213],
        [997, 1003],
      ])
        for (let common = 0; common <= Math.min(na, nb); common++) {
          const [a, b] = [set(na, common, 1), set(nb, common, 2)];
          const cosine = common / Math.sqrt(na * nb);
          expect(cosine >= angularCosineFloor(t)).toBe(exactAngular(a, b) >= t);
        }
  });
});
