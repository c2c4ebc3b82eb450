import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { plantedCorpus } from '../support/planted.js';
import { tempDir } from '../support/tempDirs.js';

const corpus = plantedCorpus(11, 10, [3, 10, 40, 120]);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));

describe('on-disk index', () => {
  it('adds, persists, queries and removes like the in-memory index', async () => {
    const dir = join(tempDir(), 'idx');
    const index = await createIndex(dir, { threshold: 0.7 });
    const memory = createMemoryIndex({
      threshold: 0.7,
      signer: inlineIndexSigner(resolveParameters({ threshold: 0.7 })),
    });
    const first = await index.add(docs.slice(0, 25));
    expect(first).toEqual(await memory.add(docs.slice(0, 25)));
    const second = await index.add(docs.slice(25));
    expect(second).toEqual(await memory.add(docs.slice(25)));
    await index.close();

    const reader = await openIndex(dir, { readOnly: true });
    const texts = corpus.texts.slice(0, 10);
    expect(await reader.query(texts)).toEqual(await memory.query(texts));
    expect(await reader.query(texts, { top: 3 })).toEqual(await memory.query(texts, { top: 3 }));
    const stats = await reader.stats();
    expect(stats.documents).toBe(first.added + second.added);
    expect(stats.segments).toBe(2);

    const writer = await openIndex(dir);
    const keptIds = [...first.decisions, ...second.decisions].filter((d) => d.added).map((d) => d.id);
    expect(await writer.remove([keptIds[0], keptIds[1], 'nope'])).toEqual({ removed: 2 });
    await memory.remove([keptIds[0], keptIds[1]]);
    expect(await writer.query(texts)).toEqual(await memory.query(texts));
    await reader.refresh();
    expect(await reader.query(texts)).toEqual(await memory.query(texts));
    const compacted = await writer.compact();
    expect(compacted.dropped).toBe(2);
    expect(await writer.query(texts)).toEqual(await memory.query(texts));
    expect((await writer.stats()).segments).toBe(1);
    await writer.close();
    await reader.close();
  });
});

describe('band tables on disk', () => {
  it('finds runs of equal keys across blocks of 256 entries, as the in-memory index does', async () => {
    const many = plantedCorpus(13, 60, [5, 40]).texts;
    const copies = Array.from({ length: 700 }, (_, i) => ({
      id: `copy${i}`,
      text: `${many[i % 3]}${i % 2 ? ' ' : ''}`,
    }));
    const batch = [...many.map((text, i) => ({ id: `m${i}`, text })), ...copies];
    const dir = join(tempDir(), 'idx');
    const index = await createIndex(dir);
    const memory = createMemoryIndex({ signer: inlineIndexSigner(resolveParameters({})) });
    expect(await index.add(batch, { all: true })).toEqual(await memory.add(batch, { all: true }));
    const probes = [...many.slice(0, 12), 'nothing like anything indexed here at all, just words'];
    const onDisk = await index.query(probes);
    expect(onDisk).toEqual(await memory.query(probes));
    expect(onDisk[0].matches.length).toBeGreaterThan(230); // m0 and its copies: a run of equal keys over two blocks
    expect(await index.query(probes, { top: 400 })).toEqual(await memory.query(probes, { top: 400 }));
    await index.close();
    const reader = await openIndex(dir, { readOnly: true, checksums: 'lazy' });
    expect(await reader.query(probes)).toEqual(onDisk);
    await reader.close();
  });
});

describe('readers during a commit', () => {
  it('queries running while an add is in flight see the state before it or after it, never between', async () => {
    const planted = plantedCorpus(17, 60, [3, 20]);
    const documents = planted.texts.map((text, i) => ({ id: `p${i}`, text }));
    const dir = join(tempDir(), 'idx');
    const writer = await createIndex(dir, { threshold: 0.7 });
    await writer.add(documents.slice(0, 60));
    const probes = planted.texts.filter((_, i) => i % 3 === 0);
    const before = JSON.stringify(await writer.query(probes));
    const reader = await openIndex(dir, { readOnly: true });
    const seen: string[] = [];
    let adding = true;
    const add = writer.add(documents.slice(60)).finally(() => (adding = false));
    while (adding) {
      seen.push(JSON.stringify(await writer.query(probes))); // the writer's own queries
      await reader.refresh();
      seen.push(JSON.stringify(await reader.query(probes))); // another handle's, through refresh()
    }
    await add;
    await reader.refresh();
    const after = JSON.stringify(await reader.query(probes));
    expect(after).not.toBe(before);
    expect(seen.length).toBeGreaterThan(1);
    for (const state of seen) expect([before, after]).toContain(state);
    await reader.close();
    await writer.close();
  });
});

describe('other parameters', () => {
  const settings = [
    { slotBits: 32 as const },
    { scheme: 'oph' as const, k: 64 },
    { verify: 'hybrid' as const, storeSets: false },
    { verify: 'estimate' as const, threshold: 0.6 },
    { shingle: 'char' as const, n: 4, nfkc: true },
  ];
  for (const options of settings) {
    it(`${JSON.stringify(options)}: the on-disk index answers as the in-memory one, and records the parameters`, async () => {
      const dir = join(tempDir(), 'idx');
      const index = await createIndex(dir, options);
      const memory = createMemoryIndex({ ...options, signer: inlineIndexSigner(resolveParameters(options)) });
      expect(await index.add(docs)).toEqual(await memory.add(docs));
      await index.close();
      const reader = await openIndex(dir, { readOnly: true, expect: options });
      expect(reader.parameters).toEqual(resolveParameters(options));
      expect(await reader.query(corpus.texts)).toEqual(await memory.query(corpus.texts));
      expect(await reader.query(corpus.texts, { top: 2 })).toEqual(await memory.query(corpus.texts, { top: 2 }));
      await reader.close();
    });
  }
});
