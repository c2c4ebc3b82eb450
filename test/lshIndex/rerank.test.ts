import { describe, expect, it } from 'vitest';
import { agreementFloor, Ranking, rescoreBudget, UNREAD_PROBABILITY } from '../../src/lshIndex/rerank.js';

/** P(X < a) for X ~ Binomial(n, p), summed directly (n ≤ 128: no underflow that matters here). */
function below(a: number, n: number, p: number): number {
  let sum = 0;
  let choose = 1;
  for (let i = 0; i < a; i++) {
    sum += choose * p ** i * (1 - p) ** (n - i);
    choose = (choose * (n - i)) / (i + 1);
  }
  return sum;
}

describe('the top-K rescoring (rerank.ts)', () => {
  it('agreementFloor is the binomial lower quantile: a document at J shows less with probability ≤ 1e-4', () => {
    for (const j of [0.1, 0.3, 0.5, 0.8, 0.93, 0.9415, 0.99]) {
      const a = Math.round(agreementFloor(j, 128) * 128);
      expect(below(a, 128, j)).toBeLessThanOrEqual(UNREAD_PROBABILITY);
      expect(below(a + 1, 128, j)).toBeGreaterThan(UNREAD_PROBABILITY);
    }
    // Wider than three standard errors near 1, where the lower tail is the long one.
    const j = 0.948;
    expect(j - agreementFloor(j, 128)).toBeGreaterThan(3 * Math.sqrt((j * (1 - j)) / 128));
    expect(agreementFloor(1, 128)).toBe(1);
    expect(agreementFloor(0, 128)).toBe(0);
  });

  it('keeps the K best, drops rows with nothing in common, and reads no row past its budget', () => {
    const scores = new Map<number, number>([
      [0, 0.5],
      [1, 0],
      [2, 0.9],
      [3, 0.7],
    ]);
    const ranking = new Ranking(2, (_, row) => ({ similarity: 0.5, exact: scores.get(row) ?? 0.1 }));
    for (const row of [0, 1, 2, 3]) ranking.rescore(0, row);
    expect(ranking.kth).toBe(0.7);
    expect(ranking.count).toBe(3); // row 1, exact 0, is not kept
    expect(ranking.wasRescored(0, 1)).toBe(true);
    expect(ranking.result((_, row) => String(row)).map((m) => m.id)).toEqual(['2', '3']);
    const budget = rescoreBudget(2);
    let read = 0;
    const bounded = new Ranking(2, () => (read++, { similarity: 0.5, exact: 0.5 }));
    for (let row = 0; row < budget + 10; row++) bounded.rescore(0, row);
    expect(read).toBe(budget);
    expect(bounded.exhausted).toBe(true);
  });

  /** Met rows of these agreements (of 128 slots), each bounded by `slack` slots more (capped at 128). */
  const metOf = (agreements: readonly number[], slack: (row: number) => number = () => 0) =>
    agreements.map((agreement, row) => ({
      segment: 0,
      row,
      most: Math.min(128, Math.round(agreement * 128) + slack(row)),
      agreement,
    }));
  const agreementOf = (m: { agreement: number }): number => m.agreement;

  it('reads a met row only while it could beat the K-th (its agreement reaches the floor)', () => {
    let read = 0;
    const ranking = new Ranking(1, (_, row) => (read++, { similarity: 0.95, exact: row === 0 ? 0.95 : 0.5 }));
    ranking.rescoreMet(metOf([0.95, 0.9, 0.87, 0.85]), 128, 0.3, agreementOf);
    // 0.9 and 0.87 are within the estimate’s error of 0.95 (its floor: 111 of 128 slots, 0.867); 0.85 is not.
    expect(read).toBe(3);
  });

  it('reads met rows most agreeing first, in the order met among equals, whatever their bounds', () => {
    const agreements = [0.5, 0.75, 0.5, 1, 0.75, 0.25, 1];
    for (const slack of [() => 0, (row: number) => 7 * row, (row: number) => 40 - 5 * row, () => 128]) {
      const read: number[] = [];
      const ranking = new Ranking(100, (_, row) => (read.push(row), { similarity: 0.5, exact: 0.5 }));
      ranking.rescoreMet(metOf(agreements, slack), 128, 0.3, agreementOf);
      expect(read).toEqual([3, 6, 1, 4, 0, 2, 5]);
    }
  });

  it('measures the agreement only of rows whose bound reaches where the walk stops', () => {
    const measured: number[] = [];
    const ranking = new Ranking(1, () => ({ similarity: 1, exact: 1 }));
    // Row 0 agrees on every slot; row 2 (0.95) is the first below the floor at J = 1, and rows 1 and 3 cannot reach it.
    const met = [
      { segment: 0, row: 0, most: 128, agreement: 1 },
      { segment: 0, row: 1, most: 100, agreement: 0.5 },
      { segment: 0, row: 2, most: 128, agreement: 0.95 },
      { segment: 0, row: 3, most: 110, agreement: 0.8 },
    ];
    ranking.rescoreMet(met, 128, 0.3, (m) => (measured.push(m.row), m.agreement));
    expect(measured).toEqual([0, 2]);
    expect(() =>
      new Ranking(1, () => ({ similarity: 1, exact: 1 })).rescoreMet(
        [{ segment: 0, row: 0, most: 10, agreement: 0.5 }],
        128,
        0.3,
        agreementOf,
      ),
    ).toThrow(/internal/);
  });
});
