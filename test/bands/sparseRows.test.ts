// Sparse matrices (the candidates' rows of spilled signatures) read like the dense matrix they came from.
import { describe, expect, it } from 'vitest';
import { bandKey } from '../../src/bands/bandKeys.js';
import { matrixBandKeys } from '../../src/bands/bandKeySource.js';
import { toStoredRows } from '../../src/bands/bBitSlots.js';
import { findCandidates } from '../../src/bands/candidates.js';
import {
  concatMatrices,
  equalSlots,
  isEmptySignature,
  rowWords,
  signatureMatrix,
  sparseMatrix,
  type SignatureMatrix,
  type SlotBits,
} from '../../src/bands/signatureMatrix.js';
import { randomU32, rng } from '../support/reference.js';

const K = 16;
const LAYOUT = { bands: 4, rows: 4 };

/** Signer-style rows: random slots, some documents sharing bands, document 3 empty. */
function signerRows(docs: number, seed: number): Uint32Array {
  const next = rng(seed);
  const pairs = new Uint32Array(docs * K * 2);
  for (let i = 0; i < pairs.length; i++) pairs[i] = i % 2 === 1 ? randomU32(next) & 0x1fffffff : randomU32(next);
  for (let d = 1; d < docs; d += 2) pairs.copyWithin(d * K * 2, (d - 1) * K * 2, (d - 1) * K * 2 + 8 * 2); // shares bands 0, 1
  pairs.fill(0xffffffff, 3 * K * 2, 4 * K * 2);
  return pairs;
}

/** The rows flagged in `keep` of `dense`, as a sparse matrix. */
function sparseOf(dense: SignatureMatrix, keep: (d: number) => boolean): SignatureMatrix {
  const width = rowWords(dense.k, dense.slotBits, dense.bands);
  const rowAt = new Int32Array(dense.count).fill(-1);
  const rows: number[] = [];
  for (let d = 0; d < dense.count; d++) {
    if (!keep(d)) continue;
    rowAt[d] = rows.length / width;
    rows.push(...dense.words.subarray(d * width, (d + 1) * width));
  }
  return sparseMatrix(signatureMatrix(Uint32Array.from(rows), dense.k, dense.slotBits, dense.bands), rowAt);
}

describe('sparse signature matrices', () => {
  for (const slotBits of [64, 32, 8] as SlotBits[]) {
    it(`read as the dense rows at ${slotBits}-bit slots: agreement, emptiness, band keys, candidates`, () => {
      const bands = slotBits === 8 ? LAYOUT : undefined;
      const dense = signatureMatrix(toStoredRows(signerRows(40, slotBits), K, slotBits, bands), K, slotBits, bands);
      const held = (d: number): boolean => d % 3 !== 2;
      const sparse = sparseOf(dense, held);
      expect(sparse.count).toBe(dense.count);
      const out = new Uint32Array(4);
      for (let a = 0; a < dense.count; a++) {
        if (!held(a)) {
          expect(() => equalSlots(sparse, a, 0)).toThrow(/not held/);
          continue;
        }
        expect(isEmptySignature(sparse, a)).toBe(isEmptySignature(dense, a));
        for (let band = 0; band < LAYOUT.bands; band++) {
          bandKey(dense, a, band, LAYOUT, out, 0);
          bandKey(sparse, a, band, LAYOUT, out, 2);
          expect([out[2], out[3]]).toEqual([out[0], out[1]]);
        }
        for (let b = 0; b < dense.count; b++)
          if (held(b)) expect(equalSlots(sparse, a, b)).toBe(equalSlots(dense, a, b));
      }
      const onlyHeld = Uint8Array.from({ length: dense.count }, (_, d) => (held(d) ? 1 : 0));
      const fromDense = findCandidates(dense, { ...LAYOUT, include: onlyHeld });
      expect(fromDense.a.length).toBeGreaterThan(0);
      expect(findCandidates(sparse, { ...LAYOUT, include: onlyHeld })).toEqual(fromDense);
      expect(findCandidates(matrixBandKeys(dense, LAYOUT), LAYOUT)).toEqual(findCandidates(dense, LAYOUT));
    });
  }

  it('concatenate with dense rows, renumbering the second matrix after the first', () => {
    const dense = signatureMatrix(signerRows(10, 1), K);
    const other = signatureMatrix(signerRows(6, 2), K);
    const sparse = sparseOf(dense, (d) => d >= 5);
    const both = concatMatrices(sparse, other);
    const whole = concatMatrices(dense, other);
    expect(both.count).toBe(16);
    for (let a = 5; a < 16; a++)
      for (let b = 5; b < 16; b++) expect(equalSlots(both, a, b)).toBe(equalSlots(whole, a, b));
    expect(() => equalSlots(both, 4, 5)).toThrow(/not held/);
  });
});
