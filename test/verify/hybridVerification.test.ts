// Hybrid verification on planted near-duplicates: exact Jaccard decides exactly the pairs inside the
// estimate's margin, the estimate the others, and the result is the exact one up to the stated error rate.
import { describe, expect, it } from 'vitest';
import { findCandidates } from '../../src/bands/candidates.js';
import { signatureAgreement } from '../../src/bands/signatureMatrix.js';
import { estimateBounds } from '../../src/verify/estimateBounds.js';
import { verifyPairs } from '../../src/verify/verification.js';
import { plantedCorpus, similarity } from '../support/planted.js';

const corpus = plantedCorpus(77, 30, [1, 2, 3, 4, 5, 6, 8, 10, 14, 20]);
const K = 128;
const threshold = 0.8;

describe('hybrid verification', () => {
  const candidates = findCandidates(corpus.signatures, { bands: 32, rows: 4 });
  const exact = (a: number, b: number): number => similarity(corpus, a, b);
  const bounds = estimateBounds(K, threshold, 0.001);
  const asKey = (a: number, b: number): number => a * corpus.texts.length + b;

  it('equals exact verification inside the margin and estimate verification outside it', () => {
    let calls = 0;
    const hybrid = verifyPairs(candidates, {
      verify: 'hybrid',
      threshold,
      signatures: corpus.signatures,
      exactSimilarity: (a, b) => (calls++, exact(a, b)),
    });
    const kept = new Set(Array.from(hybrid.a, (a, i) => asKey(a, hybrid.b[i])));
    let inside = 0;
    let outsideAccepted = 0;
    for (let i = 0; i < candidates.a.length; i++) {
      const a = candidates.a[i];
      const b = candidates.b[i];
      const agreeing = Math.round(signatureAgreement(corpus.signatures, a, b) * K);
      const expected =
        agreeing >= bounds.acceptFrom ? true : agreeing <= bounds.rejectUpTo ? false : exact(a, b) >= threshold;
      if (agreeing > bounds.rejectUpTo && agreeing < bounds.acceptFrom) inside++;
      else if (agreeing >= bounds.acceptFrom) outsideAccepted++;
      expect(kept.has(asKey(a, b))).toBe(expected);
    }
    // The test has power: pairs on both sides of the margin and inside it.
    expect(inside).toBeGreaterThan(50);
    expect(outsideAccepted).toBeGreaterThan(50);
    expect(calls).toBe(inside); // exact Jaccard only inside the margin
    const d = hybrid.decided;
    expect(d.exactAccepted + d.exactRejected).toBe(inside);
    expect(d.estimateAccepted).toBe(outsideAccepted);
    expect(d.estimateAccepted + d.estimateRejected + d.exactAccepted + d.exactRejected).toBe(candidates.a.length);
    // exact Jaccard reported where computed (the decided-inside pairs), NaN where the estimate decided.
    for (let i = 0; i < hybrid.a.length; i++) {
      const agreeing = Math.round(hybrid.estimate[i] * K);
      if (agreeing >= bounds.acceptFrom) expect(hybrid.exact![i]).toBeNaN();
      else expect(hybrid.exact![i]).toBe(exact(hybrid.a[i], hybrid.b[i]));
    }
  });

  it('disagrees with exact verification on far fewer pairs than the estimate does', () => {
    const truth = verifyPairs(candidates, {
      verify: 'exact',
      threshold,
      signatures: corpus.signatures,
      exactSimilarity: exact,
    });
    const truthKeys = new Set(Array.from(truth.a, (a, i) => asKey(a, truth.b[i])));
    const wrong = (mode: 'estimate' | 'hybrid'): number => {
      const v = verifyPairs(candidates, {
        verify: mode,
        threshold,
        signatures: corpus.signatures,
        exactSimilarity: exact,
      });
      const keys = new Set(Array.from(v.a, (a, i) => asKey(a, v.b[i])));
      let n = 0;
      for (const key of keys) if (!truthKeys.has(key)) n++;
      for (const key of truthKeys) if (!keys.has(key)) n++;
      return n;
    };
    const estimateWrong = wrong('estimate');
    expect(estimateWrong).toBeGreaterThan(5); // the coin flips near t that hybrid is for
    // At α = 0.001 per side, a few hundred candidates give an expected error well below one pair.
    expect(wrong('hybrid')).toBeLessThanOrEqual(1);
  });

  it('needs the shingle sets', () => {
    expect(() => verifyPairs(candidates, { verify: 'hybrid', threshold, signatures: corpus.signatures })).toThrow(
      /shingle sets/,
    );
  });
});
