/**
 * The datasketch schemes' signatures in TypeScript: the reference the wasm and
 * WGSL kernels are tested against, and the CPU fallback. For a shingle hash x
 * (sha1_hash32 or sha1_hash64, a (lo, hi) pair) slot i is, as in datasketch
 * 2.0.0's MinHash.update_batch (numpy arrays, so every operation wraps):
 *   affine32: fmix32(x)·a_i + b_i mod 2^32
 *   affine64: fmix64(x)·a_i + b_i mod 2^64
 *   legacy:   ((x·a_i + b_i) mod 2^64) mod (2^61 − 1), low 32 bits
 * and the signature is the per-slot minimum. Slots are (lo, hi) pairs as for the
 * other schemes; 32-bit schemes have hi = 0, and an empty document is all-ones.
 */
import { fmix32 } from '../math/murmur3.js';
import { mul32Wide } from '../math/u64.js';
import { EMPTY_SLOT_WORD, documentCount, type ShingleBatch } from './backend.js';
import type { DatasketchScheme } from './datasketchFamily.js';
import type { HashFamily } from './hashFamily.js';

/** MurmurHash3's 64-bit finalizer on (lo, hi), into out[0], out[1]. */
export function fmix64(lo: number, hi: number, out: Uint32Array): void {
  // x ^= x >> 33; x *= 0xff51afd7ed558ccd; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53; x ^= x >> 33
  lo = (lo ^ (hi >>> 1)) >>> 0;
  [lo, hi] = mulLow64(lo, hi, 0xed558ccd, 0xff51afd7);
  lo = (lo ^ (hi >>> 1)) >>> 0;
  [lo, hi] = mulLow64(lo, hi, 0x1a85ec53, 0xc4ceb9fe);
  out[0] = (lo ^ (hi >>> 1)) >>> 0;
  out[1] = hi;
}

/** Low 64 bits of (xHi·2^32 + xLo)·(yHi·2^32 + yLo), as [lo, hi]. */
function mulLow64(xLo: number, xHi: number, yLo: number, yHi: number): [number, number] {
  const low = mul32Wide(xLo, yLo);
  return [low.lo, (low.hi + Math.imul(xLo, yHi) + Math.imul(xHi, yLo)) >>> 0];
}

/** The slot value of one shingle hash for coefficient pair i, into out[0], out[1]. */
export function datasketchSlot(
  scheme: DatasketchScheme,
  family: Pick<HashFamily, 'a' | 'b'>,
  i: number,
  xLo: number,
  xHi: number,
  out: Uint32Array,
): void {
  const { a, b } = family;
  if (scheme === 'datasketch-affine32') {
    out[0] = (Math.imul(fmix32(xLo), a[2 * i]) + b[2 * i]) >>> 0;
    out[1] = 0;
    return;
  }
  let lo: number;
  let hi: number;
  if (scheme === 'datasketch-affine64') {
    fmix64(xLo, xHi, out);
    [lo, hi] = mulLow64(out[0], out[1], a[2 * i], a[2 * i + 1]);
  } else {
    [lo, hi] = mulLow64(xLo, xHi, a[2 * i], a[2 * i + 1]);
  }
  const sumLo = lo + b[2 * i];
  lo = sumLo >>> 0;
  hi = (hi + b[2 * i + 1] + (sumLo >= 0x100000000 ? 1 : 0)) >>> 0;
  if (scheme === 'datasketch-affine64') {
    out[0] = lo;
    out[1] = hi;
    return;
  }
  // v mod P for a 64-bit v: (v & P) + (v >> 61) < 2P, then at most one subtraction of P.
  const foldLo = lo + (hi >>> 29);
  const rLo = foldLo >>> 0;
  const rHi = (hi & 0x1fffffff) + (foldLo >= 0x100000000 ? 1 : 0);
  const atLeastP = rHi > 0x1fffffff || (rHi === 0x1fffffff && rLo === 0xffffffff);
  out[0] = atLeastP ? (rLo + 1) >>> 0 : rLo; // − P = + 1 − 2^61, and only the low word is kept
  out[1] = 0;
}

/** Signatures of every document of the batch, documents·k·2 words. */
export function signBatchDatasketch(family: HashFamily, batch: ShingleBatch): Uint32Array {
  const scheme = family.scheme as DatasketchScheme;
  const { k } = family;
  const { shingles, offsets } = batch;
  const docs = documentCount(batch);
  const out = new Uint32Array(docs * k * 2).fill(EMPTY_SLOT_WORD);
  const value = new Uint32Array(2);
  for (let d = 0; d < docs; d++) {
    const base = d * k * 2;
    for (let s = offsets[d]; s < offsets[d + 1]; s++) {
      for (let i = 0; i < k; i++) {
        datasketchSlot(scheme, family, i, shingles[2 * s], shingles[2 * s + 1], value);
        const at = base + 2 * i;
        if (value[1] < out[at + 1] || (value[1] === out[at + 1] && value[0] < out[at])) {
          out[at] = value[0];
          out[at + 1] = value[1];
        }
      }
    }
  }
  return out;
}
