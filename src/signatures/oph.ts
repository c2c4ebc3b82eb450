/**
 * One-permutation hashing (Li, Owen and Zhang, NeurIPS 2012) with optimal
 * densification (Shrivastava, ICML 2017): one hash per shingle instead of k.
 * docs/signatures.md, "The hash family", specifies it; test/support/reference.ts has
 * the BigInt version of every step.
 *
 *   h(x)   = ((a_0·x) mod P + b_0) mod P            the classic family's h_0
 *   top(h) = floor(h / 2^29)                         its top 32 of 61 bits
 *   bin(h) = floor(top(h)·k / 2^32)                  Lemire's range reduction
 *   slot[j] = min h over the shingles with bin(h) = j   (bin is monotone in h,
 *             so this is the minimum of h's in-bin part)
 *
 * Densification: an empty bin j takes the value of the first originally
 * non-empty bin among probe(j, 0), probe(j, 1), … with
 *   probe(j, t) = floor(fmix32(fmix32(c ⊕ j) + t·0x9e3779b9 mod 2^32)·k / 2^32),
 * c = splitmix64(seed + 2) mod 2^32 (family.probeKey). For one j the mixed words
 * of t = 0 … 2^32 − 1 are all distinct (fmix32 is a bijection, the step odd), so
 * every bin is reached and the loop ends whenever one bin is non-empty. A
 * document without shingles keeps every slot all-ones.
 *
 * Signing is two steps so that a faster kernel can replace the first: bin
 * minima (O(shingles)) and densification (O(k) per document). shaders/oph.wgsl
 * does both for a document that is one segment, and the bin minima of each
 * segment of a longer one, densified here after the segments are combined.
 */
import { fmix32 } from '../math/murmur3.js';
import { mulAddModP } from '../math/mersenne61.js';
import { EMPTY_SLOT_WORD, documentCount, type ShingleBatch } from './backend.js';
import type { HashFamily } from './hashFamily.js';

const TWO_32 = 4294967296;
/** Odd step between the probes of one bin: the 32-bit golden ratio. */
export const PROBE_STEP = 0x9e3779b9;

/** bin(h) for h = (hi, lo) < 2^61: the top 32 bits times k, over 2^32 (exact: below 2^44 in a double). */
export function ophBin(hHi: number, hLo: number, k: number): number {
  const top = ((hHi << 3) | (hLo >>> 29)) >>> 0;
  return Math.floor((top * k) / TWO_32);
}

/**
 * Fills `out` (documents·k (lo, hi) pairs, prefilled all-ones) with each
 * document's per-bin minima of h_0. This is the step a wasm kernel can replace.
 */
export type OphBinKernel = (family: HashFamily, batch: ShingleBatch, out: Uint32Array) => void;

export const binMinimaTs: OphBinKernel = (family, batch, out) => {
  const { k, a, b } = family;
  const aLo = a[0];
  const aHi = a[1];
  const bLo = b[0];
  const bHi = b[1];
  const { shingles, offsets } = batch;
  const docs = documentCount(batch);
  const value = new Uint32Array(2);
  for (let d = 0; d < docs; d++) {
    const base = d * k * 2;
    for (let s = offsets[d]; s < offsets[d + 1]; s++) {
      mulAddModP(aHi, aLo, shingles[2 * s + 1], shingles[2 * s], bHi, bLo, value, 0);
      const hLo = value[0];
      const hHi = value[1];
      const at = base + 2 * ophBin(hHi, hLo, k);
      if (hHi < out[at + 1] || (hHi === out[at + 1] && hLo < out[at])) {
        out[at] = hLo;
        out[at + 1] = hHi;
      }
    }
  }
};

/** fmix32(c ⊕ j) for every bin j: the start of each bin's probe sequence. */
export function probeBases(k: number, probeKey: number): Uint32Array {
  const bases = new Uint32Array(k);
  for (let j = 0; j < k; j++) bases[j] = fmix32((probeKey ^ j) >>> 0);
  return bases;
}

/** probe(j, t), given bases[j] = fmix32(c ⊕ j). */
export function probe(base: number, t: number, k: number): number {
  return Math.floor((fmix32((base + Math.imul(t, PROBE_STEP)) >>> 0) * k) / TWO_32);
}

/**
 * Optimal densification of every row of `out` in place. A bin is empty when
 * its hi word is all-ones (a real value is below P, so its hi word is below 2^29).
 */
export function densify(out: Uint32Array, documents: number, k: number, probeKey: number): number {
  const bases = probeBases(k, probeKey);
  const filled = new Uint8Array(k);
  let densified = 0;
  for (let d = 0; d < documents; d++) {
    const base = d * k * 2;
    let nonEmpty = 0;
    for (let j = 0; j < k; j++) {
      filled[j] = out[base + 2 * j + 1] === EMPTY_SLOT_WORD ? 0 : 1;
      nonEmpty += filled[j];
    }
    if (nonEmpty === 0 || nonEmpty === k) continue;
    densified++;
    for (let j = 0; j < k; j++) {
      if (filled[j]) continue;
      let donor = probe(bases[j], 0, k);
      for (let t = 1; !filled[donor]; t++) donor = probe(bases[j], t, k);
      out[base + 2 * j] = out[base + 2 * donor];
      out[base + 2 * j + 1] = out[base + 2 * donor + 1];
    }
  }
  return densified;
}

function ophProbeKey(family: HashFamily): number {
  if (family.probeKey === undefined)
    throw new Error('an OPH signer needs a family made with the oph scheme (its probe key)');
  return family.probeKey;
}

/** OPH signatures of a batch: bin minima by `kernel` (TypeScript unless given), then densification. */
export function signBatchOph(family: HashFamily, batch: ShingleBatch, kernel: OphBinKernel = binMinimaTs): Uint32Array {
  const docs = documentCount(batch);
  const out = new Uint32Array(docs * family.k * 2).fill(EMPTY_SLOT_WORD);
  kernel(family, batch, out);
  densify(out, docs, family.k, ophProbeKey(family));
  return out;
}

/**
 * Densifies rows whose bin minima another backend computed (rows without empty bins are left alone); returns how many.
 */
export function densifyBatch(family: HashFamily, out: Uint32Array): number {
  return densify(out, out.length / (2 * family.k), family.k, ophProbeKey(family));
}
