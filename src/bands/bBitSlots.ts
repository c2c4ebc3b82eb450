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
import { bBitRowWords, isBBit, type BandLayout, type BBitSlotBits } from './bBitLayout.js';
import { fromSignerWords, rowStart, type SignatureMatrix } from './signatureMatrix.js';

export {
  bBitRowWords,
  isBBit,
  liKonigEstimate,
  packedSlotWords,
  type BandLayout,
  type BBitSlotBits,
} from './bBitLayout.js';
export { bBitMatches } from './signatureMatrix.js';

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
    for (let band = 0; band < layout.bands; band++) bandKey(full, d, band, layout, out, row + 2 * band);
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

/** Signer output as the rows of a matrix of `slotBits`: packed with band keys below 32 bits, else full or low words. */
export function toStoredRows(pairs: Uint32Array, k: number, slotBits: number, bands?: BandLayout): Uint32Array {
  if (isBBit(slotBits)) {
    if (!bands) throw new RangeError(`${slotBits}-bit slots need their band layout`);
    return packBBitRows(pairs, k, slotBits, bands);
  }
  return fromSignerWords(pairs, slotBits === 64 ? 64 : 32);
}
