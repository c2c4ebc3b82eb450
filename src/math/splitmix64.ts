/**
 * splitmix64's finalizer of state s (s + φ first), on 32-bit lanes: the seed
 * expansion of the hash family (signatures/hashFamily.ts) and the repeat mix of
 * count weighting (weightedElement.ts). SimHash's per-element hash
 * (signatures/simhash.ts) is the same function written on plain words for its
 * hot loop.
 */
import { add64, mul64, shr64, u64, xor64, type U64 } from './u64.js';

/** φ = 0x9e3779b97f4a7c15, the increment. */
export const GOLDEN = u64(0x9e3779b9, 0x7f4a7c15);
const MIX1 = u64(0xbf58476d, 0x1ce4e5b9);
const MIX2 = u64(0x94d049bb, 0x133111eb);

export function splitmix64(state: U64): U64 {
  let z = add64(state, GOLDEN);
  z = mul64(xor64(z, shr64(z, 30)), MIX1);
  z = mul64(xor64(z, shr64(z, 27)), MIX2);
  return xor64(z, shr64(z, 31));
}
