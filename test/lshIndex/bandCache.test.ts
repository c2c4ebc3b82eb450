/**
 * The band-block cache of a segment read by position (diskSegment.ts): an add whose lookups outgrow it drops the
 * oldest blocks and reuses their memory; the decisions are those of a segment held whole in memory.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { segmentTuning } from '../../src/lshIndex/diskSegment.js';
import { BAND_BLOCK } from '../../src/lshIndex/segmentFormat.js';
import type { AddResult } from '../../src/lshIndex/types.js';
import { plantedCorpus } from '../support/planted.js';
import { tempDir } from '../support/tempDirs.js';

const defaults = { ...segmentTuning };
afterEach(() => Object.assign(segmentTuning, defaults));

const corpus = plantedCorpus(39, 300, [0, 3, 12, 40], 120);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
// A family's members lie together: the index holds the even-numbered documents, the second add the odd ones.
const indexed = docs.filter((_, i) => i % 2 === 0);
const added = docs.filter((_, i) => i % 2 === 1);

async function secondAdd(dir: string, tuning: Partial<typeof segmentTuning>): Promise<AddResult> {
  Object.assign(segmentTuning, defaults, tuning);
  const index = await openIndex(dir);
  try {
    return await index.add(added);
  } finally {
    await index.close();
  }
}

describe('band-block cache', () => {
  it('an add through a cache of two blocks decides as through a segment held in memory', async () => {
    expect(indexed.length).toBeGreaterThan(2 * BAND_BLOCK); // several blocks a band
    const first = join(tempDir(), 'index');
    const index = await createIndex(first, { threshold: 0.7, verify: 'estimate', storeSets: true });
    await index.add(indexed);
    await index.close();
    const copy = join(tempDir(), 'copy');
    cpSync(first, copy, { recursive: true });
    const held = await secondAdd(first, {});
    const tiny = await secondAdd(copy, { smallSegmentBytes: 0, bandCacheBytes: 2 * 12 * BAND_BLOCK });
    expect(held.matched).toBeGreaterThan(50);
    expect(tiny).toEqual(held);
  });
});
