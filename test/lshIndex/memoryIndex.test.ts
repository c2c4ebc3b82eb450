import { describe, expect, it } from 'vitest';
import { dedup } from '../../src/api.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { plantedCorpus } from '../support/planted.js';

const memoryIndex = (options: Parameters<typeof resolveParameters>[0] = {}) =>
  createMemoryIndex({ ...options, signer: inlineIndexSigner(resolveParameters(options)) });

describe('in-memory index', () => {
  it('keeps what dedup keeps for one batch, and reports each match', async () => {
    const corpus = plantedCorpus(7, 12, [2, 8, 30, 90]);
    const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
    const index = memoryIndex();
    const { decisions, added } = await index.add(docs);
    const reference = await dedup(docs, { backend: 'cpu', threads: 1, clusterCheck: 'none' });
    expect(decisions.map((d) => (d.added ? 1 : 0))).toEqual([...reference.assignment.kept]);
    expect(added).toBe(reference.assignment.kept.reduce((a, b) => a + b, 0));
    for (const d of decisions.filter((x) => !x.added)) expect(d.matches.length).toBeGreaterThan(0);
  });
});
