// The count-weighted elements (src/math/weightedElement.ts) against BigInt.
import { describe, expect, it } from 'vitest';
import { weightedElement } from '../../src/math/weightedElement.js';
import { EDGES, P, randomBelow, randomU32, rng, weightedElementRef } from '../support/reference.js';

function element(g: bigint, j: number): bigint {
  const out = new Uint32Array(2);
  weightedElement(Number(g & 0xffffffffn), Number(g >> 32n), j, out, 0);
  return (BigInt(out[1]) << 32n) | BigInt(out[0]);
}

const EDGE_REPEATS = [0, 1, 2, 3, 255, 256, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];

describe('weightedElement (32-bit lanes) against BigInt', () => {
  it('is exact on every edge shingle value with every edge repeat index', () => {
    for (const g of EDGES.filter((v) => v < P))
      for (const j of EDGE_REPEATS) expect(element(g, j), `g=${g} j=${j}`).toBe(weightedElementRef(g, j));
  });

  it('is exact on 50 000 random shingles and repeat indexes, and stays below P', () => {
    const next = rng(41);
    for (let i = 0; i < 50_000; i++) {
      const g = randomBelow(next, P);
      const j = i % 2 === 0 ? 1 + (randomU32(next) % 16) : randomU32(next);
      const got = element(g, j);
      if (got !== weightedElementRef(g, j) || got >= P) expect(got, `g=${g} j=${j}`).toBe(weightedElementRef(g, j));
    }
  });

  it('gives distinct elements for the repeats of one shingle and across shingles', () => {
    const next = rng(7);
    const seen = new Set<bigint>();
    for (let s = 0; s < 200; s++) {
      const g = randomBelow(next, P);
      for (let j = 0; j < 50; j++) seen.add(element(g, j));
    }
    expect(seen.size).toBe(200 * 50);
  });
});
