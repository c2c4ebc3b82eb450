/**
 * A read-only view of many signatures, one row of k slots per document, in the
 * layout of a signature `.npy`: with 64-bit slots, slot i of document d is the
 * (lo, hi) word pair at [(d·k + i)·2] (as the signers return it); with 32-bit
 * slots it is the single word at [d·k + i], the low word of the 64-bit slot.
 * Keeping 32-bit rows compact halves the memory that dedup holds. With b-bit
 * slots (b < 32, stored signatures only) a row is the band keys followed by the
 * packed slots (bBitSlots.ts).
 *
 * A sparse matrix (`rowAt`) holds the rows of some documents only: the
 * candidates' rows, loaded after banding when the signatures were spilled to
 * disk (src/pipeline/dedup/rowSpill.ts). Every reader goes through `rowStart`.
 */
import { EMPTY_SLOT_WORD } from '../signatures/backend.js';
import {
  bBitRowWords,
  isBBit,
  liKonigEstimate,
  packedSlotWords,
  type BandLayout,
  type BBitSlotBits,
} from './bBitLayout.js';

export type SlotBits = 1 | 2 | 4 | 8 | 16 | 32 | 64;
/** The slot widths signing and the in-memory pipeline use; narrower ones are for stored signatures. */
export type FullSlotBits = 32 | 64;

export interface SignatureMatrix {
  readonly words: Uint32Array;
  readonly k: number;
  readonly slotBits: SlotBits;
  /** Number of documents (rows). */
  readonly count: number;
  /** b-bit slots only: the layout of the band keys stored at the start of each row. */
  readonly bands?: BandLayout;
  /** Sparse matrices: document d's row is row rowAt[d] of `words`; −1 when it is not held. */
  readonly rowAt?: Int32Array;
}

/** The word where document `doc`'s row starts in `m.words`. */
export function rowStart(m: SignatureMatrix, doc: number, width: number): number {
  if (m.rowAt === undefined) return doc * width;
  const row = m.rowAt[doc];
  if (row < 0) throw new RangeError(`the row of document ${doc} is not held (it was not a candidate)`);
  return row * width;
}

/** A sparse matrix: `words` holds the rows of the documents d with rowAt[d] ≥ 0, of `count` documents in all. */
export function sparseMatrix(dense: SignatureMatrix, rowAt: Int32Array): SignatureMatrix {
  if (dense.rowAt !== undefined) throw new RangeError('a sparse matrix is built from dense rows');
  return { ...dense, count: rowAt.length, rowAt };
}

/** Words per row: 2k for 64-bit slots, k for 32-bit slots; band keys plus packed slots for b < 32. */
export function rowWords(k: number, slotBits: SlotBits, bands?: BandLayout): number {
  if (isBBit(slotBits)) {
    if (!bands) throw new RangeError(`${slotBits}-bit slots need their stored band keys`);
    return bBitRowWords(k, slotBits, bands);
  }
  return slotBits === 64 ? 2 * k : k;
}

export function signatureMatrix(
  words: Uint32Array,
  k: number,
  slotBits: SlotBits = 64,
  bands?: BandLayout,
): SignatureMatrix {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  const row = rowWords(k, slotBits, bands);
  if (words.length % row !== 0) {
    throw new RangeError(
      `signature words (${words.length}) are not a whole number of rows of k = ${k} ${slotBits}-bit slots`,
    );
  }
  const m = { words, k, slotBits, count: words.length / row };
  return isBBit(slotBits) ? { ...m, bands } : m;
}

/**
 * Signer output ((lo, hi) per slot) in the layout of `slotBits`: unchanged for
 * 64-bit slots, the low words only for 32-bit slots.
 */
export function fromSignerWords(pairs: Uint32Array, slotBits: FullSlotBits): Uint32Array {
  if (slotBits === 64) return pairs;
  const out = new Uint32Array(pairs.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = pairs[2 * i];
  return out;
}

/**
 * True when every slot is all-ones: the signature of a document without
 * shingles. A real slot is below P = 2^61 − 1, so with 64-bit slots its hi word
 * is never all-ones; with 32-bit slots one lo word may be by chance, never all k.
 */
export function isEmptySignature(m: SignatureMatrix, doc: number): boolean {
  const width = rowWords(m.k, m.slotBits, m.bands);
  const start = rowStart(m, doc, width);
  for (let w = start; w < start + width; w++) if (m.words[w] !== EMPTY_SLOT_WORD) return false;
  return true;
}

/**
 * Fraction of the k slots on which two documents agree: the MinHash estimate
 * of their Jaccard similarity. With b-bit slots, Li and König's estimator of it
 * from the fraction of equal b-bit slots (bBitSlots.ts).
 */
export function signatureAgreement(m: SignatureMatrix, a: number, b: number): number {
  return agreementEstimate(equalSlots(m, a, b), m.k, m.slotBits);
}

/** The estimate from `equal` equal slots of k (what `cluster`'s SQL counts as `agree`). */
export function agreementEstimate(equal: number, k: number, slotBits: SlotBits): number {
  return isBBit(slotBits) ? liKonigEstimate(equal / k, slotBits) : equal / k;
}

/** How many of the k stored slots of two documents are equal (b-bit slots compared as stored). */
export function equalSlots(m: SignatureMatrix, a: number, b: number): number {
  const { words, k } = m;
  if (isBBit(m.slotBits)) return bBitMatches(m, a, b);
  // Without a branch a slot: about half the slots of a candidate pair agree, in no order a predictor can follow
  // (−30 % a pair). (x | −x) >>> 31 is 1 where the 32-bit x is not 0.
  let equal = 0;
  if (m.slotBits === 64) {
    const baseA = rowStart(m, a, 2 * k);
    const baseB = rowStart(m, b, 2 * k);
    for (let i = 0; i < 2 * k; i += 2) {
      const x = (words[baseA + i] ^ words[baseB + i]) | (words[baseA + i + 1] ^ words[baseB + i + 1]);
      equal += ((x | -x) >>> 31) ^ 1;
    }
  } else {
    const baseA = rowStart(m, a, k);
    const baseB = rowStart(m, b, k);
    for (let i = 0; i < k; i++) {
      const x = words[baseA + i] ^ words[baseB + i];
      equal += ((x | -x) >>> 31) ^ 1;
    }
  }
  return equal;
}

/**
 * Rows of `first` followed by rows of `second`, e.g. a corpus and a reference set banded together (sparse if either
 * is).
 */
export function concatMatrices(first: SignatureMatrix, second: SignatureMatrix): SignatureMatrix {
  const sameBands = first.bands?.bands === second.bands?.bands && first.bands?.rows === second.bands?.rows;
  if (first.k !== second.k || first.slotBits !== second.slotBits || !sameBands) {
    throw new RangeError(
      `cannot combine signatures of k=${first.k}/${first.slotBits}-bit with k=${second.k}/${second.slotBits}-bit`,
    );
  }
  const words = new Uint32Array(first.words.length + second.words.length);
  words.set(first.words, 0);
  words.set(second.words, first.words.length);
  const dense = signatureMatrix(words, first.k, first.slotBits, first.bands);
  if (first.rowAt === undefined && second.rowAt === undefined) return dense;
  const width = rowWords(first.k, first.slotBits, first.bands);
  const rowAt = new Int32Array(first.count + second.count);
  const held = (m: SignatureMatrix, d: number): number => (m.rowAt === undefined ? d : m.rowAt[d]);
  for (let d = 0; d < first.count; d++) rowAt[d] = held(first, d);
  const offset = first.words.length / width;
  for (let d = 0; d < second.count; d++) rowAt[first.count + d] = held(second, d) < 0 ? -1 : offset + held(second, d);
  return sparseMatrix(dense, rowAt);
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
