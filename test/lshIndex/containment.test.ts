import { describe, expect, it } from 'vitest';
import { jaccardFloor, depthFor, containmentOf } from '../../src/lshIndex/containment.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters, type IndexOptions } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { common, plantedItems, shingles } from './queryCorpus.js';

const memoryIndex = (options: IndexOptions = {}) =>
  createMemoryIndex({ ...options, signer: inlineIndexSigner(resolveParameters(options)) });

/** Items of 60–150 words in documents of 100–500 words: the skew at which the forests' guarantee holds (t ≥ 0.09). */
async function planted(options: IndexOptions) {
  const corpus = plantedItems(7, { hosts: 150, perHost: 2, host: [100, 500], item: [60, 150], strays: 30 });
  const index = memoryIndex(options);
  await index.add(
    corpus.hosts.slice(0, 70).map((text, i) => ({ id: String(i), text })),
    { all: true },
  );
  await index.add(
    corpus.hosts.slice(70).map((text, i) => ({ id: String(i + 70), text })),
    { all: true },
  );
  const hostSets = corpus.hosts.map((h) => shingles(h));
  const truth = corpus.items.map((item) => {
    const q = shingles(item);
    return hostSets.map((x) => common(q, x) / q.size);
  });
  return { index, corpus, truth };
}

function score(truth: number[][], found: readonly (readonly number[])[], c: number) {
  let wanted = 0;
  let hit = 0;
  let wrong = 0;
  truth.forEach((row, q) => {
    const got = new Set(found[q]);
    row.forEach((x, i) => {
      if (x >= c) wanted++;
      if (x >= c && got.has(i)) hit++;
    });
    for (const i of got) if (row[i] < c) wrong++;
  });
  return { recall: hit / wanted, wanted, wrong };
}

describe('containment queries (LSH Ensemble over the forests)', () => {
  it('the partition depth follows the Jaccard floor of its largest set', () => {
    expect(jaccardFloor(0.8, 100, 100)).toBeCloseTo(80 / 120, 12);
    expect(depthFor(0.9, 32, 4)).toBe(4);
    expect(depthFor(0.1, 32, 4)).toBe(1);
    expect(depthFor(0.05, 32, 4)).toBe(0); // one slot is not enough: the sampled postings
    expect(containmentOf(0.5, 50, 100)).toBeCloseTo(1, 12); // Q ⊂ X: J = 50/100
  });

  it('finds ≥ 0.95 of the documents that contain ≥ 0.8 of an item (brute force), none that do not', async () => {
    const { index, corpus, truth } = await planted({});
    const results = await index.query(corpus.items, { containment: 0.8 });
    const found = results.map((r) => r.matches.map((m) => Number(m.id)));
    const { recall, wanted, wrong } = score(truth, found, 0.8);
    expect(wanted).toBeGreaterThan(200);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(wrong).toBe(0);
    for (const [q, r] of results.entries()) {
      for (const m of r.matches) {
        expect(m.exactContainment).toBeCloseTo(truth[q][Number(m.id)], 9);
        expect(m.containment).toBeGreaterThan(0);
      }
    }
    // The Jaccard threshold query misses them: an item is a small part of its host.
    const banded = (await index.query(corpus.items)).map((r) => r.matches.map((m) => Number(m.id)));
    expect(score(truth, banded, 0.8).recall).toBeLessThan(0.5);
  });

  it('finds short items in long documents through the sampled postings (no signature can: J ≈ 0.01)', async () => {
    const corpus = plantedItems(11, { hosts: 60, perHost: 2, host: [2000, 5000], item: [20, 40], strays: 10 });
    const index = memoryIndex({});
    await index.add(
      corpus.hosts.map((text, i) => ({ id: String(i), text })),
      { all: true },
    );
    const hostSets = corpus.hosts.map((h) => shingles(h));
    const truth = corpus.items.map((item) => {
      const q = shingles(item);
      return hostSets.map((x) => common(q, x) / q.size);
    });
    const found = (await index.query(corpus.items, { containment: 0.8 })).map((r) =>
      r.matches.map((m) => Number(m.id)),
    );
    const { recall, wanted, wrong } = score(truth, found, 0.8);
    expect(wanted).toBeGreaterThan(70);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(wrong).toBe(0);
    // Without stored sets only the signatures are left: the same corpus tells.
    const bare = memoryIndex({ verify: 'estimate', storeSets: false });
    await bare.add(
      corpus.hosts.map((text, i) => ({ id: String(i), text })),
      { all: true },
    );
    const estimated = (await bare.query(corpus.items, { containment: 0.8 })).map((r) =>
      r.matches.map((m) => Number(m.id)),
    );
    expect(score(truth, estimated, 0.8).recall).toBeLessThan(0.5);
  });

  it('estimates from the signatures and their set sizes without stored sets', async () => {
    const { index, corpus, truth } = await planted({ verify: 'estimate', storeSets: false });
    const results = await index.query(corpus.items, { containment: 0.8 });
    const found = results.map((r) => r.matches.map((m) => Number(m.id)));
    expect(score(truth, found, 0.8).recall).toBeGreaterThanOrEqual(0.8);
    for (const r of results) for (const m of r.matches) expect(m.exactContainment).toBeUndefined();
  });

  it('with top, the K most contained', async () => {
    const { index, corpus } = await planted({});
    const [r] = await index.query([corpus.items[0]], { containment: 0.1, top: 1 });
    expect(r.matches.map((m) => m.id)).toEqual(['0']);
  });

  it('refuses containment where set sizes are unknown', async () => {
    const index = memoryIndex({ verify: 'estimate', storeSets: false, slotBits: 32 });
    await expect(index.query(['a b c d e f'], { containment: 0.8 })).rejects.toThrow(/containment needs set sizes/);
  });
});
