import { describe, expect, it } from 'vitest';
import { signatureAgreement } from '../../src/bands/signatureMatrix.js';
import { estimateBounds } from '../../src/verify/estimateBounds.js';
import { clusterVerified } from '../../src/clusters/nearDuplicates.js';
import {
  countDecision,
  decideEqualSlots,
  decidePair,
  estimateVerdict,
  isAccepted,
  noDecisions,
  pairRule,
  type PairDecision,
} from '../../src/verify/pairDecision.js';
import { plantedCorpus, similarity } from '../support/planted.js';

const corpus = plantedCorpus(31, 8, [1, 3, 6, 10, 15, 22, 30]);
const n = corpus.texts.length;
const exact = (a: number, b: number): number => similarity(corpus, a, b);

describe('decidePair', () => {
  it("SimHash (angular): beyond the threshold's Hamming distance rejected in every mode, within it decided by the mode", () => {
    const h = 3;
    const t = (64 - h) / 64;
    const shape = { k: 64, slotBits: 32 } as const;
    let calls = 0;
    const identical = { similarity: () => (calls++, 1) }; // exact cosine 1: only the Hamming limit can reject
    const far = { similarity: () => 0.5 };
    for (const verify of ['none', 'estimate', 'exact', 'hybrid'] as const) {
      const rule = pairRule(verify, t, shape, 0.001, 'angular');
      expect(decideEqualSlots(rule, shape, 64 - h - 1, 0, 1, identical)).toBe('estimate rejected');
      expect(isAccepted(decideEqualSlots(rule, shape, 64 - h, 0, 1, identical))).toBe(true);
      const within = decideEqualSlots(rule, shape, 64 - h, 0, 1, far);
      expect(isAccepted(within)).toBe(verify === 'none' || verify === 'estimate');
    }
    expect(calls).toBe(2); // exact and hybrid, within h only
    // Jaccard keeps its modes: exact accepts by the sets whatever the slots say.
    const jaccard = pairRule('exact', t, shape);
    expect(decideEqualSlots(jaccard, shape, 0, 0, 1, identical)).toBe('exact accepted');
  });

  it('hybrid at t − δ: the estimate outside the margin, exact Jaccard inside; without sets inside, it fails and counts', () => {
    const t = 0.7;
    const bounds = estimateBounds(128, t, 0.001);
    const rule = pairRule('hybrid', t, corpus.signatures);
    let exactCalls = 0;
    const sighted = { similarity: (a: number, b: number) => (exactCalls++, exact(a, b)) };
    const blind = { similarity: exact, known: () => false };
    const hybridCounts = noDecisions();
    const blindCounts = noDecisions();
    let inside = 0;
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const x = Math.round(signatureAgreement(corpus.signatures, a, b) * 128);
        const isInside = x > bounds.rejectUpTo && x < bounds.acceptFrom;
        const expected = isInside ? exact(a, b) >= t : x >= bounds.acceptFrom;
        const calls = exactCalls;
        const decision = decidePair(rule, corpus.signatures, a, b, sighted);
        expect(isAccepted(decision)).toBe(expected);
        expect(exactCalls - calls).toBe(isInside ? 1 : 0); // exact Jaccard only inside the margin
        expect(estimateVerdict(rule, corpus.signatures, a, b)).toBe(
          isInside ? 'exact' : expected ? 'accept' : 'reject',
        );
        countDecision(hybridCounts, decision);
        const without = decidePair(rule, corpus.signatures, a, b, blind);
        expect(isAccepted(without)).toBe(isInside ? false : expected);
        countDecision(blindCounts, without);
        if (isInside) inside++;
      }
    }
    expect(inside).toBeGreaterThan(20);
    expect(blindCounts.undecided).toBe(inside);
    expect(hybridCounts.exactAccepted + hybridCounts.exactRejected).toBe(inside);
  });

  it('past the memory limit the estimate decides at the threshold, counted apart; without sets at all exact refuses', () => {
    const t = 0.7;
    const rule = pairRule('hybrid', t, corpus.signatures);
    const counts = noDecisions();
    let inside = 0;
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const decision: PairDecision = decidePair(rule, corpus.signatures, a, b, {
          similarity: exact,
          known: () => false,
          missingSets: 'estimate',
        });
        countDecision(counts, decision);
        if (estimateVerdict(rule, corpus.signatures, a, b) !== 'exact') continue;
        inside++;
        expect(isAccepted(decision)).toBe(signatureAgreement(corpus.signatures, a, b) >= t);
      }
    }
    expect(counts.estimatePastMemoryLimit).toBe(inside);
    expect(counts.undecided).toBe(0);
    expect(counts.estimateAccepted + counts.estimateRejected).toBe((n * (n - 1)) / 2);
    expect(() => decidePair(pairRule('exact', t, corpus.signatures), corpus.signatures, 0, 1)).toThrow(
      /exact verification needs the shingle sets/,
    );
    expect(isAccepted(decidePair(pairRule('none', t, corpus.signatures), corpus.signatures, 0, 1))).toBe(true);
  });

  it('the cluster check never removes a member it could not verify: missing sets keep it', () => {
    const all = { a: [] as number[], b: [] as number[] };
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (exact(a, b) >= 0.5) all.a.push(a), all.b.push(b);
    const pairs = { a: Uint32Array.from(all.a), b: Uint32Array.from(all.b) };
    const options = {
      threshold: 0.8,
      verify: 'hybrid',
      clusterCheck: 'representative',
      compare: (a: number, b: number) => a - b,
      exactSimilarity: exact,
    } as const;
    const blind = clusterVerified(corpus.signatures, pairs, { ...options, known: () => false });
    const bounds = estimateBounds(128, 0.7, 0.001);
    for (let d = 0; d < n; d++) {
      const rep = blind.representative[d];
      if (rep === d) continue;
      // Removed without sets: only where the estimate alone was sure at t − δ.
      expect(Math.round(signatureAgreement(corpus.signatures, rep, d) * 128)).toBeGreaterThanOrEqual(bounds.acceptFrom);
    }
    expect(blind.checkDecided.undecided).toBeGreaterThan(0);
    const sighted = clusterVerified(corpus.signatures, pairs, options);
    expect(sighted.checkDecided.undecided).toBe(0);
    for (let d = 0; d < n; d++)
      if (sighted.representative[d] !== d)
        expect(
          exact(d, sighted.representative[d]) >= 0.7 ||
            Math.round(signatureAgreement(corpus.signatures, sighted.representative[d], d) * 128) >= bounds.acceptFrom,
        ).toBe(true);
  });
});
