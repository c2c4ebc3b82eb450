/**
 * The automatic merge policy (issue 31, item 8): each add made a segment and
 * nothing merged them (1,000 adds: 1,000 segments, 6,000 descriptors). The
 * policy, simulated over thousands of adds against its bounds (segments held,
 * rows rewritten per row added, order kept), then on the index itself, whose
 * every answer after merges equals the in-memory index's, removed rows and all.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { MERGE_FACTOR, mergeDue } from '../../src/lshIndex/mergePolicy.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { plantedCorpus } from '../support/planted.js';
import { rng } from '../support/reference.js';
import { tempDir } from '../support/tempDirs.js';

/** Adds of these sizes, each merged as the policy says: the most segments held, rows rewritten per row added, and the segments (first and end row, in added order). */
function simulate(adds: readonly number[]): { most: number; amplification: number; segments: [number, number][] } {
  let segments: [number, number][] = [];
  let next = 0;
  let rewritten = 0;
  let most = 0;
  const rows = (): number[] => segments.map(([a, z]) => z - a);
  for (const size of adds) {
    segments.push([next, next + size]);
    next += size;
    for (let run = mergeDue(rows()); run !== undefined; run = mergeDue(rows())) {
      const merged = segments.slice(run.from, run.to);
      // Adjacent segments only: the merged one holds its rows in the order they were added.
      for (let i = 1; i < merged.length; i++) expect(merged[i][0]).toBe(merged[i - 1][1]);
      const end = merged[merged.length - 1][1];
      rewritten += end - merged[0][0];
      segments = [...segments.slice(0, run.from), [merged[0][0], end], ...segments.slice(run.to)];
    }
    most = Math.max(most, segments.length);
  }
  return { most, amplification: rewritten / next, segments };
}

/** Segments covering rows 0 … total − 1 in order. */
const inOrder = (segments: readonly [number, number][], total: number): boolean =>
  segments.every(([a], i) => a === (i === 0 ? 0 : segments[i - 1][1])) && segments[segments.length - 1][1] === total;

describe('merge policy', () => {
  it('2,000 one-document adds: a few dozen segments at most, each document rewritten about log10(2,000) times, order kept', () => {
    const { most, amplification, segments } = simulate(Array(2000).fill(1));
    expect(most).toBeLessThanOrEqual(4 * (MERGE_FACTOR - 1) + 1); // levels 1, 10, 100, 1,000: at most F − 1 each
    expect(amplification).toBeLessThanOrEqual(Math.log10(2000) + 1);
    expect(inOrder(segments, 2000)).toBe(true);
  });

  it('adds of random sizes, and large adds between one-document ones, stay bounded', () => {
    const next = rng(31);
    const mixed = Array.from({ length: 3000 }, () => Math.ceil(10 ** (next() * 4)));
    const total = mixed.reduce((a, b) => a + b, 0);
    const random = simulate(mixed);
    expect(random.most).toBeLessThanOrEqual(60);
    expect(random.amplification).toBeLessThanOrEqual(Math.log10(total) + 2);
    expect(inOrder(random.segments, total)).toBe(true);
    // A large add after each small one: the small ones are merged with their neighbours, not left between them.
    const alternating = simulate(Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? 10_000 : 1)));
    expect(alternating.most).toBeLessThanOrEqual(3 * MERGE_FACTOR);
  });

  it('nothing is due below the merge factor', () => {
    expect(mergeDue(Array(MERGE_FACTOR - 1).fill(1))).toBeUndefined();
    expect(mergeDue(Array(MERGE_FACTOR).fill(1))).toEqual({ from: 0, to: MERGE_FACTOR });
    expect(mergeDue([1000, ...Array(MERGE_FACTOR).fill(1)])).toEqual({ from: 1, to: 1 + MERGE_FACTOR });
  });
});

describe('the index merges its segments', () => {
  const corpus = plantedCorpus(8, 12, [3, 30, 90]);
  const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));

  it('48 one-document adds with removes between them: few segments, every answer the in-memory index’s', async () => {
    const dir = join(tempDir(), 'idx');
    const index = await createIndex(dir, { threshold: 0.7 });
    const memory = createMemoryIndex({
      threshold: 0.7,
      signer: inlineIndexSigner(resolveParameters({ threshold: 0.7 })),
    });
    for (const [i, doc] of docs.entries()) {
      expect(await index.add([doc])).toEqual(await memory.add([doc]));
      if (i % 7 === 6)
        expect(await index.remove([docs[i - 3].id, docs[i - 5].id])).toEqual(
          await memory.remove([docs[i - 3].id, docs[i - 5].id]),
        );
    }
    expect(docs.length).toBe(48);
    const stats = await index.stats();
    expect(stats.segments).toBeLessThan(MERGE_FACTOR + 2);
    expect(stats.documents).toBe((await memory.stats()).documents);
    expect(index.writeProblem).toBeUndefined();
    const texts = corpus.texts.slice(0, 24);
    expect(await index.query(texts)).toEqual(await memory.query(texts));
    expect(await index.query(texts, { top: 5 })).toEqual(await memory.query(texts, { top: 5 }));
    // The writer's id map followed the merges: removing and re-adding finds each id where it now is.
    const ids = docs.map((d) => d.id);
    expect(await index.remove(ids.slice(0, 20))).toEqual(await memory.remove(ids.slice(0, 20)));
    expect(await index.add(docs.slice(0, 20))).toEqual(await memory.add(docs.slice(0, 20)));
    await index.close();
    const reopened = await openIndex(dir, { readOnly: true });
    expect(await reopened.query(texts)).toEqual(await memory.query(texts));
    expect((await reopened.stats()).documents).toBe((await memory.stats()).documents);
    await reopened.close();
  });
});
