import { describe, expect, it } from 'vitest';
import { decideByEstimate, estimateBounds } from '../../src/verify/estimateBounds.js';
import { binomialTail } from '../support/planted.js';

describe('estimateBounds', () => {
  it('are the binomial quantiles at J = t: the tail beyond each bound is ≤ α, one slot further it is not', () => {
    for (const [k, t, alpha] of [
      [128, 0.8, 0.001],
      [128, 0.7, 0.001],
      [256, 0.5, 0.01],
      [64, 0.9, 0.0001],
    ]) {
      const b = estimateBounds(k, t, alpha);
      expect(binomialTail(k, t, b.acceptFrom)).toBeLessThanOrEqual(alpha);
      expect(binomialTail(k, t, b.acceptFrom - 1)).toBeGreaterThan(alpha);
      const atMost = (x: number): number => 1 - binomialTail(k, t, x + 1);
      expect(atMost(b.rejectUpTo)).toBeLessThanOrEqual(alpha + 1e-12);
      expect(atMost(b.rejectUpTo + 1)).toBeGreaterThan(alpha);
      // The margin is about z·√(t(1−t)/k) each side (z = 3.09 at α = 0.001).
      expect(b.rejectUpTo / k).toBeLessThan(t);
      expect(b.acceptFrom / k).toBeGreaterThan(t);
    }
    const b = estimateBounds(128, 0.8, 0.001);
    const sigma = Math.sqrt((0.8 * 0.2) / 128);
    expect(b.acceptFrom / 128 - 0.8).toBeGreaterThan(2.5 * sigma);
    expect(b.acceptFrom / 128 - 0.8).toBeLessThan(3.5 * sigma);
  });

  it('a pair at J = t is decided wrongly by the estimate at about rate α (simulated)', () => {
    const k = 128;
    const t = 0.8;
    const b = estimateBounds(k, t, 0.01);
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let accepted = 0;
    let rejected = 0;
    const trials = 20000;
    for (let i = 0; i < trials; i++) {
      let x = 0;
      for (let s = 0; s < k; s++) if (next() < t) x++;
      const d = decideByEstimate(x, b);
      if (d === 1) accepted++;
      if (d === 0) rejected++;
    }
    expect(accepted / trials).toBeLessThan(0.015);
    expect(rejected / trials).toBeLessThan(0.015);
  });

  it('32-bit slots move the bounds by at most one slot; a bad error rate is refused', () => {
    const a = estimateBounds(128, 0.8, 0.001, 64);
    const c = estimateBounds(128, 0.8, 0.001, 32);
    expect(Math.abs(a.acceptFrom - c.acceptFrom)).toBeLessThanOrEqual(1);
    expect(() => estimateBounds(128, 0.8, 0)).toThrow(/error rate/);
    expect(() => estimateBounds(128, 0.8, 0.6)).toThrow(/error rate/);
  });

  it('decides: accept from acceptFrom, reject up to rejectUpTo, exact between', () => {
    const b = { acceptFrom: 100, rejectUpTo: 90, k: 128 };
    expect(decideByEstimate(100, b)).toBe(1);
    expect(decideByEstimate(99, b)).toBe(2);
    expect(decideByEstimate(91, b)).toBe(2);
    expect(decideByEstimate(90, b)).toBe(0);
  });
});
