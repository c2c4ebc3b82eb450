import { describe, expect, it } from 'vitest';
import { mulAddModP, reduce64ModP } from '../../src/math/mersenne61.js';
import { EDGE_ADDENDS, EDGES, P, randomBelow, randomU32, rng } from '../support/reference.js';

const lanes = (v: bigint): [number, number] => [Number(v >> 32n), Number(v & 0xffffffffn)];

function mulAdd(a: bigint, x: bigint, b: bigint): bigint {
  const out = new Uint32Array(2);
  const [aHi, aLo] = lanes(a);
  const [xHi, xLo] = lanes(x);
  const [bHi, bLo] = lanes(b);
  mulAddModP(aHi, aLo, xHi, xLo, bHi, bLo, out, 0);
  return (BigInt(out[1]) << 32n) | BigInt(out[0]);
}

describe('mulAddModP (32-bit lanes) against BigInt', () => {
  it('(P−1)·(P−1) mod P = 1', () => {
    expect(mulAdd(P - 1n, P - 1n, 0n)).toBe(1n);
  });

  it('is exact on every pair of edge values, with edge addends', () => {
    for (const a of EDGES)
      for (const x of EDGES)
        for (const b of EDGE_ADDENDS) {
          // The algorithm takes operands below 2^61 (P itself included: it folds to 0).
          expect(mulAdd(a, x, b), `a=${a} x=${x} b=${b}`).toBe((((a * x) % P) + b) % P);
        }
  });

  it('is exact on 200 000 random operands below P', () => {
    const next = rng(1);
    for (let i = 0; i < 200_000; i++) {
      const a = randomBelow(next, P);
      const x = randomBelow(next, P);
      const b = randomBelow(next, P);
      const got = mulAdd(a, x, b);
      if (got !== (((a * x) % P) + b) % P) expect(got, `a=${a} x=${x} b=${b}`).toBe((((a * x) % P) + b) % P);
    }
  });

  it('is exact on random operands with limbs forced to 0 or 0xffff', () => {
    const next = rng(2);
    const pick = (): bigint => {
      let v = 0n;
      for (let limb = 0; limb < 4; limb++) {
        const r = next();
        const value = r < 0.4 ? 0xffffn : r < 0.6 ? 0n : BigInt(randomU32(next) & 0xffff);
        v |= value << BigInt(16 * limb);
      }
      return v & ((1n << 61n) - 1n);
    };
    for (let i = 0; i < 50_000; i++) {
      const a = pick();
      const x = pick();
      const b = pick() % P;
      expect(mulAdd(a, x, b)).toBe((((a * x) % P) + b) % P);
    }
  });
});

describe('reduce64ModP against BigInt', () => {
  it('reduces edge and random 64-bit values', () => {
    const next = rng(3);
    const values = [0n, 1n, P - 1n, P, P + 1n, 2n * P, (1n << 64n) - 1n, 1n << 63n, 7n * P + 6n];
    for (let i = 0; i < 50_000; i++) values.push((BigInt(randomU32(next)) << 32n) | BigInt(randomU32(next)));
    const out = new Uint32Array(2);
    for (const v of values) {
      reduce64ModP(Number(v >> 32n), Number(v & 0xffffffffn), out, 0);
      expect((BigInt(out[1]) << 32n) | BigInt(out[0]), `v=${v}`).toBe(v % P);
    }
  });
});
