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

  it('reads a met row only while it could beat the K-th (its agreement reaches the floor)', () => {
    let read = 0;
    const ranking = new Ranking(1, (_, row) => (read++, { similarity: 0.95, exact: row === 0 ? 0.95 : 0.5 }));
    const met = [
      { segment: 0, row: 0, agreement: 0.95 },
      ...[0.9, 0.87, 0.85].map((agreement, i) => ({ segment: 0, row: i + 1, agreement })),
    ];
    ranking.rescoreMet(met, 128, 0.3);
    // 0.9 and 0.87 are within the estimate’s error of 0.95 (its floor: 111 of 128 slots, 0.867); 0.85 is not.
    expect(read).toBe(3);
  });

  it('reads met rows most agreeing first, in the order met among equals', () => {
    const read: number[] = [];
    const ranking = new Ranking(100, (_, row) => (read.push(row), { similarity: 0.5, exact: 0.5 }));
    const agreements = [0.5, 0.75, 0.5, 1, 0.75, 0.25, 1];
    ranking.rescoreMet(
      agreements.map((agreement, row) => ({ segment: 0, row, agreement })),
      128,
      0.3,
    );
    expect(read).toEqual([3, 6, 1, 4, 0, 2, 5]);
  });

  it('rescoreByLevels reads the rows rescoreMet reads, in its order, measuring rows only down to the level it stops at', () => {
    let seed = 5;
    const random = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    let unmeasured = 0;
    for (let trial = 0; trial < 40; trial++) {
      const n = 50 + Math.floor(random() * 400);
      const agreements = Array.from({ length: n }, () => Math.floor(random() ** 2 * 129));
      const bounds = agreements.map((a) => Math.min(128, a + Math.floor(random() * 3)));
      const exact = agreements.map((a) => Math.min(1, Math.max(0, a / 128 + (random() - 0.5) * 0.2)));
      const top = 1 + Math.floor(random() * 12);
      const before: number[] = [];
      new Ranking(top, (_, row) => (before.push(row), { similarity: 0.5, exact: exact[row] })).rescoreMet(
        agreements.map((a, row) => ({ segment: 0, row, agreement: a / 128 })),
        128,
        0.3,
      );
      const after: number[] = [];
      const measured = new Set<number>();
      const ranking = new Ranking(top, (_, row) => (after.push(row), { similarity: 0.5, exact: exact[row] }));
      ranking.rescoreByLevels(
        bounds,
        (i) => (measured.add(i), agreements[i]),
        (i) => ranking.rescore(0, i),
        128,
        0.3,
      );
      expect(after).toEqual(before);
      // Every row that could be read was measured; once K are held, none whose bound is below the K-th's floor.
      const least = Math.min(...after.map((i) => agreements[i]));
      bounds.forEach((b, i) => b >= least && expect(measured.has(i)).toBe(true));
      const floor = Math.round(agreementFloor(Math.max(ranking.kth, 0.3), 128) * 128);
      if (ranking.full && !ranking.exhausted && measured.size > after.length)
        expect(Math.min(...[...measured].map((i) => bounds[i]))).toBeGreaterThanOrEqual(Math.min(least, floor) - 1);
      unmeasured += n - measured.size;
    }
    expect(unmeasured).toBeGreaterThan(1000);
  });
});
