import { describe, expect, it } from 'vitest';
import { signatureMatrix } from '../../src/bands/signatureMatrix.js';
import { exactJaccard, verifyPairs } from '../../src/verify/verification.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { pairsToBigInts, rng, shinglesRef } from '../support/reference.js';

function jaccardRef(a: Set<bigint>, b: Set<bigint>): number {
  let common = 0;
  for (const x of a) if (b.has(x)) common++;
  const union = a.size + b.size - common;
  return union === 0 ? 0 : common / union;
}

describe('exactJaccard', () => {
  it('matches a BigInt set reference on texts with shared passages', () => {
    const next = rng(21);
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const text = (): string =>
      Array.from({ length: 40 + Math.floor(next() * 40) }, () => words[Math.floor(next() * 20)]).join(' ');
    for (let trial = 0; trial < 50; trial++) {
      const a = text();
      const b = next() < 0.5 ? a + ' ' + text() : text();
      const got = exactJaccard(shingleDocument(a), shingleDocument(b));
      expect(got).toBeCloseTo(jaccardRef(shinglesRef(a, 'word', 5), shinglesRef(b, 'word', 5)), 12);
    }
  });

  it('1 for equal sets, 0 for disjoint or empty ones, symmetric', () => {
    const s = shingleDocument('one two three four five six seven');
    const t = shingleDocument('eight nine ten eleven twelve');
    expect(exactJaccard(s, s)).toBe(1);
    expect(exactJaccard(s, t)).toBe(0);
    expect(exactJaccard(new Uint32Array(0), new Uint32Array(0))).toBe(0);
    const u = shingleDocument('one two three four five six seven eight');
    expect(exactJaccard(s, u)).toBe(exactJaccard(u, s));
    expect(new Set(pairsToBigInts(s)).size).toBe(3);
    expect(exactJaccard(s, u)).toBeCloseTo(3 / 4, 12);
  });
});

describe('verifyPairs', () => {
  // Three documents, k = 4: doc 1 agrees with doc 0 on 3 slots, doc 2 on 1 slot.
  const words = Uint32Array.of(1, 0, 2, 0, 3, 0, 4, 0, 1, 0, 2, 0, 3, 0, 9, 0, 1, 0, 8, 0, 8, 0, 8, 0);
  const m = signatureMatrix(words, 4);
  const candidates = { a: Uint32Array.of(0, 0), b: Uint32Array.of(1, 2) };

  it('estimate keeps pairs whose agreement reaches the threshold', () => {
    const v = verifyPairs(candidates, { verify: 'estimate', threshold: 0.75, signatures: m });
    expect(Array.from(v.b)).toEqual([1]);
    expect(Array.from(v.estimate)).toEqual([0.75]);
    expect(v.candidates).toBe(2);
    expect(v.exact).toBeUndefined();
  });

  it('none keeps every candidate; exact uses the given similarity', () => {
    expect(Array.from(verifyPairs(candidates, { verify: 'none', threshold: 0.75, signatures: m }).b)).toEqual([1, 2]);
    const v = verifyPairs(candidates, {
      verify: 'exact',
      threshold: 0.5,
      signatures: m,
      exactSimilarity: (_a, b) => (b === 2 ? 0.9 : 0.1),
    });
    expect(Array.from(v.b)).toEqual([2]);
    expect(Array.from(v.exact!)).toEqual([0.9]);
    expect(Array.from(v.estimate)).toEqual([0.25]);
    expect(() => verifyPairs(candidates, { verify: 'exact', threshold: 0.5, signatures: m })).toThrow(/shingle/);
  });
});
