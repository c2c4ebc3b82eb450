/**
 * The elements of a count-weighted shingle set (`--weights counts`): a shingle g
 * (a value below P = 2^61 − 1) seen c times in a document stands for the c
 * distinct elements (g, 0) … (g, c − 1), so that the Jaccard similarity of two
 * such sets is the weighted Jaccard Σ min(cA, cB) / Σ max(cA, cB) of the counts.
 *
 * Element (g, 0) is g itself (a document with no repeated shingle signs exactly
 * as under set weighting); element (g, j), j ≥ 1, is
 *
 *     splitmix64((g + j·φ) mod 2^64) mod P,   φ = 0x9e3779b97f4a7c15,
 *
 * splitmix64 as in splitmix64.ts (z = s + φ; z ^= z >> 30; z *= 0xbf58476d1ce4e5b9;
 * z ^= z >> 27; z *= 0x94d049bb133111eb; z ^= z >> 31), all on 32-bit lanes,
 * and the reduction mod P as mersenne61.ts's. A nonlinear mix, not g + j·C: the
 * hash family is linear mod P, and the minimum of a linear map over an
 * arithmetic progression is far from min-wise independent.
 *
 * Pure integer arithmetic; test/math/weightedElement.test.ts checks it against BigInt.
 */
import { add64, mul64, u64 } from './u64.js';
import { reduce64ModP } from './mersenne61.js';
import { GOLDEN as PHI, splitmix64 } from './splitmix64.js';

/**
 * Element j of shingle (lo, hi) (its value below P) into out[at] (lo), out[at + 1] (hi).
 * `j` is a repeat index, 0 ≤ j < 2^32.
 */
export function weightedElement(lo: number, hi: number, j: number, out: Uint32Array, at: number): void {
  if (j === 0) {
    out[at] = lo;
    out[at + 1] = hi;
    return;
  }
  const z = splitmix64(add64(u64(hi, lo), mul64(u64(0, j), PHI)));
  reduce64ModP(z.hi, z.lo, out, at);
}
