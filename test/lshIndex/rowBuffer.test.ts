/** The row buffers a top-K descent keeps from query to query (src/lshIndex/rowBuffer.ts, issue 39). */
import { describe, expect, it } from 'vitest';
import { LevelLists, RowBuffer } from '../../src/lshIndex/rowBuffer.js';

describe('RowBuffer', () => {
  it('grows past its capacity, keeps what it holds, and a clear reuses the same memory', () => {
    const buffer = new RowBuffer();
    for (let i = 0; i < 5000; i++) buffer.push(i * 3);
    expect(buffer.length).toBe(5000);
    expect([...buffer.view()]).toEqual(Array.from({ length: 5000 }, (_, i) => i * 3));
    const words = buffer.words;
    buffer.clear().push(7);
    expect([...buffer.view()]).toEqual([7]);
    expect(buffer.words).toBe(words);
    buffer.reserve(20_000); // room past the length, the values kept
    expect(buffer.words.length).toBeGreaterThanOrEqual(20_001);
    expect([...buffer.view()]).toEqual([7]);
  });
});

describe('LevelLists', () => {
  it('gives each level its rows ascending, whatever order they came in, and a reset empties every level', () => {
    const levels = new LevelLists();
    const rows = 3000;
    const levelOf = (row: number): number => (row * 7919) % 129;
    levels.reset(128, rows);
    for (let row = rows - 1; row >= 0; row -= 2) levels.add(levelOf(row), row); // odd rows, descending
    for (let row = 0; row < rows; row += 2) levels.add(levelOf(row), row); // then even rows, ascending
    for (const level of [0, 5, 128]) {
      const expected = Array.from({ length: rows }, (_, row) => row).filter((row) => levelOf(row) === level);
      expect([...levels.ascending(level)]).toEqual(expected);
    }
    levels.reset(200, 10); // more levels than before, fewer rows
    levels.add(199, 4);
    expect([...levels.ascending(199)]).toEqual([4]);
    expect([...levels.ascending(5)]).toEqual([]);
  });
});
