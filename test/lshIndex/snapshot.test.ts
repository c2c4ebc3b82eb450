import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/lshIndex/crc32.js';
import { createIndex } from '../../src/lshIndex/diskIndex.js';
import { CorruptIndexError } from '../../src/lshIndex/errors.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { openIndexSnapshot } from '../../src/lshIndex/snapshot.js';
import { plantedCorpus } from '../support/planted.js';
import { rng } from '../support/reference.js';
import { tempDir } from '../support/tempDirs.js';

describe('a saved index opened from its files (browser-safe)', () => {
  it('crc32 equals zlib.crc32, also continued', () => {
    const next = rng(3);
    for (const length of [0, 1, 7, 1000, 65_537]) {
      const bytes = Uint8Array.from({ length }, () => Math.floor(next() * 256));
      expect(crc32(bytes)).toBe(zlibCrc32(bytes) >>> 0);
      expect(crc32(bytes.subarray(length >> 1), crc32(bytes.subarray(0, length >> 1)))).toBe(zlibCrc32(bytes) >>> 0);
    }
  });

  it('answers as the on-disk index, removed documents included; a corrupt file is named', async () => {
    const corpus = plantedCorpus(21, 15, [3, 30]);
    const docs = corpus.texts.map((text, i) => ({ id: `s${i}`, text }));
    const dir = join(tempDir(), 'idx');
    const index = await createIndex(dir, { threshold: 0.6 });
    await index.add(docs.slice(0, 20));
    await index.add(docs.slice(20));
    await index.remove(['s0', 's3']);
    const read = async (name: string) => new Uint8Array(readFileSync(join(dir, name)));
    const snapshot = await openIndexSnapshot(read, inlineIndexSigner(resolveParameters({ threshold: 0.6 })));
    expect(await snapshot.query(corpus.texts)).toEqual(await index.query(corpus.texts));
    expect(await snapshot.query(corpus.texts, { top: 2 })).toEqual(await index.query(corpus.texts, { top: 2 }));
    expect((await snapshot.stats()).documents).toBe((await index.stats()).documents);
    await expect(snapshot.add([{ id: 'x', text: 'y' }])).rejects.toThrow(/read-only/);
    await index.close();
    const path = join(dir, 'seg-000002.sig');
    const bytes = readFileSync(path);
    bytes[5] ^= 1;
    writeFileSync(path, bytes);
    await expect(openIndexSnapshot(read, inlineIndexSigner(resolveParameters({})))).rejects.toThrow(CorruptIndexError);
    await expect(openIndexSnapshot(read, inlineIndexSigner(resolveParameters({})))).rejects.toThrow(
      /seg-000002\.sig: checksum mismatch/,
    );
  });
});
