/**
 * A read-only view of many signatures in the in-memory layout of the signers:
 * slot i of document d is the (lo, hi) word pair at [(d·k + i)·2]. With 32-bit
 * slots (a `.npy` of uint32) only the lo word carries information, so every
 * comparison here looks at the hi word only when slotBits is 64.
 */
import { EMPTY_SLOT_WORD } from '../signatures/backend.js';

export type SlotBits = 32 | 64;

export interface SignatureMatrix {
  readonly words: Uint32Array;
  readonly k: number;
  readonly slotBits: SlotBits;
  /** Number of documents (rows). */
  readonly count: number;
}

export function signatureMatrix(words: Uint32Array, k: number, slotBits: SlotBits = 64): SignatureMatrix {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (words.length % (2 * k) !== 0) {
    throw new RangeError(`signature words (${words.length}) are not a whole number of rows of k = ${k} slots`);
  }
  return { words, k, slotBits, count: words.length / (2 * k) };
}

/**
 * True when every slot is all-ones: the signature of a document without
 * shingles. A real slot is below P = 2^61 − 1, so with 64-bit slots its hi word
 * is never all-ones; with 32-bit slots one lo word may be by chance, never all k.
 */
export function isEmptySignature(m: SignatureMatrix, doc: number): boolean {
  const base = doc * m.k * 2;
  const step = m.slotBits === 64 ? 1 : 2;
  for (let w = base; w < base + m.k * 2; w += step) if (m.words[w] !== EMPTY_SLOT_WORD) return false;
  return true;
}

/** Fraction of the k slots on which two documents agree: the MinHash estimate of their Jaccard similarity. */
export function signatureAgreement(m: SignatureMatrix, a: number, b: number): number {
  const { words, k } = m;
  const baseA = a * k * 2;
  const baseB = b * k * 2;
  let equal = 0;
  if (m.slotBits === 64) {
    for (let i = 0; i < 2 * k; i += 2) {
      if (words[baseA + i] === words[baseB + i] && words[baseA + i + 1] === words[baseB + i + 1]) equal++;
    }
  } else {
    for (let i = 0; i < 2 * k; i += 2) if (words[baseA + i] === words[baseB + i]) equal++;
  }
  return equal / k;
}

/** Rows of `first` followed by rows of `second`, e.g. a corpus and a reference set banded together. */
export function concatMatrices(first: SignatureMatrix, second: SignatureMatrix): SignatureMatrix {
  if (first.k !== second.k || first.slotBits !== second.slotBits) {
    throw new RangeError(
      `cannot combine signatures of k=${first.k}/${first.slotBits}-bit with k=${second.k}/${second.slotBits}-bit`,
    );
  }
  const words = new Uint32Array(first.words.length + second.words.length);
  words.set(first.words, 0);
  words.set(second.words, first.words.length);
  return { words, k: first.k, slotBits: first.slotBits, count: first.count + second.count };
}
