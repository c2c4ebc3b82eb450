import { describe, expect, it } from 'vitest';
import {
  approximateThreshold,
  candidateProbability,
  checkParams,
  DEDUP_WEIGHTS,
  defaultRecallAtThreshold,
  DEFAULT_RECALL_AT_THRESHOLD,
  falseNegativeArea,
  falsePositiveArea,
  optimalParams,
} from '../../src/bands/lshParams.js';
import { defaultLshParams } from '../../src/dedup/dedupSigned.js';

/** ∫₀ᵗ 1 − (1 − s^r)^b ds by the binomial expansion: t − Σ_j C(b,j)(−1)^j t^(rj+1)/(rj+1). Exact for small b. */
function fpClosedForm(t: number, b: number, r: number): number {
  let sum = 0;
  let binom = 1;
  for (let j = 0; j <= b; j++) {
    sum += ((j % 2 === 0 ? 1 : -1) * binom * t ** (r * j + 1)) / (r * j + 1);
    binom = (binom * (b - j)) / (j + 1);
  }
  return t - sum;
}
const fnClosedForm = (t: number, b: number, r: number): number =>
  1 - t - (fpClosedForm(1, b, r) - fpClosedForm(t, b, r));

describe('S-curve', () => {
  it('matches the hand-computed values for b=20, r=5', () => {
    // 1 − (1 − 0.5^5)^20 = 1 − (31/32)^20 = 0.4701; 1 − (1 − 0.7^5)^20 = 1 − 0.83193^20 = 0.9748
    expect(candidateProbability(0.5, 20, 5)).toBeCloseTo(0.47, 3);
    expect(candidateProbability(0.7, 20, 5)).toBeCloseTo(0.975, 3);
    expect(candidateProbability(0.5, 20, 5)).toBeCloseTo(1 - (31 / 32) ** 20, 12);
  });

  it('is 0 at s=0, 1 at s=1, increasing in between', () => {
    expect(candidateProbability(0, 9, 13)).toBe(0);
    expect(candidateProbability(1, 9, 13)).toBe(1);
    let last = 0;
    for (let s = 0.01; s < 1; s += 0.01) {
      const p = candidateProbability(s, 9, 13);
      expect(p).toBeGreaterThanOrEqual(last);
      last = p;
    }
  });

  it('approximate threshold (1/b)^(1/r)', () => {
    expect(approximateThreshold(20, 5)).toBeCloseTo(0.05 ** 0.2, 12);
    expect(approximateThreshold(1, 7)).toBe(1);
  });

  it('false-positive and false-negative areas agree with the closed form', () => {
    for (const [t, b, r] of [
      [0.5, 20, 5],
      [0.8, 9, 13],
      [0.3, 2, 3],
      [0.9, 16, 8],
      [0.75, 1, 1],
    ]) {
      expect(falsePositiveArea(t, b, r)).toBeCloseTo(fpClosedForm(t, b, r), 9);
      expect(falseNegativeArea(t, b, r)).toBeCloseTo(fnClosedForm(t, b, r), 9);
    }
  });
});

describe('optimalParams', () => {
  it('picks the hand-computed optimum for k=2, t=0.8', () => {
    // (1,1): fp 0.32, fn 0.02 → 0.17; (1,2): fp 0.512/3, fn 0.2 − 0.488/3 → 0.1040; (2,1): fp 0.4693, fn 0.0027 → 0.2360
    const best = optimalParams(0.8, 2);
    expect([best.bands, best.rows]).toEqual([1, 2]);
    expect(best.error).toBeCloseTo(0.5 * (0.512 / 3) + 0.5 * (0.2 - 0.488 / 3), 10);
  });

  it('minimizes the weighted error over every b·r ≤ k (checked by the closed form)', () => {
    for (const [t, k, wfp, wfn] of [
      [0.5, 24, 0.5, 0.5],
      [0.8, 30, 0.5, 0.5],
      [0.8, 30, 0.1, 0.9],
      [0.6, 16, 0.9, 0.1],
    ]) {
      const best = optimalParams(t, k, { falsePositive: wfp, falseNegative: wfn });
      expect(best.bands * best.rows).toBeLessThanOrEqual(k);
      let minError = Infinity;
      for (let b = 1; b <= k; b++) {
        for (let r = 1; b * r <= k; r++)
          minError = Math.min(minError, wfp * fpClosedForm(t, b, r) + wfn * fnClosedForm(t, b, r));
      }
      expect(best.error).toBeCloseTo(minError, 8);
    }
  });

  it('the search that skips pairs which cannot win picks what the full search picks, areas and ties included', () => {
    const full = (t: number, k: number, wfp: number, wfn: number, target: number) => {
      let best: { bands: number; rows: number; fp: number; fn: number; error: number } | undefined;
      for (let bands = 1; bands <= k; bands++) {
        for (let rows = 1; rows * bands <= k; rows++) {
          if (target > 0 && candidateProbability(t, bands, rows) < target) continue;
          const [fp, fn] = [falsePositiveArea(t, bands, rows), falseNegativeArea(t, bands, rows)];
          const error = wfp * fp + wfn * fn;
          if (best === undefined || error < best.error) best = { bands, rows, fp, fn, error };
        }
      }
      return best;
    };
    for (const k of [1, 3, 16, 40])
      for (const t of [0.3, 0.55, 0.8, 0.95])
        for (const [wfp, wfn] of [
          [0.5, 0.5],
          [0.1, 0.9],
          [0.9, 0.1],
          [0, 1],
          [1, 0],
        ])
          for (const target of [0, 0.5, 0.99]) {
            const expected = full(t, k, wfp, wfn, target);
            const weights = { falsePositive: wfp, falseNegative: wfn };
            if (expected === undefined) {
              expect(() => optimalParams(t, k, weights, target)).toThrow(/no bands × rows/);
              continue;
            }
            const best = optimalParams(t, k, weights, target);
            expect(best).toEqual({
              bands: expected.bands,
              rows: expected.rows,
              falsePositiveArea: expected.fp,
              falseNegativeArea: expected.fn,
              error: expected.error,
            });
            expect(optimalParams(t, k, weights, target)).toEqual(best); // remembered
          }
  });

  it('weighting false negatives more lowers the curve (higher recall at the threshold)', () => {
    const balanced = optimalParams(0.8, 128);
    const recallFirst = optimalParams(0.8, 128, { falsePositive: 0.1, falseNegative: 0.9 });
    expect(candidateProbability(0.8, recallFirst.bands, recallFirst.rows)).toBeGreaterThan(
      candidateProbability(0.8, balanced.bands, balanced.rows),
    );
  });

  it('a recall target at the threshold: the least error among the (b, r) that reach it', () => {
    for (const [t, k, target] of [
      [0.8, 128, 0.99],
      [0.7, 128, 0.999],
      [0.9, 64, 0.95],
    ]) {
      const best = optimalParams(t, k, { falsePositive: 0.1, falseNegative: 0.9 }, target);
      expect(candidateProbability(t, best.bands, best.rows)).toBeGreaterThanOrEqual(target);
      let minError = Infinity;
      for (let b = 1; b <= k; b++) {
        for (let r = 1; b * r <= k; r++) {
          if (candidateProbability(t, b, r) < target) continue;
          minError = Math.min(minError, 0.1 * falsePositiveArea(t, b, r) + 0.9 * falseNegativeArea(t, b, r));
        }
      }
      expect(best.error).toBeCloseTo(minError, 12);
    }
    // Without a target, t = 0.8 gets 14 × 9 (P = 0.867); with 0.99, 16 × 6 (P = 0.992); with 0.999, 18 × 5
    // (P = 0.9992).
    expect(optimalParams(0.8, 128, { falsePositive: 0.1, falseNegative: 0.9 })).toMatchObject({ bands: 14, rows: 9 });
    expect(optimalParams(0.8, 128, { falsePositive: 0.1, falseNegative: 0.9 }, 0.99)).toMatchObject({
      bands: 16,
      rows: 6,
    });
    expect(optimalParams(0.8, 128, { falsePositive: 0.1, falseNegative: 0.9 }, 0.999)).toMatchObject({
      bands: 18,
      rows: 5,
    });
    expect(() => optimalParams(0.8, 128, undefined, 1)).toThrow(/recall/);
    // k = 8 at t = 0.5 reaches 1 − 0.5⁸ = 0.9961 at most: 0.99 was met (7 × 1), the default 0.999 is not.
    expect(optimalParams(0.5, 8, { falsePositive: 0.1, falseNegative: 0.9 }, 0.99)).toMatchObject({
      bands: 7,
      rows: 1,
    });
    expect(() => optimalParams(0.5, 8, { falsePositive: 0.1, falseNegative: 0.9 }, 0.999)).toThrow(
      /within k = 8 reach P = 0\.999 at the threshold 0\.5 \(the most is 0\.9961, with 8 bands of one row\): lower the target \(--recall-at-threshold\)/,
    );
  });

  it("dedup's default banding (CLI, library, tab, sign --shard, index): P ≥ 0.999 at t where Jaccard is exact", () => {
    expect(DEFAULT_RECALL_AT_THRESHOLD).toBe(0.999);
    for (const verify of ['hybrid', 'exact'] as const) {
      expect(defaultLshParams(0.8, 128, verify)).toEqual({ bands: 18, rows: 5 });
      expect(defaultLshParams(0.5, 64, verify)).toEqual({ bands: 25, rows: 2 }); // 17 × 2 at P ≥ 0.99
      const { bands, rows } = defaultLshParams(0.7, 128, verify);
      expect(candidateProbability(0.7, bands, rows)).toBeGreaterThanOrEqual(0.999);
    }
    // Estimates alone (estimate, none) keep the weights' choice: no target.
    expect(defaultLshParams(0.8, 128, 'estimate')).toEqual({ bands: 14, rows: 9 });
    expect(defaultLshParams(0.8, 128, 'none')).toEqual({ bands: 14, rows: 9 });
  });

  it('caps the default target at what a small k reaches, so a default never refuses; a given target is held', () => {
    // k = 8 at t = 0.5 reaches 1 − 0.5⁸ = 0.99609375 at most (8 bands of one row), below 0.999.
    expect(defaultRecallAtThreshold(0.5, 8)).toBe(1 - 0.5 ** 8);
    expect(defaultLshParams(0.5, 8, 'hybrid')).toEqual({ bands: 8, rows: 1 });
    expect(defaultLshParams(0.8, 4, 'exact')).toEqual({ bands: 4, rows: 1 }); // 1 − 0.2⁴ = 0.9984
    expect(defaultRecallAtThreshold(0.8, 128)).toBe(DEFAULT_RECALL_AT_THRESHOLD);
    expect(defaultRecallAtThreshold(0.8, 128, false)).toBe(0);
    expect(() => optimalParams(0.5, 8, DEDUP_WEIGHTS, 0.999)).toThrow(/the most is 0\.9961/);
  });

  it('refuses bad thresholds, weights and parameters', () => {
    expect(() => optimalParams(0, 128)).toThrow(/threshold/);
    expect(() => optimalParams(1, 128)).toThrow(/threshold/);
    expect(() => optimalParams(0.8, 128, { falsePositive: 0, falseNegative: 0 })).toThrow(/weights/);
    expect(() => checkParams({ bands: 20, rows: 7 }, 128)).toThrow(/exceeds/);
    expect(() => checkParams({ bands: 0, rows: 7 }, 128)).toThrow(/bands/);
    expect(() => checkParams({ bands: 2, rows: 1.5 }, 128)).toThrow(/rows/);
    expect(() => checkParams({ bands: 16, rows: 8 }, 128)).not.toThrow();
  });
});
