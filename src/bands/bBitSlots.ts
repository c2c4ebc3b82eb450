/**
 * b-bit slots (Li and König, WWW 2010): a stored signature keeps only the low
 * b bits of each slot (b = 1, 2, 4, 8 or 16), 4–64× smaller than 64-bit slots,
 * for verification; banding uses keys computed from the full values before
 * truncation and stored beside them, so candidates do not depend on b.
 *
 * Row layout (32-bit little-endian words; the `.npy` is `<u4`, shape
 * (documents, 2·bands + ⌈k·b/32⌉)):
 *   words [0, 2·bands): band key j as (lo, hi) at 2j, 2j + 1 (bandKeys.ts of
 *     the 64-bit slots: one `<u8` per band);
 *   then ⌈k·b/32⌉ words of packed slots: slot i is bits [i·b, i·b + b) of the
 *     little-endian bit stream, bit n being bit n mod 32 of word ⌊n/32⌋ (= bit
 *     n mod 8 of byte ⌊n/8⌋); padding bits are 0.
 * An empty document's row is all-ones, band keys and padding included.
 *
 * Agreement of two b-bit rows over-counts: unequal values share their low b
 * bits with probability ≈ 2^−b. Li and König's estimator corrects it.
 */
import { EMPTY_SLOT_WORD } from '../signatures/backend.js';
import { bandKey } from './bandKeys.js';
import { fromSignerWords, rowStart, type SignatureMatrix } from './signatureMatrix.js';

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
 * Signer output (documents·k (lo, hi) pairs) as b-bit rows: band keys of the
 * full 64-bit slots, then the low b bits of each slot packed.
 */
export function packBBitRows(pairs: Uint32Array, k: number, b: BBitSlotBits, layout: BandLayout): Uint32Array {
  const docs = pairs.length / (2 * k);
  const width = bBitRowWords(k, b, layout);
  const out = new Uint32Array(docs * width);
  const full: SignatureMatrix = { words: pairs, k, slotBits: 64, count: docs };
  const mask = (1 << b) - 1;
  for (let d = 0; d < docs; d++) {
    const row = d * width;
    if (isAllOnes(pairs, 2 * k * d, 2 * k * (d + 1))) {
      out.fill(EMPTY_SLOT_WORD, row, row + width);
      continue;
    }
    for (let band = 0; band < layout.bands; band++) bandKey(full, d, band, layout.rows, out, row + 2 * band);
    const slots = row + 2 * layout.bands;
    for (let i = 0; i < k; i++) {
      const bit = i * b; // b divides 32, so a slot never straddles two words
      out[slots + (bit >>> 5)] |= (pairs[2 * (d * k + i)] & mask) << (bit & 31);
    }
  }
  return out;
}

function isAllOnes(words: Uint32Array, from: number, to: number): boolean {
  for (let w = from; w < to; w++) if (words[w] !== EMPTY_SLOT_WORD) return false;
  return true;
}

/** Slot i of row `doc` of a b-bit matrix. */
export function bBitSlot(m: SignatureMatrix, doc: number, i: number): number {
  const b = m.slotBits as BBitSlotBits;
  const at = rowStart(m, doc, bBitRowWords(m.k, b, m.bands!)) + 2 * m.bands!.bands + ((i * b) >>> 5);
  return (m.words[at] >>> ((i * b) & 31)) & ((1 << b) - 1);
}

/** Slots on which two rows of a b-bit matrix have equal low b bits. */
export function bBitMatches(m: SignatureMatrix, a: number, c: number): number {
  const b = m.slotBits as BBitSlotBits;
  const width = bBitRowWords(m.k, b, m.bands!);
  const start = 2 * m.bands!.bands;
  const { words, k } = m;
  const rowA = rowStart(m, a, width) + start;
  const rowC = rowStart(m, c, width) + start;
  let equal = 0;
  const perWord = 32 / b;
  const mask = (1 << b) - 1;
  for (let w = 0; w < packedSlotWords(k, b); w++) {
    // Equal slots are zero fields of the XOR; the last word's padding is 0 in both rows and skipped.
    const x = words[rowA + w] ^ words[rowC + w];
    const fields = Math.min(perWord, k - w * perWord);
    if (x === 0) {
      equal += fields;
      continue;
    }
    for (let f = 0; f < fields; f++) if (((x >>> (f * b)) & mask) === 0) equal++;
  }
  return equal;
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

/** Signer output as the rows of a matrix of `slotBits`: packed with band keys below 32 bits, else full or low words. */
export function toStoredRows(pairs: Uint32Array, k: number, slotBits: number, bands?: BandLayout): Uint32Array {
  if (isBBit(slotBits)) {
    if (!bands) throw new RangeError(`${slotBits}-bit slots need their band layout`);
    return packBBitRows(pairs, k, slotBits, bands);
  }
  return fromSignerWords(pairs, slotBits === 64 ? 64 : 32);
}
