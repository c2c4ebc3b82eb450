/**
 * The layout of b-bit rows (bBitSlots.ts): how wide a row is, and Li and
 * König's estimate from the fraction of equal b-bit slots. Pure arithmetic
 * that signatureMatrix.ts and bBitSlots.ts both need: here, neither imports
 * the other's importer back (no import circle).
 */

export type BBitSlotBits = 1 | 2 | 4 | 8 | 16;

export interface BandLayout {
  readonly bands: number;
  readonly rows: number;
}

export function isBBit(slotBits: number): slotBits is BBitSlotBits {
  return slotBits === 1 || slotBits === 2 || slotBits === 4 || slotBits === 8 || slotBits === 16;
}

/** Words of packed slots per row. */
export function packedSlotWords(k: number, b: BBitSlotBits): number {
  return Math.ceil((k * b) / 32);
}

/** Words per stored b-bit row: the band keys, then the packed slots. */
export function bBitRowWords(k: number, b: BBitSlotBits, layout: BandLayout): number {
  return 2 * layout.bands + packedSlotWords(k, b);
}

/**
 * Li and König's estimator of the resemblance R from the fraction E of
 * matching b-bit slots: R̂ = (E − C1)/(1 − C2), with
 *   A_j = r_j (1 − r_j)^(2^b − 1) / (1 − (1 − r_j)^(2^b)),  r_j = f_j / D,
 *   C1 = A_1·r_2/(r_1 + r_2) + A_2·r_1/(r_1 + r_2),
 *   C2 = A_1·r_1/(r_1 + r_2) + A_2·r_2/(r_1 + r_2),
 * for sets of f_1, f_2 elements out of a universe of D. Here D ≈ 2^61 (the
 * hash range), so r_j < 2^−20 for any real document and A_j = 2^−b to within
 * 2^−20 relative: R̂ = (E − 2^−b)/(1 − 2^−b), which is what this computes for
 * r_1 = r_2 = 0 (the default); clipped to [0, 1].
 */
export function liKonigEstimate(matchFraction: number, b: number, r1 = 0, r2 = 0): number {
  const a = (r: number): number => (r === 0 ? 2 ** -b : (r * (1 - r) ** (2 ** b - 1)) / (1 - (1 - r) ** (2 ** b)));
  const [a1, a2] = [a(r1), a(r2)];
  const w1 = r1 + r2 === 0 ? 0.5 : r2 / (r1 + r2);
  const w2 = 1 - w1;
  const c1 = a1 * w1 + a2 * w2;
  const c2 = a1 * w2 + a2 * w1;
  return Math.min(1, Math.max(0, (matchFraction - c1) / (1 - c2)));
}
