/**
 * Cluster numbers from the engines' labels (src/engines/engine.ts numberClusters): rows come in position order, a
 * cluster labelled by its first document's position, numbered 0, 1, … in the order its label is first met; a label
 * not met at its own position first, or rows out of order, are the engine's error and refused.
 */
import { describe, expect, it } from 'vitest';
import { numberClusters } from '../../src/engines/engine.js';

describe('numberClusters', () => {
  it('numbers labels in the order they are met, each later member by its label', () => {
    const number = numberClusters();
    const rows: [number, number][] = [
      [0, 0],
      [3, 3],
      [5, 0],
      [2 ** 32, 2 ** 32],
      [2 ** 32 + 1, 3],
      [2 ** 32 + 7, 2 ** 32 + 7],
      [2 ** 32 + 9, 2 ** 32],
      [2 ** 33, 0],
    ];
    expect(rows.map(([position, label]) => number(position, label))).toEqual([0, 1, 0, 2, 1, 3, 2, 0]);
  });

  it('numbers past its first table (thousands of clusters) as a map would', () => {
    const number = numberClusters();
    const got: number[] = [];
    const want: number[] = [];
    const seen = new Map<number, number>();
    for (let position = 0; position < 20_000; position++) {
      // Every third position opens a cluster; the others join one opened before them.
      const label = position % 3 === 0 ? position : 3 * Math.floor(((position * 7919) % position) / 3);
      if (!seen.has(label)) seen.set(label, seen.size);
      want.push(seen.get(label)!);
      got.push(number(position, label));
    }
    expect(got).toEqual(want);
  });

  it('refuses a label not met first, and rows out of order', () => {
    const number = numberClusters();
    number(0, 0);
    number(4, 4);
    expect(() => number(5, 2)).toThrow(/cluster label 2 at position 5 was not met first/);
    expect(() => number(6, 7)).toThrow(/not met first/);
    expect(number(8, 4)).toBe(1);
    expect(() => number(8, 0)).toThrow(/rows out of order at position 8/);
    expect(() => numberClusters()(1, 0)).toThrow(/not met first/);
  });
});
