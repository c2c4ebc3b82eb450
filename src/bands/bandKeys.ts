/**
 * Band keys: the r slot values of band j, hashed together with j into a 64-bit
 * key held as two 32-bit words (no BigInt on this hot path). Two independent
 * MurmurHash3-style lanes with different seeds give the two words, so distinct
 * band contents collide with probability about 2^-64; a collision only adds a
 * candidate pair, which verification then judges.
 */
import type { LshParams } from './lshParams.js';
import { rowStart, rowWords, type SignatureMatrix } from './signatureMatrix.js';

const SEED_A = 0x243f6a88;
const SEED_B = 0x85a308d3;

function mixWord(h: number, w: number): number {
  w = Math.imul(w, 0xcc9e2d51);
  w = (w << 15) | (w >>> 17);
  w = Math.imul(w, 0x1b873593);
  h ^= w;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finalize(h: number, length: number): number {
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Writes the key of band `band` (slots band·r … band·r + r − 1, or with `lsh.slots` the one-bit slots listed there)
 * of document `doc` into out[at] (lo) and out[at + 1] (hi).
 */
export function bandKey(
  m: SignatureMatrix,
  doc: number,
  band: number,
  lsh: Pick<LshParams, 'rows' | 'slots'>,
  out: Uint32Array,
  at: number,
): void {
  const { words } = m;
  const { rows } = lsh;
  if (m.bands) {
    // b-bit rows carry the keys of their full values (bBitSlots.ts): banding only reads them.
    if (rows !== m.bands.rows || band >= m.bands.bands) {
      throw new RangeError(
        `these signatures store band keys for ${m.bands.bands} bands × ${m.bands.rows} rows, not band ${band} of ${rows} rows`,
      );
    }
    const from = rowStart(m, doc, rowWords(m.k, m.slotBits, m.bands)) + 2 * band;
    out[at] = words[from];
    out[at + 1] = words[from + 1];
    return;
  }
  const wordsPerSlot = m.slotBits === 64 ? 2 : 1;
  if (lsh.slots !== undefined) {
    blockTableKey(words, rowStart(m, doc, m.k * wordsPerSlot), wordsPerSlot, band, rows, lsh.slots, out, at);
    return;
  }
  const start = rowStart(m, doc, m.k * wordsPerSlot) + band * rows * wordsPerSlot;
  const end = start + rows * wordsPerSlot;
  let a = mixWord(SEED_A, band);
  let b = mixWord(SEED_B, Math.imul(band, 0x9e3779b1) ^ 0x5bd1e995);
  for (let w = start; w < end; w++) {
    a = mixWord(a, words[w]);
    b = mixWord(b, words[w] ^ 0x7f4a7c15);
  }
  out[at] = finalize(a, rows);
  out[at + 1] = finalize(b, rows ^ 0x3c6ef372);
}

/**
 * A block table's key (simhashBands.ts): its one-bit slots (a slot's low word is 0 or 1) packed 32 to a word, the
 * words hashed as a band's slots are, so a table of up to 64 bits costs two mixes a lane.
 */
function blockTableKey(
  words: Uint32Array,
  row: number,
  wordsPerSlot: number,
  band: number,
  rows: number,
  slots: readonly number[],
  out: Uint32Array,
  at: number,
): void {
  let a = mixWord(SEED_A, band);
  let b = mixWord(SEED_B, Math.imul(band, 0x9e3779b1) ^ 0x5bd1e995);
  const from = band * rows;
  for (let i = 0; i < rows; i += 32) {
    let packed = 0;
    for (let j = i; j < Math.min(i + 32, rows); j++)
      packed |= (words[row + slots[from + j] * wordsPerSlot] & 1) << (j - i);
    a = mixWord(a, packed);
    b = mixWord(b, packed ^ 0x7f4a7c15);
  }
  out[at] = finalize(a, rows);
  out[at + 1] = finalize(b, rows ^ 0x3c6ef372);
}
