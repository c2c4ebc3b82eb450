/**
 * The audit's statistics (audit.ts): the Wilson score interval, and the seeded
 * sampling without replacement its sample is drawn by. Pure.
 */
import { boundedUint32, MersenneTwister } from '../math/mt19937.js';
import { parseU64 } from '../math/u64.js';

/** z of a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** The Wilson score interval of x successes in n trials (n = 0: the whole [0, 1]). */
export function wilsonInterval(x: number, n: number, z = Z95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = x / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At x = 0 and x = n an end is exactly 0 or 1: rounding would leave 1e-16 off.
  return { low: x === 0 ? 0 : Math.max(0, centre - half), high: x === n ? 1 : Math.min(1, centre + half) };
}

/** A 32-bit Mersenne Twister seed from a 64-bit seed (decimal or 0x hex): its two halves xor-ed. */
export function auditGenerator(seed: string | number): MersenneTwister {
  const { hi, lo } = parseU64(String(seed));
  return new MersenneTwister((hi ^ lo) >>> 0);
}

/** min(n, count) distinct ranks in [0, count), uniformly (a sparse Fisher–Yates shuffle), ascending. */
export function sampleRanks(count: number, n: number, gen: MersenneTwister): number[] {
  const take = Math.min(n, count);
  const swapped = new Map<number, number>();
  const chosen: number[] = [];
  for (let i = 0; i < take; i++) {
    const j = boundedUint32(gen, i, count - 1 - i);
    const atJ = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(i) ?? i);
    chosen.push(atJ);
  }
  return chosen.sort((a, b) => a - b);
}
