import { describe, expect, it } from 'vitest';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters, type IndexOptions } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { missProbability, MISS_PROBABILITY, TOP_FLOOR } from '../../src/lshIndex/topK.js';
import { forestShape } from '../../src/lshIndex/forest.js';
import { jaccard, nearCorpus, recallAtK, shingles } from './queryCorpus.js';

const memoryIndex = (options: IndexOptions = {}) =>
  createMemoryIndex({ ...options, signer: inlineIndexSigner(resolveParameters(options)) });

/** The corpus indexed in `batches` adds (segments), its queries, and each query's exact Jaccard to every indexed document. */
async function indexed(options: IndexOptions, batches = 3) {
  const corpus = nearCorpus(33, 40, 12, 3);
  const index = memoryIndex(options);
  const docs = corpus.indexed.map((text, i) => ({ id: String(i), text }));
  const per = Math.ceil(docs.length / batches);
  for (let b = 0; b < batches; b++) await index.add(docs.slice(b * per, (b + 1) * per), { all: true });
  const sets = corpus.indexed.map((t) => shingles(t));
  const truth = corpus.queries.map((q) => {
    const s = shingles(q);
    return sets.map((x) => jaccard(s, x));
  });
  return { index, corpus, truth };
}

const ids = (results: readonly { matches: readonly { id: string }[] }[]) =>
  results.map((r) => r.matches.map((m) => Number(m.id)));

describe('top-K queries (LSH Forest)', () => {
  it('the descent stops at depth 2 for the floor with 32 trees, and the guarantee holds there', () => {
    const { trees } = forestShape(128);
    expect(trees).toBe(32);
    expect(missProbability(TOP_FLOOR, 2, trees)).toBeLessThanOrEqual(MISS_PROBABILITY);
    expect(missProbability(TOP_FLOOR, 3, trees)).toBeGreaterThan(MISS_PROBABILITY);
  });

  it('finds ≥ 0.95 of each query’s true 10 nearest at J ≥ 0.5 (brute force), where the band candidates do not', async () => {
    const { index, corpus, truth } = await indexed({});
    const top = await index.query(corpus.queries, { top: 10 });
    expect(recallAtK(truth, ids(top), 10, 0.5)).toBeGreaterThanOrEqual(0.95);
    expect(recallAtK(truth, ids(top), 1, 0.5)).toBeGreaterThanOrEqual(0.95);
    expect(recallAtK(truth, ids(top), 10, 0.3)).toBeGreaterThanOrEqual(0.9);
    // The threshold query's band candidates (tuned for J ≥ 0.8) miss many of them: the corpus can tell.
    const banded = await index.query(corpus.queries);
    expect(recallAtK(truth, ids(banded), 10, 0.5)).toBeLessThan(0.8);
    for (const r of top) expect(r.matches.length).toBeLessThanOrEqual(10);
  });

  it('reranks by exact Jaccard where sets are stored, and says both values', async () => {
    const { index, corpus, truth } = await indexed({});
    // The query whose fifth nearest is the most similar: the five are all above the floor.
    const fifth = truth.map((row) => [...row].sort((a, b) => b - a)[4]);
    const q = fifth.indexOf(Math.max(...fifth));
    expect(fifth[q]).toBeGreaterThanOrEqual(TOP_FLOOR);
    const [first] = await index.query([corpus.queries[q]], { top: 5 });
    const order = truth[q].map((j, i) => ({ j, i })).sort((a, b) => b.j - a.j);
    // The true five best (ties in either order), by exact Jaccard.
    expect(first.matches.map((m) => truth[q][Number(m.id)])).toEqual(order.slice(0, 5).map((x) => x.j));
    for (const m of first.matches) {
      expect(m.exact).toBeCloseTo(truth[q][Number(m.id)], 9);
      expect(Math.abs(m.similarity - m.exact!)).toBeLessThan(0.2);
    }
    const [estimated] = await index.query([corpus.queries[q]], { top: 5, rerank: 'estimate' });
    for (const m of estimated.matches) expect(m.exact).toBeUndefined();
  });

  it('works without stored sets (estimate), and refuses rerank exact there', async () => {
    const { index, corpus, truth } = await indexed({ verify: 'estimate', storeSets: false });
    const top = await index.query(corpus.queries, { top: 10 });
    expect(recallAtK(truth, ids(top), 10, 0.5)).toBeGreaterThanOrEqual(0.9);
    await expect(index.query(['a b c'], { top: 3, rerank: 'exact' })).rejects.toThrow(
      /rerank exact needs the shingle sets/,
    );
  });

  it('skips removed documents', async () => {
    const { index, corpus } = await indexed({});
    const [before] = await index.query([corpus.queries[0]], { top: 3 });
    await index.remove([before.matches[0].id]);
    const [after] = await index.query([corpus.queries[0]], { top: 3 });
    expect(after.matches.map((m) => m.id)).not.toContain(before.matches[0].id);
    expect(after.matches[0].id).toBe(before.matches[1].id);
  });

  it('refuses bad values through the options table', async () => {
    const index = memoryIndex();
    await expect(index.query(['x'], { top: 0 })).rejects.toThrow(/top/);
    await expect(index.query(['x'], { top: 1.5 })).rejects.toThrow(/top/);
    await expect(index.query(['x'], { containment: 0 })).rejects.toThrow(/containment/);
    await expect(index.query(['x'], { containment: 1.2 })).rejects.toThrow(/containment/);
    await expect(index.query(['x'], { top: 2, rerank: 'best' as 'exact' })).rejects.toThrow(/rerank/);
    await expect(index.query(['x'], { rerank: 'exact' })).rejects.toThrow(/rerank ranks the top K/);
    await expect(index.query(['x'], { tpo: 3 } as object)).rejects.toThrow(/no option "tpo"/);
  });
});
