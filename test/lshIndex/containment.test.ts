import { describe, expect, it, vi } from 'vitest';
import { bitsToTest, jaccardFloor, depthFor, containmentOf, mostMissing } from '../../src/lshIndex/containment.js';
import { leastHits, sampledKeys } from '../../src/lshIndex/postings.js';
import { MemorySegment } from '../../src/lshIndex/segment.js';
import {
  BITMAP_WORDS,
  missingBelowContainment,
  queryBits,
  setBits,
  surelyMissing,
} from '../../src/lshIndex/shingleBitmaps.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters, type IndexOptions } from '../../src/lshIndex/options.js';
import { inlineIndexSigner, signTexts } from '../../src/lshIndex/signing.js';
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

  it('reads a row found through the postings only if it shares enough sampled shingles to hold C of the item', async () => {
    let seed = 5;
    const word = (): string => `w${((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % 20000).toString(36)}`;
    const filler = (n: number): string[] => Array.from({ length: n }, word);
    const parameters = resolveParameters({});
    const sign = async (texts: string[]) =>
      (await signTexts(texts, inlineIndexSigner(parameters), parameters, true)).sets!;
    // The first 23-word item (19 shingles) with 5 sampled keys or more: a document may lack 3, so it needs 2 hits.
    let item: string[] = [];
    let keys: Uint32Array = new Uint32Array(0);
    for (let v = 0; keys.length < 5; v++) {
      item = Array.from({ length: 23 }, (_, i) => `item${v}x${i}`);
      keys = sampledKeys((await sign([item.join(' ')]))[0]);
    }
    // Hosts hold the whole item; decoys a 12-word run of it (8 of its 19 shingles), in 400 words of their own.
    const docs = [
      ...[0, 1, 2].map((i) => ({ id: `host${i}`, text: [...filler(200), ...item, ...filler(200)].join(' ') })),
      ...Array.from({ length: 600 }, (_, i) => ({
        id: `decoy${i}`,
        text: [...filler(200), ...item.slice(i % 12, (i % 12) + 12), ...filler(200)].join(' '),
      })),
    ];
    const docSets = await sign(docs.map((d) => d.text));
    const hits = docSets.map((set) => sampledKeys(set).filter((k) => keys.includes(k)).length);
    // What the rows' shingle bitmaps (shingleBitmaps.ts) rule out after the postings: a row that surely lacks 4.
    const itemBits = queryBits((await sign([item.join(' ')]))[0]);
    const ruledOut = docSets.map((set) => {
      const bitmap = new Uint32Array(BITMAP_WORDS);
      setBits(set, 0, set.length, bitmap, 0);
      return surelyMissing(bitmap, 0, itemBits, 19) >= missingBelowContainment(0.8, 19);
    });
    const sure = keys.length - mostMissing(0.8, 19);
    const least = Math.max(1, leastHits(0.8, 19, keys.length));
    expect(hits.filter((h) => h >= least && h < sure).length).toBeGreaterThan(50); // read before, not now
    const index = memoryIndex({});
    await index.add(docs, { all: true });
    await index.query([item.join(' ')], { containment: 0.8 }); // builds the forests and postings
    const reads = vi.spyOn(MemorySegment.prototype, 'readSet');
    try {
      const [result] = await index.query([item.join(' ')], { containment: 0.8 });
      expect(result.matches.map((m) => m.id).sort()).toEqual(['host0', 'host1', 'host2']);
      expect(reads.mock.calls.length).toBe(hits.filter((h, i) => h >= Math.max(least, sure) && !ruledOut[i]).length);
      expect(hits.filter((h, i) => h >= Math.max(least, sure) && ruledOut[i]).length).toBeGreaterThan(50);
    } finally {
      reads.mockRestore();
    }
  });

  it("lays the query's bits out only where a segment has bitmaps (an index without sets has none)", () => {
    const set = new Uint32Array([1, 2, 3, 4, 5, 6]);
    const none = { data: {} };
    expect(bitsToTest(set, [none, none])).toBeUndefined();
    expect(bitsToTest(undefined, [{ data: { bitmaps: new Uint32Array(BITMAP_WORDS) } }])).toBeUndefined();
    expect(bitsToTest(set, [none, { data: { bitmaps: new Uint32Array(BITMAP_WORDS) } }])).toEqual(queryBits(set));
  });

  it('mostMissing: the most shingles a document may lack and hold C of q (common / q ≥ C, as verified counts)', () => {
    for (const c of [0.5, 0.8, 0.9, 0.95, 1])
      for (let q = 1; q <= 300; q++) {
        const m = mostMissing(c, q);
        expect((q - m) / q).toBeGreaterThanOrEqual(c);
        if (m < q) expect((q - m - 1) / q).toBeLessThan(c);
      }
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
