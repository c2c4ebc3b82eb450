import { describe, expect, it } from 'vitest';
import { freeNow, grown } from '../src/typedArrays.js';

describe('grown', () => {
  it('copies into a longer array of the same type, the rest zero', () => {
    const from = Float64Array.of(1.5, -2, 3);
    const to = grown(from, 5);
    expect(to).toBeInstanceOf(Float64Array);
    expect([...to]).toEqual([1.5, -2, 3, 0, 0]);
    expect(to.buffer).not.toBe(from.buffer);
  });
  it('cuts to a shorter length', () => {
    expect([...grown(Uint32Array.of(7, 8, 9), 2)]).toEqual([7, 8]);
    expect(grown(Int32Array.of(-1), 0)).toHaveLength(0);
  });
});

describe('freeNow', () => {
  it('detaches a buffer (its memory returned at once): every view of it reads as empty', () => {
    const words = Uint32Array.of(1, 2, 3);
    const view = words.subarray(1);
    freeNow(words.buffer);
    expect(words.buffer.byteLength).toBe(0);
    expect(words).toHaveLength(0);
    expect(view).toHaveLength(0);
    freeNow(words.buffer); // already free: nothing happens
  });
  it('leaves a shared buffer as it is: other threads may read it', () => {
    const shared = new Uint32Array(new SharedArrayBuffer(16)).fill(7);
    freeNow(shared.buffer);
    expect([...shared]).toEqual([7, 7, 7, 7]);
  });
  it('frees several in one call, one named twice among them', () => {
    const a = new Uint8Array(8);
    const b = new Float64Array(2);
    freeNow(a.buffer, b.buffer, a.buffer, new Uint8Array(new SharedArrayBuffer(4)).buffer);
    expect([a.byteLength, b.byteLength]).toEqual([0, 0]);
  });
});
