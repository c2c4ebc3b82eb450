/**
 * What a top-K query no longer does twice (issue 39, the 1 M index's p99): a family's identical copies (equal exact
 * keys, exactKeys.ts) are read once a query, K rows at score 1 end the rescoring, and the first top-K query of a
 * thread warms the query paths on stored rows (warmUp.ts) once. The answers are those reading every row gives: each
 * exact value is checked against brute force on word 5-gram sets (queryCorpus.ts).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { DiskSegment } from '../../src/lshIndex/diskSegment.js';
import { readExactKeys } from '../../src/lshIndex/exactKeys.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { Ranking } from '../../src/lshIndex/rerank.js';
import { MemorySegment } from '../../src/lshIndex/segment.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { WARM_QUERIES } from '../../src/lshIndex/warmUp.js';
import { jaccard, mutate, rng, shingles, words, type Doc } from './queryCorpus.js';
import { tempDir } from '../support/tempDirs.js';

afterEach(() => vi.restoreAllMocks());

/** 6 texts near one base (one word in 20 changed), `copies` copies of each, shuffled; and a query near the base. */
function copiesCorpus(copies: number): { indexed: Doc[]; query: string; distinct: number } {
  const random = rng(39);
  const base = words(random, 200);
  const texts = Array.from({ length: 6 }, () => mutate(random, base, 0.05).join(' '));
  const indexed = texts.flatMap((text, t) => Array.from({ length: copies }, (_, c) => ({ id: `t${t}-${c}`, text })));
  for (let i = indexed.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indexed[i], indexed[j]] = [indexed[j], indexed[i]];
  }
  return { indexed, query: mutate(random, base, 0.05).join(' '), distinct: texts.length };
}

describe('top-K without repeated work (issue 39)', () => {
  it('the first top-K query of a thread queries WARM_QUERIES stored rows first, once', async () => {
    const random = rng(7);
    const docs = Array.from({ length: 100 }, (_, i) => ({ id: `d${i}`, text: words(random, 60).join(' ') }));
    const index = createMemoryIndex({ signer: inlineIndexSigner(resolveParameters({})) });
    await index.add(docs, { all: true });
    const rows = vi.spyOn(MemorySegment.prototype, 'readRow');
    await index.query([docs[0].text], { top: 5 });
    const first = rows.mock.calls.length;
    rows.mockClear();
    await index.query([docs[1].text], { top: 5 });
    expect(first).toBeGreaterThanOrEqual(rows.mock.calls.length + WARM_QUERIES);
  });

  it('K rows at score 1 and similarity 1 end the rescoring: a later row can only tie, and ties keep the earlier', () => {
    const met = Array.from({ length: 50 }, (_, row) => ({ segment: 0, row, agreement: 1 }));
    const readAt = (exact: number) => {
      let read = 0;
      const ranking = new Ranking(10, () => (read++, { similarity: 1, exact }));
      ranking.rescoreMet(met, 128, 0.3);
      return { read, ids: ranking.result((_, row) => `r${row}`).map((m) => m.id) };
    };
    expect(readAt(1)).toEqual({ read: 10, ids: Array.from({ length: 10 }, (_, i) => `r${i}`) });
    expect(readAt(0.99).read).toBe(50); // below 1 a later row may still be better: all are read
  });

  it('a disk index reads each distinct set of a family once a query, and its exact values are the true ones', async () => {
    const { indexed, query, distinct } = copiesCorpus(20);
    const dir = join(tempDir(), 'idx');
    const writer = await createIndex(dir, { storeSets: true, checksums: 'open' });
    await writer.add(indexed.slice(0, 60), { all: true });
    await writer.add(indexed.slice(60), { all: true }); // copies in two segments: keys compared across them
    await writer.close();
    const reader = await openIndex(dir, { readOnly: true });
    await reader.query([indexed[0].text], { top: 1 }); // the warm-up and the forests, before counting
    const reads = vi.spyOn(DiskSegment.prototype, 'readSetInto');
    const [result] = await reader.query([query], { top: 10 });
    expect(reads.mock.calls.length).toBeLessThanOrEqual(distinct);
    const q = shingles(query);
    const truth = new Map(indexed.map((d) => [d.id, jaccard(q, shingles(d.text))]));
    expect(result.matches).toHaveLength(10);
    for (const m of result.matches) expect(m.exact).toBeCloseTo(truth.get(m.id)!, 9);
    const best = [...truth.values()].sort((a, b) => b - a).slice(0, 10);
    expect(result.matches.map((m) => m.exact!.toFixed(9))).toEqual(best.map((v) => v.toFixed(9)));
    await reader.close();
  });

  it('a segment’s exact keys: equal for equal texts, zero for an empty one, one key a row', async () => {
    const dir = join(tempDir(), 'idx');
    const writer = await createIndex(dir, { storeSets: true });
    const docs = ['a b c d e f', 'a b  c d e f', 'a b c d e g', ''].map((text, i) => ({ id: `d${i}`, text }));
    await writer.add(docs, { all: true });
    await writer.close();
    const reader = await openIndex(dir, { readOnly: true });
    const { segments } = (reader as unknown as { state: { segments: DiskSegment[] } }).state;
    const keys = await readExactKeys(segments[0], dir);
    const key = (row: number) => [...keys.subarray(4 * row, 4 * row + 4)];
    expect(keys).toHaveLength(16);
    expect(key(0)).toEqual(key(1)); // whitespace collapsed, as the exact pre-pass keys texts
    expect(key(0)).not.toEqual(key(2));
    expect(key(0).some((w) => w !== 0)).toBe(true);
    expect(key(3)).toEqual([0, 0, 0, 0]);
    await reader.close();
  });
});
