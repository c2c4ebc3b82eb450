import { describe, expect, it } from 'vitest';
import { signBatchOnCpu } from '../../../src/signatures/cpuSigner.js';
import { loadWasmSignKernel } from '../../../src/signatures/wasm/signKernel.js';
import { pack } from '../../../src/shingles/shingleBatch.js';
import { makeHashFamily } from '../../../src/signatures/hashFamily.js';
import { u64 } from '../../../src/math/u64.js';
import { bigIntsToPairs, modPow, P, pairsToBigInts } from '../../support/reference.js';

/**
 * The SIMD kernel's threshold (scripts/sign-simd-wat.mjs): thr is made from the bits of the slot's minimum m (m >> 9
 * as a double's fraction) and must stay ≥ m/P + 2E at every m, or a new minimum is skipped; minima start at 2^63 − 1
 * and are compared signed.
 */
const K = 16;
const SLOTS = [0, 7, 13];

/** The family of seed `seed`, and its a and b as bigints. */
function family(seed: number) {
  const words = makeHashFamily(K, u64(0, seed));
  return { a: pairsToBigInts(words.a), b: pairsToBigInts(words.b), words };
}

/** Hashes from P − 1 down to 0: an eighth less each step, and at each scale steps of 1, 300, 511, 512 and 513. */
function descendingHashes(): bigint[] {
  const hs: bigint[] = [];
  for (let h = P - 1n; h > 1n << 15n; h -= h / 8n) hs.push(h, h - 1n, h - 301n, h - 812n, h - 1324n, h - 1837n);
  hs.push(1000n, 512n, 511n, 1n, 0n);
  return hs;
}

/** Whether two word arrays hold the same words (Buffer.equals: toEqual takes seconds over tens of thousands). */
const sameWords = (x: Uint32Array, y: Uint32Array): boolean =>
  Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength));

describe("the wasm-simd kernel's threshold", () => {
  it('takes every new minimum of hashes descending through every scale from P − 1 to 0', () => {
    const { a, b, words } = family(31);
    const hs = descendingHashes();
    expect(hs.every((h, i) => i === 0 || h < hs[i - 1])).toBe(true);
    for (const slot of SLOTS) {
      // x with h = (a·x + b) mod P in this slot; document j holds the first j + 1, so its minimum there is hs[j]:
      // a threshold too low at any earlier minimum skips hs[j] and leaves a larger one.
      const inverse = modPow(a[slot], P - 2n);
      const xs = hs.map((h) => ((((h - b[slot]) % P) + P) * inverse) % P);
      const docs = xs.map((_, j) => bigIntsToPairs(xs.slice(0, j + 1)));
      const batch = pack(docs);
      const got = loadWasmSignKernel('wasm-simd').sign(words, batch);
      const minima = pairsToBigInts(got).filter((_, i) => i % K === slot);
      expect(minima).toEqual(hs);
      expect(sameWords(got, signBatchOnCpu(words, batch))).toBe(true);
    }
  });

  it('gives P − 1 where it is the only hash, and all-ones for an empty document', () => {
    const { a, b, words } = family(37);
    // One document per slot of one, two, three and four copies of the x whose hash there is P − 1: the largest
    // minimum, at every place in a step of three shingles.
    const docs = SLOTS.flatMap((slot) => {
      const x = (((P - 1n - b[slot] + P) % P) * modPow(a[slot], P - 2n)) % P;
      return [1, 2, 3, 4].map((n) => bigIntsToPairs(Array.from({ length: n }, () => x)));
    });
    docs.push(new Uint32Array(0));
    const batch = pack(docs);
    const got = loadWasmSignKernel('wasm-simd').sign(words, batch);
    const values = pairsToBigInts(got);
    SLOTS.forEach((slot, s) => {
      for (let n = 0; n < 4; n++) expect(values[(4 * s + n) * K + slot]).toBe(P - 1n);
    });
    expect(values.slice(-K)).toEqual(Array.from({ length: K }, () => (1n << 64n) - 1n));
    expect(sameWords(got, signBatchOnCpu(words, batch))).toBe(true);
  });
});
