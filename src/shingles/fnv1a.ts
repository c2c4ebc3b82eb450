/**
 * FNV-1a 64 over a byte range, on 32-bit lanes, reduced mod P = 2^61 − 1.
 * Offset basis 0xcbf29ce484222325, prime 0x100000001b3 = 2^40 + 0x1b3.
 */
import { reduce64ModP } from '../math/mersenne61.js';

export const FNV_OFFSET_HI = 0xcbf29ce4;
export const FNV_OFFSET_LO = 0x84222325;
const FNV_PRIME_LO = 0x1b3;
const TWO_32 = 4294967296;

/** Writes FNV-1a-64(bytes[start..end)) mod P into out[at] (lo) and out[at + 1] (hi). */
export function fnv1a64ModP(bytes: Uint8Array, start: number, end: number, out: Uint32Array, at: number): void {
  let hi = FNV_OFFSET_HI;
  let lo = FNV_OFFSET_LO;
  for (let i = start; i < end; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    // (hi·2^32 + lo)·(2^40 + 0x1b3) mod 2^64: lo·0x1b3 < 2^41 is exact in a double;
    // lo·2^40 contributes (lo << 8) to the high word.
    const low = lo * FNV_PRIME_LO;
    const newLo = low >>> 0;
    hi = (Math.imul(hi, FNV_PRIME_LO) + (lo << 8) + (low - newLo) / TWO_32) >>> 0;
    lo = newLo;
  }
  reduce64ModP(hi, lo, out, at);
}
