import { describe, expect, it } from 'vitest';
import {
  add64,
  mul32Wide,
  mul64,
  parseU64,
  shr64,
  sub64,
  toDecimal64,
  toHex64,
  xor64,
  type U64,
} from '../../src/math/u64.js';
import { randomU32, rng } from '../support/reference.js';

const MASK64 = (1n << 64n) - 1n;
const big = (v: U64): bigint => (BigInt(v.hi) << 32n) | BigInt(v.lo);
const lanes = (v: bigint): U64 => ({ hi: Number((v >> 32n) & 0xffffffffn), lo: Number(v & 0xffffffffn) });

const EDGE_WORDS = [0, 1, 0xffff, 0x10000, 0xffff0000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];

describe('u64 lanes against BigInt', () => {
  const next = rng(10);
  const samples: bigint[] = [];
  for (const hi of EDGE_WORDS) for (const lo of EDGE_WORDS) samples.push((BigInt(hi) << 32n) | BigInt(lo));
  for (let i = 0; i < 2000; i++) samples.push((BigInt(randomU32(next)) << 32n) | BigInt(randomU32(next)));

  it('mul32Wide is the full 64-bit product', () => {
    for (const u of EDGE_WORDS) for (const v of EDGE_WORDS) expect(big(mul32Wide(u, v))).toBe(BigInt(u) * BigInt(v));
    for (let i = 0; i < 20_000; i++) {
      const u = randomU32(next),
        v = randomU32(next);
      expect(big(mul32Wide(u, v))).toBe(BigInt(u) * BigInt(v));
    }
  });

  it('add, sub, mul, xor and shifts wrap modulo 2^64', () => {
    for (let i = 0; i < samples.length; i++) {
      const a = samples[i];
      const b = samples[(i * 7919 + 13) % samples.length];
      expect(big(add64(lanes(a), lanes(b)))).toBe((a + b) & MASK64);
      expect(big(sub64(lanes(a), lanes(b)))).toBe((a - b) & MASK64);
      expect(big(mul64(lanes(a), lanes(b)))).toBe((a * b) & MASK64);
      expect(big(xor64(lanes(a), lanes(b)))).toBe(a ^ b);
      for (const s of [1, 27, 30, 31]) expect(big(shr64(lanes(a), s))).toBe(a >> BigInt(s));
    }
  });

  it('formats and parses decimal and hex', () => {
    for (const v of samples.slice(0, 300)) {
      expect(toDecimal64(lanes(v))).toBe(v.toString());
      expect(toHex64(lanes(v))).toBe('0x' + v.toString(16).padStart(16, '0'));
      expect(big(parseU64(v.toString()))).toBe(v);
      expect(big(parseU64('0x' + v.toString(16)))).toBe(v);
    }
    expect(big(parseU64('18446744073709551615'))).toBe(MASK64);
    expect(() => parseU64('18446744073709551616')).toThrow(/too large/);
    expect(() => parseU64('99999999999999999999')).toThrow(/too large/);
    expect(() => parseU64('-1')).toThrow(RangeError);
    expect(() => parseU64('0x1ffffffffffffffff')).toThrow(RangeError);
    expect(() => parseU64('')).toThrow(RangeError);
  });
});
