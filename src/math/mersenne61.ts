/**
 * Arithmetic modulo the Mersenne prime P = 2^61 − 1 on 32-bit lanes.
 *
 * This is the one multiply-mod algorithm of gpudedup. `shaders/mersenne61.wgsl`
 * mirrors it step for step (WGSL has only 32-bit integers), so the CPU and
 * GPU backends produce identical signatures. A value v < 2^61 is held as
 * (hi, lo) with v = hi·2^32 + lo, hi < 2^29.
 *
 * mulAddModP(a, x, b) = ((a·x) mod P + b) mod P, for a, x, b < 2^61:
 *   1. Four 32×32 → 64-bit partial products, as (hi, lo) words:
 *        p00 = a.lo·x.lo, p01 = a.lo·x.hi, p10 = a.hi·x.lo, p11 = a.hi·x.hi
 *      WGSL forms each from 16-bit limbs so no intermediate exceeds 32 bits;
 *      TypeScript gets the same words faster from Math.imul and a double.
 *   2. Sum them into the 128-bit product w3:w2:w1:w0 (w = p00 + (p01+p10)·2^32
 *      + p11·2^64), propagating carries column by column.
 *   3. Fold at bit 61: since 2^61 ≡ 1 (mod P), a·x ≡ L + H with
 *      L = a·x mod 2^61 and H = a·x >> 61. Both are < 2^61 and H < P, so
 *      L + H < 2P and one conditional subtraction of P reduces it.
 *   4. Add b (< P) the same way: sum < 2P, one conditional subtraction.
 */

export const P_HI = 0x1fffffff;
export const P_LO = 0xffffffff;
const TWO_32 = 4294967296;

/** Writes ((a·x) mod P + b) mod P into out[at] (lo) and out[at + 1] (hi). */
export function mulAddModP(
  aHi: number,
  aLo: number,
  xHi: number,
  xLo: number,
  bHi: number,
  bLo: number,
  out: Uint32Array,
  at: number,
): void {
  // Step 1. In a double, the low word comes exactly from Math.imul, and the high
  // word from the rounded product: u·v is off by at most 2^11 near 2^64, far
  // below half of 2^32, so rounding (u·v − lo) / 2^32 (+0.5, truncate) gives the
  // exact high word.
  // (WGSL, without doubles, builds the same words from 16-bit limbs.)
  const p00lo = Math.imul(aLo, xLo) >>> 0;
  const p00hi = ((aLo * xLo - p00lo) / TWO_32 + 0.5) >>> 0;
  const p01lo = Math.imul(aLo, xHi) >>> 0;
  const p01hi = ((aLo * xHi - p01lo) / TWO_32 + 0.5) >>> 0;
  const p10lo = Math.imul(aHi, xLo) >>> 0;
  const p10hi = ((aHi * xLo - p10lo) / TWO_32 + 0.5) >>> 0;
  const p11lo = Math.imul(aHi, xHi) >>> 0;
  const p11hi = ((aHi * xHi - p11lo) / TWO_32 + 0.5) >>> 0;

  // Step 2: the 128-bit product, column by column with carries.
  const w0 = p00lo;
  const s1 = p00hi + p01lo + p10lo;
  const w1 = s1 >>> 0;
  const s2 = p11lo + p01hi + p10hi + (s1 - w1) / TWO_32;
  const w2 = s2 >>> 0;
  const w3 = p11hi + (s2 - w2) / TWO_32; // < 2^26: the product is < 2^122

  // Step 3: fold at bit 61. L = low 61 bits, H = bits 61..121.
  const lHi = w1 & P_HI;
  const hLo = ((w1 >>> 29) | (w2 << 3)) >>> 0;
  const hHi = ((w2 >>> 29) | (w3 << 3)) >>> 0;
  let sumLo = w0 + hLo;
  let sumHi = lHi + hHi + (sumLo >= TWO_32 ? 1 : 0);
  sumLo = sumLo >>> 0;
  if (sumHi > P_HI || (sumHi === P_HI && sumLo === P_LO)) {
    // Subtracting P = adding 1 and dropping bit 61.
    sumLo = sumLo + 1;
    sumHi = (sumHi + (sumLo >= TWO_32 ? 1 : 0)) & P_HI;
    sumLo = sumLo >>> 0;
  }

  // Step 4: + b, reduced the same way.
  let rLo = sumLo + bLo;
  let rHi = sumHi + bHi + (rLo >= TWO_32 ? 1 : 0);
  rLo = rLo >>> 0;
  if (rHi > P_HI || (rHi === P_HI && rLo === P_LO)) {
    rLo = rLo + 1;
    rHi = (rHi + (rLo >= TWO_32 ? 1 : 0)) & P_HI;
    rLo = rLo >>> 0;
  }
  out[at] = rLo;
  out[at + 1] = rHi;
}

/**
 * v mod P for any 64-bit v = (hi, lo): 2^61 ≡ 1, so v ≡ (v & P) + (v >> 61),
 * a sum below P + 8 that one conditional subtraction reduces.
 */
export function reduce64ModP(hi: number, lo: number, out: Uint32Array, at: number): void {
  let rLo = lo + (hi >>> 29);
  let rHi = (hi & P_HI) + (rLo >= TWO_32 ? 1 : 0);
  rLo = rLo >>> 0;
  if (rHi > P_HI || (rHi === P_HI && rLo === P_LO)) {
    rLo = rLo + 1;
    rHi = (rHi + (rLo >= TWO_32 ? 1 : 0)) & P_HI;
    rLo = rLo >>> 0;
  }
  out[at] = rLo;
  out[at + 1] = rHi;
}
