import { describe, expect, it } from 'vitest';
import { signatureMatrix } from '../../src/bands/signatureMatrix.js';
import { findContamination } from '../../src/verify/decontaminate.js';
import { exactJaccard } from '../../src/verify/verification.js';
import { plantedCorpus } from '../support/planted.js';

describe('decontamination', () => {
  // 8 families of 11 documents; the reference set is the bases of families 0–2, one of them twice.
  const planted = plantedCorpus(77, 8, [1, 2, 3, 5, 7, 10, 14, 20, 28, 40]);
  const K = planted.signatures.k;
  const refDocs = [0, 11, 22, 22];
  const corpusDocs = planted.texts.map((_, d) => d).filter((d) => !refDocs.includes(d));
  const rows = (docs: number[]) => {
    const words = new Uint32Array(docs.length * K * 2);
    docs.forEach((d, i) => words.set(planted.signatures.words.subarray(d * K * 2, (d + 1) * K * 2), i * K * 2));
    return signatureMatrix(words, K);
  };
  const corpus = rows(corpusDocs);
  const reference = rows(refDocs);
  const original = (combined: number): number =>
    combined < corpusDocs.length ? corpusDocs[combined] : refDocs[combined - corpusDocs.length];
  const exact = (a: number, b: number): number =>
    exactJaccard(planted.shingles[original(a)], planted.shingles[original(b)]);

  it('finds the corpus documents near a reference document, naming the best reference and its similarity', () => {
    const threshold = 0.8;
    const result = findContamination(corpus, reference, {
      bands: 32,
      rows: 4,
      threshold,
      verify: 'exact',
      exactSimilarity: exact,
    });
    for (let i = 0; i < corpusDocs.length; i++) {
      const sims = refDocs.map((r) => exactJaccard(planted.shingles[corpusDocs[i]], planted.shingles[r]));
      const best = Math.max(...sims);
      if (result.match[i] >= 0) {
        expect(result.similarity[i]).toBe(sims[result.match[i]]);
        expect(result.similarity[i]).toBe(best);
        expect(result.match[i]).toBe(sims.indexOf(best)); // ties (the doubled base) go to the earliest reference
        expect(best).toBeGreaterThanOrEqual(threshold);
      } else {
        // With 32 bands of 4 rows, P(candidate) > 0.9999 at 0.85: anything that close must be found.
        expect(best).toBeLessThan(0.85);
      }
    }
    const matched = Array.from(result.match).filter((m) => m >= 0);
    expect(matched.length).toBeGreaterThanOrEqual(3 * 3); // ≥ 3 close variants per contaminated family
    expect(matched).not.toContain(3); // the second copy of base 22 never wins a tie
    // No document of the uncontaminated families matches.
    corpusDocs.forEach((d, i) => {
      if (planted.family[d] > 2) expect(result.match[i]).toBe(-1);
    });
  });

  it('never pairs reference documents with each other, nor corpus documents with each other', () => {
    const result = findContamination(corpus, reference, { bands: 32, rows: 4, threshold: 0.8, verify: 'none' });
    // With verify none every candidate counts: still only corpus × reference pairs exist, so candidates ≤ corpus × reference.
    expect(result.candidates).toBeLessThanOrEqual(corpusDocs.length * refDocs.length);
    expect(result.candidates).toBeGreaterThan(0);
  });
});
