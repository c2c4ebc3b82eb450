/**
 * A simhash index (scheme simhash, src/lshIndex/simhashTopK.ts): its parameters come from maxHamming alone (Manku's
 * block tables and the threshold 1 − h / 64), what contradicts them is refused; adds decide by Hamming distance and
 * the exact angle (reported as exactAngular measures it); top-K answers equal brute force — by exact angle where sets
 * are stored, by Hamming distance where not — and containment, a MinHash query, is refused.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { parameterDifferences, resolveParameters, type IndexOptions } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { exactAngular } from '../../src/verify/exactJaccard.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { plantedCorpus } from '../support/planted.js';

const memoryIndex = (options: IndexOptions) =>
  createMemoryIndex({ ...options, signer: inlineIndexSigner(resolveParameters(options)) });

// Families of 600-word texts with 1 to 40 words replaced: Hamming distances from 0 to well past 8.
const corpus = plantedCorpus(41, 12, [1, 2, 3, 5, 8, 12, 20, 40], 600, 64);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
const position = new Map(docs.map((d, i) => [d.id, i]));
/** Queries: a document of each family with one more word replaced (not indexed as such). */
const queries = corpus.texts.filter((_, i) => i % 9 === 4).map((text) => text.replace(/^(\S+ \S+ )\S+/, '$1zzzz'));

describe('simhash index parameters', () => {
  it("come from maxHamming: Manku's block tables (simhashBands.ts), threshold 1 − h / 64, k 64", () => {
    const p = resolveParameters({ scheme: 'simhash' });
    expect([p.k, p.bands, p.rows, p.threshold, p.maxHamming, p.slotBits]).toEqual([64, 10, 26, 61 / 64, 3, 32]);
    expect(resolveParameters({ scheme: 'simhash', slotBits: 64 }).slotBits).toBe(64);
    const q = resolveParameters({ scheme: 'simhash', maxHamming: 8, threshold: 56 / 64, lsh: { bands: 9, rows: 8 } });
    expect([q.bands, q.rows, q.threshold, q.maxHamming]).toEqual([9, 8, 56 / 64, 8]);
    expect(resolveParameters({}).maxHamming).toBeUndefined();
  });

  it('refuses a threshold or banding maxHamming does not imply, and maxHamming without simhash', () => {
    expect(() => resolveParameters({ scheme: 'simhash', threshold: 0.9 })).toThrow(/decides at Hamming ≤ maxHamming/);
    expect(() => resolveParameters({ scheme: 'simhash', lsh: { bands: 8, rows: 8 } })).toThrow(/bands by maxHamming/);
    expect(() => resolveParameters({ maxHamming: 4 })).toThrow(/maxHamming applies to scheme simhash only/);
  });

  it('names another Hamming distance or scheme as a difference', () => {
    const p = resolveParameters({ scheme: 'simhash', maxHamming: 4 });
    expect(parameterDifferences(p, { maxHamming: 4 })).toEqual([]);
    expect(parameterDifferences(p, { maxHamming: 6 })).toEqual(
      expect.arrayContaining(['maxHamming: 4 (index) vs 6', 'bands: 15 (index) vs 7']),
    );
    expect(parameterDifferences(p, { scheme: 'classic' })[0]).toMatch(/^scheme: /);
    // Between MinHash schemes the index's own threshold and banding stay what is compared.
    const classic = resolveParameters({ threshold: 0.7 });
    expect(parameterDifferences(classic, { scheme: 'oph' })[0]).toMatch(/^scheme: /);
    expect(parameterDifferences(classic, { scheme: 'oph' })).toHaveLength(1);
  });
});

describe('simhash index add and query', () => {
  it('adds: a match is within the Hamming margin and, where measured, its exact angle is exactAngular', async () => {
    for (const verify of ['exact', 'hybrid', 'estimate'] as const) {
      const index = memoryIndex({ scheme: 'simhash', maxHamming: 6, verify });
      const t = 58 / 64;
      const result = await index.add(docs);
      const matched = result.decisions.filter((d) => d.matches.length > 0);
      expect(matched.length).toBeGreaterThan(12);
      for (const d of matched) {
        const i = position.get(d.id)!;
        for (const m of d.matches) {
          const j = position.get(m.id)!;
          expect(corpus.family[j]).toBe(corpus.family[i]);
          if (m.exact !== undefined) expect(m.exact).toBe(exactAngular(corpus.shingles[i], corpus.shingles[j]));
          if (verify === 'exact') expect(m.exact).toBeGreaterThanOrEqual(t);
          if (verify === 'estimate') expect(m.similarity).toBeGreaterThanOrEqual(t);
        }
      }
    }
  });

  it('top K with stored sets: the K best by exact angle among every indexed document sharing a shingle', async () => {
    const index = memoryIndex({ scheme: 'simhash' });
    await index.add(docs, { all: true });
    const results = await index.query(queries, { top: 5 });
    const signed = await index.query(queries, { top: docs.length, rerank: 'estimate' });
    queries.forEach((q, n) => {
      const got = results[n].matches;
      const querySet = shingleDocument(q);
      const truth = docs
        .map((d, i) => ({ id: d.id, exact: exactAngular(querySet, corpus.shingles[i]) }))
        .filter((m) => m.exact > 0.5)
        .sort((a, b) => b.exact - a.exact);
      expect(got.map((m) => m.exact)).toEqual(truth.slice(0, 5).map((m) => m.exact));
      // Each answer's estimate is its 1 − Hamming / 64, as the estimate-ranked answer of every document says.
      const estimates = new Map(signed[n].matches.map((m) => [m.id, m.similarity]));
      for (const m of got) expect(m.similarity).toBe(estimates.get(m.id));
    });
  });

  it('top K by estimate: the K nearest fingerprints, and containment is refused', async () => {
    const index = memoryIndex({ scheme: 'simhash', storeSets: false, verify: 'estimate' });
    await index.add(docs, { all: true });
    const all = await index.query(queries, { top: docs.length });
    const top = await index.query(queries, { top: 7 });
    queries.forEach((_, n) => {
      expect(all[n].matches).toHaveLength(docs.length); // every row is met: a full scan of the fingerprints
      const best = all[n].matches.map((m) => m.similarity);
      expect(best).toEqual([...best].sort((a, b) => b - a));
      expect(top[n].matches.map((m) => m.similarity)).toEqual(best.slice(0, 7));
      for (const m of top[n].matches) expect(Number.isInteger(m.similarity * 64)).toBe(true);
    });
    await expect(index.query(queries, { containment: 0.8 })).rejects.toThrow(/containment .* simhash index/);
  });
});
