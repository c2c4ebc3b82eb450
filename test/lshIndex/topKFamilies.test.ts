/**
 * Top-K among families of near-identical documents (issue 39): the answer is
 * the true top K by exact Jaccard (ties equal), where the estimate's error
 * (±0.02 at J ≈ 0.93 with 128 slots) is larger than the gaps between them.
 * The truth is brute force on word 5-gram string sets (queryCorpus.ts).
 */
import { describe, expect, it } from 'vitest';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import type { QueryResult } from '../../src/lshIndex/types.js';
import { cutCopies, familyCorpus, jaccard, shingles, windowCopies, type Doc } from './queryCorpus.js';

async function indexOf(docs: readonly Doc[]) {
  const index = createMemoryIndex({ signer: inlineIndexSigner(resolveParameters({})) });
  await index.add(docs, { all: true });
  return index;
}

/** Each query's exact Jaccard with every indexed document, by id. */
function truthOf(indexed: readonly Doc[], queries: readonly string[]): Map<string, number>[] {
  const sets = indexed.map((d) => shingles(d.text));
  return queries.map((q) => {
    const s = shingles(q);
    return new Map(indexed.map((d, i) => [d.id, jaccard(s, sets[i])]));
  });
}

/** The K best values of a query's truth, best first. */
const bestValues = (truth: Map<string, number>, k: number): number[] =>
  [...truth.values()].sort((a, b) => b - a).slice(0, k);

/** Per query, whether its answer's true values are the true top K's (ties equal), and that each `exact` is right. */
function rightAnswers(results: readonly QueryResult[], truth: readonly Map<string, number>[], k: number): number {
  let right = 0;
  results.forEach((r, q) => {
    const values = r.matches.map((m) => truth[q].get(m.id)!);
    r.matches.forEach((m, i) => expect(m.exact).toBeCloseTo(values[i], 5));
    if (
      JSON.stringify(values.map((v) => v.toFixed(9))) ===
      JSON.stringify(bestValues(truth[q], k).map((v) => v.toFixed(9)))
    )
      right++;
  });
  return right;
}

describe('top-K in dense families (issue 39)', () => {
  it('the issue’s case: 15 documents at 0.9415 and 400 at 0.9302 per query; top-1 and top-10 right in every query', async () => {
    const corpus = familyCorpus(1, 100, 10);
    expect(corpus.indexed.length).toBe(4150);
    const index = await indexOf(corpus.indexed);
    const texts = corpus.queries.map((q) => q.text);
    const truth = truthOf(corpus.indexed, texts);
    // The corpus is the issue's: 15 at the top value, 400 just below, per query.
    const counts = truth.map((t) => [...t.values()].filter((j) => j > 0.9).length);
    expect(counts).toEqual(Array(10).fill(415));
    expect(rightAnswers(await index.query(texts, { top: 1 }), truth, 1)).toBe(10);
    expect(rightAnswers(await index.query(texts, { top: 10 }), truth, 10)).toBe(10);
  });

  it('with 30 lower texts in 20 queries (the issue’s second case): every top-1 and top-10 right', async () => {
    const corpus = familyCorpus(2, 30, 20);
    const index = await indexOf(corpus.indexed);
    const texts = corpus.queries.map((q) => q.text);
    const truth = truthOf(corpus.indexed, texts);
    expect(rightAnswers(await index.query(texts, { top: 1 }), truth, 1)).toBe(20);
    expect(rightAnswers(await index.query(texts, { top: 10 }), truth, 10)).toBe(20);
  });

  it('1,000 documents at 0.001 steps apart, from 1 down: the true top 1, 10 and 100, in order', async () => {
    const corpus = windowCopies(
      5,
      1000,
      Array.from({ length: 1000 }, (_, i) => 1000 - i),
    );
    const index = await indexOf(corpus.indexed);
    const [truth] = truthOf(corpus.indexed, [corpus.query]);
    expect(bestValues(truth, 3)).toEqual([1, 0.999, 0.998]);
    for (const k of [1, 10, 100]) {
      const [result] = await index.query([corpus.query], { top: k });
      expect(result.matches.map((m) => Number(m.id))).toEqual(Array.from({ length: k }, (_, i) => i));
    }
  });

  it('1,000 documents 0.001 apart within the estimate’s error (20 each at 0.950 … 0.901): the true top 1, 10, 100', async () => {
    const corpus = cutCopies(
      6,
      Array.from({ length: 1000 }, (_, i) => 26 + Math.floor(i / 20)),
    );
    const index = await indexOf(corpus.indexed);
    const truth = truthOf(corpus.indexed, [corpus.query]);
    expect(bestValues(truth[0], 21).slice(19)).toEqual([0.95, 0.949]);
    for (const k of [1, 10, 100]) expect(rightAnswers(await index.query([corpus.query], { top: k }), truth, k)).toBe(1);
  });

  it('without stored sets, ranks by the estimate and still returns K documents of the family', async () => {
    const corpus = familyCorpus(1, 100, 3);
    const index = createMemoryIndex({
      verify: 'estimate',
      storeSets: false,
      signer: inlineIndexSigner(resolveParameters({ verify: 'estimate', storeSets: false })),
    });
    await index.add(corpus.indexed, { all: true });
    for (const r of await index.query(
      corpus.queries.map((q) => q.text),
      { top: 10 },
    )) {
      expect(r.matches).toHaveLength(10);
      for (const m of r.matches) expect(m.similarity).toBeGreaterThan(0.8);
    }
  });
});
