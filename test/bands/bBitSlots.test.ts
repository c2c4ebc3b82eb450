// b-bit slots: the documented row layout (read back byte by byte, as NumPy's
// unpackbits(bitorder='little') would), band keys of the full values (so
// candidates do not change with b), and Li and König's corrected estimate.
import { describe, expect, it } from 'vitest';
import {
  bBitSlot,
  liKonigEstimate,
  packBBitRows,
  packedSlotWords,
  toStoredRows,
  type BBitSlotBits,
} from '../../src/bands/bBitSlots.js';
import { bandKey } from '../../src/bands/bandKeys.js';
import { findCandidates } from '../../src/bands/candidates.js';
import { isEmptySignature, signatureAgreement, signatureMatrix } from '../../src/bands/signatureMatrix.js';
import { EMPTY_SLOT_WORD } from '../../src/signatures/backend.js';
import { ophSignatureRef, P, randomBelow, rng, signatureRef, bigIntsToPairs } from '../support/reference.js';

const BITS: BBitSlotBits[] = [1, 2, 4, 8, 16];

/** documents·k (lo, hi) pairs from BigInt slot values. */
const pairsOf = (rows: bigint[][]): Uint32Array => bigIntsToPairs(rows.flat());

/** Sets of `size` elements with Jaccard similarity `j` to a base set, plus the base. */
function similarSets(next: () => number, size: number, j: number): [bigint[], bigint[]] {
  // |A ∩ B| = c, |A| = |B| = size: J = c / (2·size − c), so c = 2·size·J / (1 + J).
  const common = Math.round((2 * size * j) / (1 + j));
  const shared = Array.from({ length: common }, () => randomBelow(next, P));
  const own = (): bigint[] => Array.from({ length: size - common }, () => randomBelow(next, P));
  return [
    [...shared, ...own()],
    [...shared, ...own()],
  ];
}

describe('b-bit rows', () => {
  const next = rng(21);
  const k = 37; // not a multiple of 32/b: the last word has padding
  const layout = { bands: 6, rows: 6 };
  const values = Array.from({ length: 5 }, () => Array.from({ length: k }, () => randomBelow(next, P)));
  values.push(new Array<bigint>(k).fill((1n << 64n) - 1n)); // an empty document
  const pairs = pairsOf(values);

  it('hold band keys, then slot i in bits [i·b, i·b + b) of the little-endian bit stream, padding 0', () => {
    for (const b of BITS) {
      const rows = packBBitRows(pairs, k, b, layout);
      const width = 2 * layout.bands + Math.ceil((k * b) / 32);
      expect(rows.length).toBe(values.length * width);
      const bytes = new Uint8Array(rows.buffer);
      for (let d = 0; d < 5; d++) {
        const slotBytes = 4 * (d * width + 2 * layout.bands);
        const bit = (n: number): number => (bytes[slotBytes + (n >> 3)] >> (n & 7)) & 1; // np.unpackbits(..., bitorder='little')
        for (let i = 0; i < k; i++) {
          let v = 0n;
          for (let t = 0; t < b; t++) v |= BigInt(bit(i * b + t)) << BigInt(t);
          expect(v).toBe(values[d][i] & ((1n << BigInt(b)) - 1n));
        }
        for (let n = k * b; n < 32 * packedSlotWords(k, b); n++) expect(bit(n)).toBe(0);
        const full = signatureMatrix(pairs, k, 64);
        const key = new Uint32Array(2);
        for (let band = 0; band < layout.bands; band++) {
          bandKey(full, d, band, layout, key, 0);
          expect([...rows.subarray(d * width + 2 * band, d * width + 2 * band + 2)]).toEqual([...key]);
        }
      }
      const m = signatureMatrix(rows, k, b, layout);
      expect(bBitSlot(m, 2, 5)).toBe(Number(values[2][5] & ((1n << BigInt(b)) - 1n)));
      expect(rows.subarray(5 * width).every((w) => w === EMPTY_SLOT_WORD)).toBe(true);
      expect([0, 1, 2, 3, 4, 5].map((d) => isEmptySignature(m, d))).toEqual([false, false, false, false, false, true]);
    }
  });

  it('refuse a matrix without its band layout and banding with another one', () => {
    const rows = toStoredRows(pairs, k, 8, layout);
    expect(() => signatureMatrix(rows, k, 8)).toThrow(/need their stored band keys/);
    const m = signatureMatrix(rows, k, 8, layout);
    expect(() => findCandidates(m, { bands: 4, rows: 9 })).toThrow(/store band keys for 6 bands × 6 rows/);
  });

  it('give the same candidate pairs as the full 64-bit signatures, whatever b', () => {
    const r = rng(5);
    const k2 = 64;
    const docs: bigint[][] = [];
    for (let g = 0; g < 30; g++) {
      const [a, b] = similarSets(r, 60, 0.5 + 0.5 * r());
      docs.push(signatureRef(a, k2, 9n), signatureRef(b, k2, 9n));
    }
    const full = pairsOf(docs);
    const lsh = { bands: 8, rows: 8 };
    const want = findCandidates(signatureMatrix(full, k2, 64), lsh);
    expect(want.a.length).toBeGreaterThan(10);
    for (const b of BITS) {
      const got = findCandidates(signatureMatrix(toStoredRows(full, k2, b, lsh), k2, b, lsh), lsh);
      expect([...got.a]).toEqual([...want.a]);
      expect([...got.b]).toEqual([...want.b]);
    }
  });
});

describe("Li and König's estimator", () => {
  it('is (E − 2^−b)/(1 − 2^−b) for a huge universe, clipped to [0, 1], and the general formula otherwise', () => {
    expect(liKonigEstimate(1, 1)).toBe(1);
    expect(liKonigEstimate(0.5, 1)).toBe(0);
    expect(liKonigEstimate(0.9, 1)).toBeCloseTo(0.8, 12);
    expect(liKonigEstimate(0.8 + 0.2 / 256, 8)).toBeCloseTo(0.8, 12);
    expect(liKonigEstimate(0.05, 4)).toBe(0); // below chance (1/16)
    // Tiny r is the limit; a dense universe (r = 1/2, b = 1): A = (1/2)(1/2) / (1 − 1/4) = 1/3.
    expect(liKonigEstimate(0.9, 1, 1e-6, 1e-6)).toBeCloseTo(0.8, 5);
    expect(liKonigEstimate(0.6, 1, 0.5, 0.5)).toBeCloseTo((0.6 - 1 / 3) / (1 - 1 / 3), 12);
  });

  it('is unbiased on b-bit OPH and classic slots of sets with J = 0.8, where the raw agreement is not', () => {
    const next = rng(8);
    const k = 256;
    const layout = { bands: 1, rows: 1 };
    for (const sign of [signatureRef, ophSignatureRef]) {
      const sums = new Map<number, { corrected: number; raw: number }>(BITS.map((b) => [b, { corrected: 0, raw: 0 }]));
      const trials = 12;
      for (let t = 0; t < trials; t++) {
        const [a, b] = similarSets(next, 400, 0.8);
        const pairs = pairsOf([sign(a, k, BigInt(t)), sign(b, k, BigInt(t))]);
        for (const bits of BITS) {
          const m = signatureMatrix(toStoredRows(pairs, k, bits, layout), k, bits, layout);
          const s = sums.get(bits)!;
          s.corrected += signatureAgreement(m, 0, 1) / trials;
          let equal = 0;
          for (let i = 0; i < k; i++) if (bBitSlot(m, 0, i) === bBitSlot(m, 1, i)) equal++;
          s.raw += equal / k / trials;
        }
      }
      // Standard error of the mean ≈ √(0.16·(1 + 2^−b·…)/(256·12)) < 0.012 for b = 1.
      for (const [bits, { corrected, raw }] of sums) {
        expect(Math.abs(corrected - 0.8), `${sign.name} b=${bits} corrected ${corrected}`).toBeLessThan(0.035);
        if (bits === 1) expect(raw).toBeGreaterThan(0.87); // ≈ 0.8 + 0.2/2
      }
    }
  });
});
