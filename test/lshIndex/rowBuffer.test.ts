/** The row buffers a top-K descent keeps from query to query (src/lshIndex/rowBuffer.ts, issue 39). */
import { describe, expect, it } from 'vitest';
import { RowBuffer } from '../../src/lshIndex/rowBuffer.js';

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
