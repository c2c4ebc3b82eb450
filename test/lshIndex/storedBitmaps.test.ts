/**
 * The rows' shingle bitmaps stored with each segment (segmentFormat.ts: .bits,
 * issue 39): written by an add and by compaction where sets are stored, equal
 * to what fillBitmaps derives from the sets, read by a query's forest instead
 * of every set, checked (a changed byte is a CorruptIndexError), and an index
 * written before (no .bits) answers as it did, its bitmaps derived.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, CorruptIndexError, openIndex } from '../../src/lshIndex/diskIndex.js';
import { readManifest, writeManifest } from '../../src/lshIndex/manifest.js';
import type { SegmentRecord } from '../../src/lshIndex/segmentFormat.js';
import { DiskSegment } from '../../src/lshIndex/segmentFiles.js';
import { BITMAP_WORDS, fillBitmaps } from '../../src/lshIndex/shingleBitmaps.js';
import { plantedCorpus } from '../support/planted.js';
import { tempDir } from '../support/tempDirs.js';

const corpus = plantedCorpus(39, 12, [3, 10, 40, 120]);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
const queries = corpus.texts.slice(0, 12);

async function built(options: { storeSets: boolean; scheme?: 'classic' | 'simhash' }): Promise<string> {
  const dir = join(tempDir(), 'idx');
  const index = await createIndex(dir, { verify: 'estimate', ...options });
  await index.add(docs.slice(0, 30));
  await index.add([...docs.slice(30), { id: 'empty', text: '' }]);
  await index.close();
  return dir;
}

/** Each segment's stored bitmaps and those derived from its sets. */
function bitmapsOf(dir: string): { stored: Uint32Array | undefined; derived: Uint32Array }[] {
  const manifest = readManifest(dir);
  return manifest.segments.map((record) => {
    const segment = DiskSegment.open(dir, record, manifest.parameters, 'open');
    try {
      const stored = new Uint32Array(BITMAP_WORDS * record.count);
      const derived = new Uint32Array(BITMAP_WORDS * record.count);
      fillBitmaps(segment.view(undefined), derived);
      return { stored: segment.readBitmaps(stored) ? stored : undefined, derived };
    } finally {
      segment.close();
    }
  });
}

const topAndContained = async (dir: string): Promise<unknown> => {
  const reader = await openIndex(dir, { readOnly: true });
  try {
    return [await reader.query(queries, { top: 5 }), await reader.query(queries, { containment: 0.5 })];
  } finally {
    await reader.close();
  }
};

describe('stored shingle bitmaps', () => {
  it("are written by each add and by compaction, equal to what the sets give, and the forest's answers hold", async () => {
    const dir = await built({ storeSets: true });
    const segments = bitmapsOf(dir);
    expect(segments).toHaveLength(2);
    for (const { stored, derived } of segments) {
      expect(stored).toBeDefined();
      expect(stored).toEqual(derived);
      expect(derived.some((w) => w !== 0)).toBe(true);
    }
    const before = await topAndContained(dir);
    const writer = await openIndex(dir);
    await writer.remove(['d3']);
    await writer.compact();
    await writer.close();
    const [compacted] = bitmapsOf(dir);
    expect(readManifest(dir).segments).toHaveLength(1);
    expect(compacted.stored).toEqual(compacted.derived);
    expect(before).not.toEqual(await topAndContained(dir)); // d3 is gone from the answers…
    const writer2 = await openIndex(dir); // an add after compaction writes its segment's too
    await writer2.add([docs[3]]);
    await writer2.close();
    const after = bitmapsOf(dir);
    expect(after).toHaveLength(2);
    for (const { stored, derived } of after) expect(stored).toEqual(derived);
  });

  it('an index written before (no .bits) answers as one with them; none without sets or for simhash', async () => {
    const dir = await built({ storeSets: true });
    const withBits = await topAndContained(dir);
    const manifest = readManifest(dir);
    const without = manifest.segments.map(
      ({ files: { bitmaps: _bitmaps, ...files }, ...s }): SegmentRecord => ({
        ...s,
        files,
      }),
    );
    writeManifest(dir, { ...manifest, segments: without });
    expect(bitmapsOf(dir).every(({ stored }) => stored === undefined)).toBe(true);
    expect(await topAndContained(dir)).toEqual(withBits);
    for (const options of [{ storeSets: false }, { storeSets: true, scheme: 'simhash' as const }]) {
      const other = await built(options);
      expect(readManifest(other).segments.every((s) => s.files.bitmaps === undefined)).toBe(true);
    }
  });

  it('a changed byte of .bits fails the open, or with lazy checksums the first query that reads it', async () => {
    const dir = await built({ storeSets: true });
    const entry = readManifest(dir).segments[0].files.bitmaps!;
    const path = join(dir, entry.name);
    const bytes = readFileSync(path);
    bytes[7] ^= 1;
    writeFileSync(path, bytes);
    await expect(openIndex(dir, { readOnly: true })).rejects.toThrow(CorruptIndexError);
    const reader = await openIndex(dir, { readOnly: true, checksums: 'lazy' });
    try {
      await expect(reader.query(queries, { top: 5 })).rejects.toThrow(/seg-000001\.bits: checksum mismatch/);
    } finally {
      await reader.close();
    }
  });
});
