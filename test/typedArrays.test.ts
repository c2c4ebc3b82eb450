import { describe, expect, it } from 'vitest';
import { grown } from '../src/typedArrays.js';

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
