// Recall and precision on planted near-duplicates, per similarity bin, against
// what the S-curve and the binomial law of signature agreement predict.
import { describe, expect, it } from 'vitest';
import { findCandidates } from '../../src/bands/candidates.js';
import { candidateProbability, optimalParams } from '../../src/bands/lshParams.js';
import { clusterVerified } from '../../src/clusters/nearDuplicates.js';
import { verifyPairs } from '../../src/verify/verification.js';
import { binomialTail, plantedCorpus, similarity } from '../support/planted.js';

// 40 families of a 200-word base and 10 variants with 1 … 40 words replaced: 440 documents,
// 96,580 pairs, of which 2,200 related ones spread over Jaccard 0.1 … 0.99 (≥ 80 per bin).
const corpus = plantedCorpus(2024, 40, [1, 2, 3, 5, 7, 10, 14, 20, 28, 40]);
const n = corpus.texts.length;
const K = 128;

interface Bin {
  pairs: number;
  found: number;
  expected: number;
  variance: number;
}

function binsOf(found: Set<number>, probability: (s: number) => number): Bin[] {
  const bins: Bin[] = Array.from({ length: 10 }, () => ({ pairs: 0, found: 0, expected: 0, variance: 0 }));
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const s = similarity(corpus, a, b);
      const bin = bins[Math.min(9, Math.floor(s * 10))];
      const p = probability(s);
      bin.pairs++;
      bin.expected += p;
      bin.variance += p * (1 - p);
      if (found.has(a * n + b)) bin.found++;
    }
  }
  return bins;
}

const keys = (pairs: { a: Uint32Array; b: Uint32Array }): Set<number> =>
  new Set(Array.from(pairs.a, (a, i) => a * n + pairs.b[i]));

function expectAsPredicted(bins: Bin[]): void {
  for (const bin of bins) {
    // 5σ of a sum of independent Bernoullis, plus slack: pairs sharing a document are mildly correlated.
    expect(Math.abs(bin.found - bin.expected)).toBeLessThanOrEqual(5 * Math.sqrt(bin.variance) + 3);
  }
  // Over all bins together the count is tighter, which catches a curve shifted by one row.
  const found = bins.reduce((sum, b) => sum + b.found, 0);
  const expected = bins.reduce((sum, b) => sum + b.expected, 0);
  const variance = bins.reduce((sum, b) => sum + b.variance, 0);
  expect(Math.abs(found - expected)).toBeLessThanOrEqual(4 * Math.sqrt(variance) + 3);
}

describe('planted near-duplicates', () => {
  it('the corpus spans the similarity range', () => {
    const bins = binsOf(new Set(), () => 0);
    for (let i = 1; i < 10; i++) expect(bins[i].pairs).toBeGreaterThanOrEqual(80);
  });

  for (const [label, threshold, params] of [
    ['optimized for t = 0.8', 0.8, optimalParams(0.8, K)],
    ['b = 20, r = 5 (t ≈ 0.55)', 0.5, { bands: 20, rows: 5 }],
  ] as const) {
    it(`candidate recall per bin follows the S-curve: ${label}`, () => {
      const candidates = findCandidates(corpus.signatures, params);
      const bins = binsOf(keys(candidates), (s) => candidateProbability(s, params.bands, params.rows));
      expectAsPredicted(bins);
      // The middle of the curve is where the test has power: there must be pairs there.
      const steep = bins.filter((b) => b.expected > 5 && b.expected < b.pairs - 5);
      expect(steep.length).toBeGreaterThan(0);
      void threshold;
    });
  }

  it('estimate verification: pairs pass as the binomial law of slot agreement predicts', () => {
    const threshold = 0.8;
    const params = { bands: 32, rows: 4 }; // a low curve so nearly every related pair is a candidate
    const candidates = findCandidates(corpus.signatures, params);
    const verified = verifyPairs(candidates, { verify: 'estimate', threshold, signatures: corpus.signatures });
    const need = Math.ceil(threshold * K - 1e-9);
    const bins = binsOf(
      keys(verified),
      (s) => candidateProbability(s, params.bands, params.rows) * binomialTail(K, s, need),
    );
    // Candidate and agreement events come from the same signature, so the product is an approximation;
    // near s ≈ 0.8 the agreement dominates (P(candidate) > 0.99 there).
    expectAsPredicted(bins.slice(5));
    // Few false positives: pairs with Jaccard below 0.7 essentially never pass.
    expect(bins.slice(0, 7).reduce((sum, b) => sum + b.found, 0)).toBeLessThanOrEqual(3);
  });

  it('exact verification: no pair below the threshold, every candidate above it', () => {
    const threshold = 0.8;
    const params = optimalParams(threshold, K);
    const candidates = findCandidates(corpus.signatures, params);
    const exact = (a: number, b: number): number => similarity(corpus, a, b);
    const verified = verifyPairs(candidates, {
      verify: 'exact',
      threshold,
      signatures: corpus.signatures,
      exactSimilarity: exact,
    });
    for (let i = 0; i < verified.a.length; i++)
      expect(exact(verified.a[i], verified.b[i])).toBeGreaterThanOrEqual(threshold);
    let aboveCandidates = 0;
    for (let i = 0; i < candidates.a.length; i++)
      if (exact(candidates.a[i], candidates.b[i]) >= threshold) aboveCandidates++;
    expect(verified.a.length).toBe(aboveCandidates);
  });

  it('clusters with the representative check: every member reaches the threshold against its representative', () => {
    const threshold = 0.7;
    const params = optimalParams(threshold, K, { falsePositive: 0.2, falseNegative: 0.8 });
    const exact = (a: number, b: number): number => similarity(corpus, a, b);
    const candidates = findCandidates(corpus.signatures, params);
    const verified = verifyPairs(candidates, {
      verify: 'exact',
      threshold,
      signatures: corpus.signatures,
      exactSimilarity: exact,
    });
    const clustering = clusterVerified(corpus.signatures, verified, {
      threshold,
      verify: 'exact',
      exactSimilarity: exact,
      clusterCheck: 'representative',
      compare: (a, b) => a - b,
      chainDelta: 0,
    });
    const rep = clustering.representative;
    let clustered = 0;
    for (let d = 0; d < n; d++) {
      if (rep[d] === d) continue;
      clustered++;
      expect(corpus.family[d]).toBe(corpus.family[rep[d]]);
      expect(exact(d, rep[d])).toBeGreaterThanOrEqual(threshold);
    }
    // Within a family, base and variants with ≤ 3 edits are ≥ 0.7 to the base: at least 3 per family are found.
    expect(clustered).toBeGreaterThanOrEqual(40 * 3);
  });
});
