/**
 * SimHash's exact measure as numbers: the angular similarity 1 − θ / π of a cosine (exactAngular in exactJaccard.ts
 * decides by it), and the least cosine that reaches a threshold, so that an engine without JavaScript's acos
 * (`cluster`'s SQL: DuckDB's acos is the C library's, which may round the last bit otherwise) decides every pair as
 * exactAngular does by comparing cosines alone.
 */

/** 1 − acos(c) / π in JavaScript's doubles (c above 1 by rounding is 1): exactAngular's arithmetic. */
export function angularOfCosine(cosine: number): number {
  return 1 - Math.acos(Math.min(1, cosine)) / Math.PI;
}

const bits = new BigInt64Array(1);
const value = new Float64Array(bits.buffer);
const doubleOf = (pattern: bigint): number => ((bits[0] = pattern), value[0]);
const patternOf = (x: number): bigint => ((value[0] = x), bits[0]);

/** Doubles on each side of the floor checked to decide as it says: acos is monotone, this is its test. */
const CHECKED_NEIGHBOURS = 4096n;

/**
 * The least double c in [0, 1] with angularOfCosine(c) ≥ threshold (non-negative doubles order as their bit patterns,
 * so a bisection on patterns). Every one of CHECKED_NEIGHBOURS doubles on each side is checked to fall on its side:
 * if Math.acos were not monotone there, a cosine comparison could not stand for the angular one, and this refuses.
 */
export function angularCosineFloor(threshold: number): number {
  const passes = (pattern: bigint): boolean => angularOfCosine(doubleOf(pattern)) >= threshold;
  let low = 0n; // the pattern of 0
  let high = patternOf(1);
  if (passes(low)) return 0;
  if (!passes(high)) throw new RangeError(`internal: no cosine reaches the angular similarity ${threshold}`);
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (passes(middle)) high = middle;
    else low = middle;
  }
  for (let i = 0n; i < CHECKED_NEIGHBOURS; i++) {
    const below = high - 1n - i;
    const above = high + i;
    if ((below >= 0n && passes(below)) || (above <= patternOf(1) && !passes(above)))
      throw new Error(`internal: Math.acos is not monotone near the cosine ${doubleOf(high)}`);
  }
  return doubleOf(high);
}
