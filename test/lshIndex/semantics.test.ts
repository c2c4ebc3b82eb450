/**
 * add/query/remove semantics against dedup() of the same documents and
 * against brute-force exact Jaccard (the planted corpus's).
 */
import { describe, expect, it } from 'vitest';
import { dedup } from '../../src/api.js';
import { IndexIdError } from '../../src/lshIndex/errors.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters, type IndexOptions } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { plantedCorpus, similarity } from '../support/planted.js';

const memoryIndex = (options: IndexOptions = {}) =>
  createMemoryIndex({ ...options, signer: inlineIndexSigner(resolveParameters(options)) });
const corpus = plantedCorpus(3, 30, [1, 5, 15, 30, 60, 100]);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
const position = new Map(docs.map((d, i) => [d.id, i]));

describe('index add decisions', () => {
  it('A then B decides exactly as A+B in one add', async () => {
    const split = memoryIndex();
    const a = await split.add(docs.slice(0, 90));
    const b = await split.add(docs.slice(90));
    const whole = await memoryIndex().add(docs);
    expect([...a.decisions, ...b.decisions]).toEqual(whole.decisions);
  });

  for (const verify of ['exact', 'hybrid', 'estimate'] as const) {
    it(`verify ${verify}: drops only documents with a verified match among the kept, reports exact Jaccard truly`, async () => {
      const t = 0.7;
      const index = memoryIndex({ verify, threshold: t });
      const result = await index.add(docs);
      const kept = result.decisions.filter((d) => d.added).map((d) => position.get(d.id)!);
      const keptSet = new Set(kept);
      for (const d of result.decisions) {
        const i = position.get(d.id)!;
        for (const m of d.matches) {
          const j = position.get(m.id)!;
          expect(j).toBeLessThan(i); // an earlier document
          expect(keptSet.has(j)).toBe(true); // matched against what was added, never against a dropped one
          if (m.exact !== undefined) expect(m.exact).toBeCloseTo(similarity(corpus, i, j), 12);
          if (verify === 'exact') expect(m.exact).toBeGreaterThanOrEqual(t);
        }
      }
      // Residual: kept pairs at J ≥ t (LSH misses or the estimate's errors): as few as dedup leaves.
      const residual = (ids: number[]): number => {
        let n = 0;
        for (let x = 0; x < ids.length; x++)
          for (let y = x + 1; y < ids.length; y++) if (similarity(corpus, ids[x], ids[y]) >= t) n++;
        return n;
      };
      const reference = await dedup(docs, { backend: 'cpu', threads: 1, verify, threshold: t });
      const dedupKept = [...reference.assignment.kept].flatMap((k, i) => (k ? [i] : []));
      expect(residual(kept)).toBeLessThanOrEqual(residual(dedupKept));
      if (verify === 'exact') expect(residual(kept)).toBe(0);
    });
  }

  it('keeps what dedup keeps (clusterCheck none: no chains in this corpus) and every exact duplicate is dropped', async () => {
    const withCopies = [
      ...docs,
      { id: 'copy', text: `  ${docs[5].text.toUpperCase()} ` },
      { id: 'empty1', text: ' ' },
      { id: 'empty2', text: '' },
    ];
    const result = await memoryIndex().add(withCopies);
    const reference = await dedup(withCopies, { backend: 'cpu', threads: 1, clusterCheck: 'none' });
    expect(result.decisions.map((d) => (d.added ? 1 : 0))).toEqual([...reference.assignment.kept]);
    const copy = result.decisions.find((d) => d.id === 'copy')!;
    expect(copy.added).toBe(false);
    expect(copy.matches[0]).toEqual({ id: 'd5', similarity: 1, exact: 1 });
    expect(result.decisions.filter((d) => d.id.startsWith('empty')).map((d) => d.added)).toEqual([true, true]); // no tokens: never duplicates
  });

  it('all: appends everything and reports matches', async () => {
    const index = memoryIndex();
    const result = await index.add(docs.slice(0, 14), { all: true });
    expect(result.added).toBe(14);
    expect(result.matched).toBeGreaterThan(0);
    expect((await index.stats()).documents).toBe(14);
  });

  it('refuses an id already in the index, or twice in one add, naming it', async () => {
    const index = memoryIndex();
    const { added } = await index.add(docs.slice(0, 3));
    await expect(index.add([{ id: 'd0', text: 'new text here' }])).rejects.toThrow(/id "d0" is already in the index/);
    await expect(
      index.add([
        { id: 'x', text: 'a' },
        { id: 'x', text: 'b' },
      ]),
    ).rejects.toThrow(/id "x" appears twice/);
    expect((await index.stats()).documents).toBe(added);
  });

  it('a refused id is an IndexIdError (a RangeError) with the id, its problem and its place in the add; messages as before', async () => {
    const index = memoryIndex();
    const { added } = await index.add(docs.slice(0, 3));
    const refusal = (batch: { id: string; text: string }[]) =>
      index.add(batch).then(
        () => expect.unreachable('refused'),
        (error: unknown) => error as IndexIdError,
      );
    const indexed = await refusal([
      { id: 'new', text: 'a b c' },
      { id: 'd0', text: 'new text here' },
    ]);
    expect(indexed).toBeInstanceOf(IndexIdError);
    expect(indexed).toBeInstanceOf(RangeError);
    expect({ problem: indexed.problem, id: indexed.id, documents: indexed.documents }).toEqual({
      problem: 'indexed',
      id: 'd0',
      documents: [2],
    });
    expect(indexed.message).toBe(
      'id "d0" is already in the index (document 2 of the add): ids are unique in an index; remove it first to replace it',
    );
    expect(indexed.located((i) => `f.jsonl:${i + 10}`)).toBe(
      'f.jsonl:11: id "d0" is already in the index: ids are unique in an index; remove it first to replace it',
    );
    const twice = await refusal([
      { id: 'p', text: 'a' },
      { id: 'q', text: 'b' },
      { id: 'p', text: 'c' },
    ]);
    expect({ problem: twice.problem, id: twice.id, documents: twice.documents }).toEqual({
      problem: 'repeated',
      id: 'p',
      documents: [1, 3],
    });
    expect(twice.message).toBe('id "p" appears twice in this add (documents 1 and 3): ids are unique in an index');
    expect(twice.located((i) => `f:${i + 1}`)).toBe(
      'f:3: id "p" appears twice in this add (also f:1): ids are unique in an index',
    );
    const empty = await refusal([
      { id: 'r', text: 'a' },
      { id: '', text: 'b' },
    ]);
    expect({ problem: empty.problem, id: empty.id, documents: empty.documents }).toEqual({
      problem: 'empty',
      id: '',
      documents: [2],
    });
    expect(empty.message).toBe('document 2 of the add has an empty id');
    expect(empty.located((i) => `f:${i + 1}`)).toBe('f:2: the document has an empty id');
    // A malformed document is not an id's problem: a TypeError, as before.
    await expect(index.add([{ id: 1, text: 'a' } as never])).rejects.toBeInstanceOf(TypeError);
    expect((await index.stats()).documents).toBe(added);
  });
});

describe('index queries', () => {
  it('threshold: the indexed documents at or above it, most similar first; top K by estimate', async () => {
    const index = memoryIndex({ threshold: 0.5 });
    const families = docs.filter((_, i) => i % 7 === 0); // the bases
    await index.add(families);
    const queries = docs.filter((_, i) => i % 7 === 2); // variants with 5 edits
    const results = await index.query(queries.map((d) => d.text));
    results.forEach((r, q) => {
      expect(r.matches.map((m) => m.id)).toEqual([`d${position.get(queries[q].id)! - 2}`]);
      const truth = similarity(corpus, position.get(queries[q].id)!, position.get(queries[q].id)! - 2);
      expect(Math.abs(r.matches[0].similarity - truth)).toBeLessThan(0.15);
      if (r.matches[0].exact !== undefined) expect(r.matches[0].exact).toBeCloseTo(truth, 12);
    });
    const top = await index.query([queries[0].text], { top: 2 });
    expect(top[0].matches.length).toBeLessThanOrEqual(2);
    expect(top[0].matches[0].id).toBe(results[0].matches[0].id);
    expect(await index.query(['', 'completely unrelated words that share nothing with the corpus at all'])).toEqual([
      { matches: [] },
      { matches: [] },
    ]);
  });

  it('remove: removed documents are never matched again; unknown ids are not an error', async () => {
    const index = memoryIndex();
    const { added } = await index.add(docs.slice(0, 7));
    expect(await index.remove(['d0', 'zzz'])).toEqual({ removed: 1 });
    expect((await index.query([docs[0].text]))[0].matches.map((m) => m.id)).not.toContain('d0');
    expect(await index.stats()).toMatchObject({ documents: added - 1, removed: 1 });
    await index.add([{ id: 'd0', text: docs[0].text }]); // its id is free again
  });
});
