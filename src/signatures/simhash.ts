/**
 * SimHash (Charikar 2002) with 64-bit fingerprints, `--scheme simhash`: each
 * element x of a document's set (a shingle, or with `--weights counts` a counted
 * element (g, j), so a shingle's weight is its count) is hashed to 64 bits,
 *
 *     h(x) = splitmix64((x + key) mod 2^64),   key = splitmix64(seed),
 *
 * (math/splitmix64.ts, written again on plain words for this loop) and bit i of the fingerprint is 1 when more
 * than half of the elements have bit i set, i.e. when the sum of ±1 over the
 * elements is positive (a tie, and the empty document, give 0). All 64 bits come
 * from the hash, none from the 61-bit shingle value itself.
 *
 * For two documents whose weighted shingle vectors make angle θ, each bit differs
 * with probability θ / π, so the fraction of equal bits estimates 1 − θ / π.
 * A signature is the fingerprint as 64 one-bit slots (slot i = bit i, hi word 0),
 * so that banding with bands of listed slots (LshParams.slots) is Manku's block tables.
 */
import { splitmix64 } from '../math/splitmix64.js';
import { u64 } from '../math/u64.js';
import { documentCount, EMPTY_SLOT_WORD, type ShingleBatch } from './backend.js';

/** The fingerprint's width: k of a SimHash signature. */
export const SIMHASH_BITS = 64;

// splitmix64's constants as (hi, lo) words.
const PHI_HI = 0x9e3779b9;
const PHI_LO = 0x7f4a7c15;
const M1_HI = 0xbf58476d;
const M1_LO = 0x1ce4e5b9;
const M2_HI = 0x94d049bb;
const M2_LO = 0x133111eb;

/** The low 64 bits of (aHi, aLo)·(bHi, bLo), into r: r[0] lo, r[1] hi. 16-bit limbs keep every product exact. */
function mulLow64(aHi: number, aLo: number, bHi: number, bLo: number, r: Uint32Array): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const mid = a0 * b1 + a1 * b0; // < 2^33
  const low = a0 * b0 + (mid % 65536) * 65536; // < 2^33
  const lo = low >>> 0;
  const carry = Math.floor(mid / 65536) + (low - lo) / 4294967296;
  r[0] = lo;
  r[1] = (Math.imul(a1, b1) + carry + Math.imul(aHi, bLo) + Math.imul(aLo, bHi)) >>> 0;
}

/** splitmix64(state) into r (lo, hi), state = (hi, lo). */
function splitmix64Words(hi: number, lo: number, r: Uint32Array): void {
  let zLo = lo + PHI_LO;
  let zHi = (hi + PHI_HI + (zLo >= 4294967296 ? 1 : 0)) >>> 0;
  zLo >>>= 0;
  mulLow64(zHi ^ (zHi >>> 30), (zLo ^ ((zLo >>> 30) | (zHi << 2))) >>> 0, M1_HI, M1_LO, r);
  zLo = r[0];
  zHi = r[1];
  mulLow64(zHi ^ (zHi >>> 27), (zLo ^ ((zLo >>> 27) | (zHi << 5))) >>> 0, M2_HI, M2_LO, r);
  zLo = r[0];
  zHi = r[1];
  r[0] = (zLo ^ ((zLo >>> 31) | (zHi << 1))) >>> 0;
  r[1] = (zHi ^ (zHi >>> 31)) >>> 0;
}

/** The fingerprint of elements [from, to) of `elements` ((lo, hi) pairs), as (lo, hi) words into out[at], out[at + 1]. */
function simhashFingerprint(
  elements: Uint32Array,
  from: number,
  to: number,
  key: Uint32Array,
  out: Uint32Array,
  at: number,
): void {
  const ones = new Int32Array(SIMHASH_BITS);
  const h = new Uint32Array(2);
  for (let s = from; s < to; s++) {
    const lo = elements[2 * s] + key[0];
    splitmix64Words((elements[2 * s + 1] + key[1] + (lo >= 4294967296 ? 1 : 0)) >>> 0, lo >>> 0, h);
    for (let w = 0; w < 2; w++) {
      let word = h[w];
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        ones[32 * w + bit]++;
        word &= word - 1;
      }
    }
  }
  const n = to - from;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 32; i++) {
    if (2 * ones[i] > n) lo |= 1 << i;
    if (2 * ones[32 + i] > n) hi |= 1 << i;
  }
  out[at] = lo >>> 0;
  out[at + 1] = hi >>> 0;
}

/** The key of a seed: splitmix64(seed), (lo, hi). */
export function simhashKey(seedHi: number, seedLo: number): Uint32Array {
  const key = splitmix64(u64(seedHi, seedLo));
  return Uint32Array.of(key.lo, key.hi);
}

/**
 * Signatures of a batch: per document 64 one-bit slots (slot i = bit i of the
 * fingerprint, as (bit, 0)), documents·64·2 words; `key` from simhashKey. A document
 * without shingles gets every word all-ones, the empty signature of every scheme.
 */
export function signBatchSimhash(key: Uint32Array, batch: ShingleBatch): Uint32Array {
  const docs = documentCount(batch);
  const out = new Uint32Array(docs * SIMHASH_BITS * 2);
  const fingerprint = new Uint32Array(2);
  for (let d = 0; d < docs; d++) {
    if (batch.offsets[d] === batch.offsets[d + 1]) {
      out.fill(EMPTY_SLOT_WORD, d * SIMHASH_BITS * 2, (d + 1) * SIMHASH_BITS * 2);
      continue;
    }
    simhashFingerprint(batch.shingles, batch.offsets[d], batch.offsets[d + 1], key, fingerprint, 0);
    expandFingerprint(fingerprint[0], fingerprint[1], out, d * SIMHASH_BITS * 2);
  }
  return out;
}

/** A fingerprint's 64 one-bit slots into out from `at`. */
export function expandFingerprint(lo: number, hi: number, out: Uint32Array, at: number): void {
  for (let i = 0; i < 32; i++) {
    out[at + 2 * i] = (lo >>> i) & 1;
    out[at + 64 + 2 * i] = (hi >>> i) & 1;
  }
}

/** A signature's fingerprint back from its 64 one-bit slots (row `row` of `signatures`), (lo, hi). */
export function fingerprintOf(signatures: Uint32Array, row: number): [number, number] {
  const at = row * SIMHASH_BITS * 2;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 32; i++) {
    lo |= (signatures[at + 2 * i] & 1) << i;
    hi |= (signatures[at + 64 + 2 * i] & 1) << i;
  }
  return [lo >>> 0, hi >>> 0];
}
