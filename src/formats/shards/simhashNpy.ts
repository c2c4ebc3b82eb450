/**
 * SimHash in a .npy signature file: one uint64 per document, the fingerprint itself (bit i = slot i of the signer's
 * 64 one-bit slots, simhash.ts), instead of 64 slots — what numpy users read (`np.load(path)[:, 0]`), eight bytes
 * a document. A document without shingles is all-ones, as in every scheme (a real fingerprint of 64 ones has odds
 * 2^−64). Reading expands them back to the slots every later stage bands and compares. Browser-safe.
 */
import { SCHEMES, type SignatureParams } from '../../signatures/params.js';
import { EMPTY_SLOT_WORD } from '../../signatures/backend.js';
import { expandFingerprint, fingerprintOf, SIMHASH_BITS } from '../../signatures/simhash.js';

/** Whether a .npy of these parameters holds one uint64 fingerprint a document. */
export function packsFingerprints(params: Pick<SignatureParams, 'scheme'>): boolean {
  return params.scheme === SCHEMES.simhash;
}

/** The signer's rows (64 slots of (lo, hi) each) as fingerprints, (lo, hi) a document. */
export function packFingerprints(signatures: Uint32Array): Uint32Array {
  const rows = signatures.length / (2 * SIMHASH_BITS);
  const out = new Uint32Array(2 * rows);
  for (let r = 0; r < rows; r++) {
    if (signatures[r * 2 * SIMHASH_BITS] === EMPTY_SLOT_WORD) {
      out.fill(EMPTY_SLOT_WORD, 2 * r, 2 * r + 2); // the empty signature: every slot all-ones
      continue;
    }
    const [lo, hi] = fingerprintOf(signatures, r);
    out[2 * r] = lo >>> 0;
    out[2 * r + 1] = hi >>> 0;
  }
  return out;
}

/** Fingerprints ((lo, hi) a document) back to rows of 64 slots of `slotBits` (the layout signatureMatrix reads). */
export function unpackFingerprints(words: Uint32Array, slotBits: number): Uint32Array {
  const rows = words.length / 2;
  const wide = new Uint32Array(rows * 2 * SIMHASH_BITS);
  for (let r = 0; r < rows; r++) {
    const at = r * 2 * SIMHASH_BITS;
    if (words[2 * r] === EMPTY_SLOT_WORD && words[2 * r + 1] === EMPTY_SLOT_WORD)
      wide.fill(EMPTY_SLOT_WORD, at, at + 2 * SIMHASH_BITS);
    else expandFingerprint(words[2 * r], words[2 * r + 1], wide, at);
  }
  return slotBits === 64 ? wide : wide.filter((_, i) => i % 2 === 0);
}
