/**
 * The on-disk index's safety: parameters, the writer lock, checksums, and
 * crash safety by fault injection at random points of each commit.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync, statSync, truncateSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndex, openIndex, type DiskIndex } from '../../src/lshIndex/diskIndex.js';
import { CorruptIndexError, IndexParameterError } from '../../src/lshIndex/errors.js';
import { segmentTuning } from '../../src/lshIndex/diskSegment.js';
import { faults } from '../../src/lshIndex/files.js';
import { IndexLockedError } from '../../src/lshIndex/lock.js';
import { readManifest, referencedFiles } from '../../src/lshIndex/manifest.js';
import { plantedCorpus } from '../support/planted.js';
import { rng } from '../support/reference.js';
import { tempDir } from '../support/tempDirs.js';

const corpus = plantedCorpus(5, 12, [2, 12, 50]);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
const probes = corpus.texts.filter((_, i) => i % 4 === 1);

async function built(documents = docs.slice(0, 24)): Promise<string> {
  const dir = join(tempDir(), 'index');
  const index = await createIndex(dir, { threshold: 0.7 });
  await index.add(documents.slice(0, 12));
  await index.add(documents.slice(12));
  await index.remove([documents[0].id]);
  await index.close();
  return dir;
}

afterEach(() => {
  faults.hook = undefined;
  segmentTuning.smallSegmentBytes = 2 ** 20;
});

describe('parameters', () => {
  it('opening with other parameters is refused, naming each difference', async () => {
    const dir = join(tempDir(), 'index');
    await (await createIndex(dir, { k: 64, threshold: 0.8 })).close();
    const opened = openIndex(dir, { expect: { k: 128, threshold: 0.9, verify: 'exact', n: 5 } });
    await expect(opened).rejects.toBeInstanceOf(IndexParameterError);
    await expect(openIndex(dir, { expect: { k: 128, threshold: 0.9, verify: 'exact' } })).rejects.toThrow(
      /k: 64 \(index\) vs 128.*threshold: 0\.8 \(index\) vs 0\.9.*verify: hybrid \(index\) vs exact/,
    );
    await (await openIndex(dir, { expect: { k: 64, threshold: 0.8 } })).close(); // the same: opens
    await expect(createIndex(dir, { k: 64 })).rejects.toThrow(/already an index/);
  });
});

describe('writer lock', () => {
  it('a second writer is refused naming the pid; readers are not; a dead writer’s lock is taken over with a note', async () => {
    const dir = await built();
    const writer = await openIndex(dir);
    const second = openIndex(dir);
    await expect(second).rejects.toBeInstanceOf(IndexLockedError);
    await expect(openIndex(dir)).rejects.toThrow(new RegExp(`pid ${process.pid} on `));
    const reader = await openIndex(dir, { readOnly: true });
    await expect(reader.add([{ id: 'new', text: 'some words' }])).rejects.toThrow(/read-only/);
    await writer.close();
    await reader.close();

    const dead = spawnSync(process.execPath, ['-e', '0']).pid!; // a pid that has exited
    writeFileSync(join(dir, 'writer.lock'), JSON.stringify({ pid: dead, host: hostname() }));
    const next = await openIndex(dir);
    expect(next.lockNote).toMatch(new RegExp(`lock of pid ${dead} .* no longer running`));
    await next.close();
  });

  // A writer that could not write its lock (a full disk) left it empty; a garbage lock is no better. Neither names a
  // writer that could be running: both are taken over with a note (they refused every writer as `pid -1`).
  for (const [what, content] of [
    ['an empty', ''],
    ['a garbage', 'not a lock\u0000\u0001'],
    ['a half-written', '{"pid": 12'],
  ] as const) {
    it(`${what} lock is taken over with a note, and released at close`, async () => {
      const dir = await built();
      writeFileSync(join(dir, 'writer.lock'), content);
      const next = await openIndex(dir);
      expect(next.lockNote).toMatch(/took over an empty or unreadable lock/);
      await next.add([{ id: 'new', text: 'some words that are new here' }]);
      await next.close();
      expect(readdirSync(dir)).not.toContain('writer.lock');
      await (await openIndex(dir)).close(); // and the next writer takes it as usual
    });
  }
});

describe('checksums', () => {
  const flipByte = (path: string, at: number): void => {
    const bytes = readFileSync(path);
    bytes[at] ^= 0xff;
    writeFileSync(path, bytes);
  };

  for (const file of ['sig', 'bands', 'bands.idx', 'ids', 'sets', 'sig.crc']) {
    it(`a corrupt .${file} file is detected by its checksum and named`, async () => {
      const dir = await built();
      const path = join(dir, `seg-000001.${file}`);
      flipByte(path, Math.floor(statSync(path).size / 2));
      const opening = openIndex(dir, { readOnly: true });
      await expect(opening).rejects.toBeInstanceOf(CorruptIndexError);
      await expect(openIndex(dir, { readOnly: true })).rejects.toThrow(
        new RegExp(`${path.replace(/[.]/g, '\\.')}: checksum mismatch`),
      );
    });
  }

  it('lazy checksums: a signature block is checked on the first read that touches it, and named', async () => {
    segmentTuning.smallSegmentBytes = 0; // every segment read by position (small ones are read whole, checked, at open)
    const dir = await built();
    const path = join(dir, 'seg-000001.sig');
    flipByte(path, 8);
    const index = await openIndex(dir, { readOnly: true, checksums: 'lazy' });
    await expect(index.query(probes)).rejects.toThrow(/seg-000001\.sig: checksum mismatch in bytes 0–\d+ /);
    await index.close();
    const bands = await built();
    flipByte(join(bands, 'seg-000001.bands'), 20);
    const lazy = await openIndex(bands, { readOnly: true, checksums: 'lazy' });
    await expect(lazy.query(corpus.texts)).rejects.toThrow(/seg-000001\.bands: checksum mismatch in band 0, block 0/);
    await lazy.close();
    const healthy = await built();
    const reader = await openIndex(healthy, { readOnly: true, checksums: 'lazy' });
    const eager = await openIndex(healthy, { readOnly: true, checksums: 'open' });
    expect(await reader.query(probes)).toEqual(await eager.query(probes));
    await reader.close();
    await eager.close();
  });

  it('a truncated segment file and a corrupt manifest are named', async () => {
    const dir = await built();
    truncateSync(join(dir, 'seg-000001.sig'), 100);
    await expect(openIndex(dir, { readOnly: true })).rejects.toThrow(/seg-000001\.sig/);
    const manifest = join(dir, 'manifest.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"generation": ', '"generation": 1'));
    await expect(openIndex(dir, { readOnly: true })).rejects.toThrow(/manifest\.json: checksum mismatch/);
  });
});

/** What an index answers: its counts, live ids' answers to the probes. */
async function snapshot(index: DiskIndex): Promise<unknown> {
  const { documents, removed, segments } = await index.stats();
  return {
    documents,
    removed,
    segments,
    answers: await index.query(probes),
    top: await index.query(probes, { top: 3 }),
  };
}

type Operation = (index: DiskIndex) => Promise<unknown>;
const operations: Record<string, Operation> = {
  add: (index) => index.add(docs.slice(24)),
  remove: (index) => index.remove(['d4', 'd8', 'd12', 'd16']),
  compact: (index) => index.compact(),
};

describe('crash safety (fault injection)', () => {
  for (const [name, operation] of Object.entries(operations)) {
    it(`${name}: a failure at any step leaves exactly the previous or the new state, and the next writer cleans up`, async () => {
      const base = await built();
      // The previous state, the new state, and how many fault points the operation passes.
      const before = await snapshot(await openIndex(base, { readOnly: true }));
      const clean = join(tempDir(), 'clean');
      cpSync(base, clean, { recursive: true });
      let points = 0;
      const reference = await openIndex(clean);
      const previous = (await reference.stats()).documents;
      faults.hook = () => void points++;
      await operation(reference);
      faults.hook = undefined;
      const after = await snapshot(reference);
      await reference.close();
      expect(points).toBeGreaterThan(3);
      expect(after).not.toEqual(before);

      const seen = new Set<string>();
      // The first and last steps, then random ones (several seeds).
      const stops = [
        0,
        points - 1,
        ...Array.from({ length: 7 }, (_, seed) => Math.floor(rng((seed + 1) * 7919)() * points)),
      ];
      for (const [seed, stop] of stops.entries()) {
        const dir = join(tempDir(), `crash-${seed}`);
        cpSync(base, dir, { recursive: true });
        const index = await openIndex(dir);
        let point = 0;
        faults.hook = (where) => {
          if (point++ === stop) throw new Error(`injected crash at ${where}`);
        };
        await expect(operation(index)).rejects.toThrow(/injected crash/);
        faults.hook = undefined;
        await index.close();
        const reopened = await openIndex(dir); // the next writer: cleans what the failed commit left
        const state = await snapshot(reopened);
        const isBefore = JSON.stringify(state) === JSON.stringify(before);
        expect(isBefore || JSON.stringify(state) === JSON.stringify(after)).toBe(true);
        seen.add(isBefore ? 'before' : 'after');
        const unreferenced = readdirSync(dir).filter(
          (f) => !referencedFiles(readManifest(dir)).has(f) && f !== 'writer.lock',
        );
        expect(unreferenced).toEqual([]);
        // And it takes the next commit.
        await reopened.add([
          { id: `after-crash-${seed}`, text: `a fresh document number ${seed} with words enough to shingle` },
        ]);
        expect((await reopened.stats()).documents).toBeGreaterThan(previous - 5);
        await reopened.close();
      }
      expect([...seen].sort()).toEqual(['after', 'before']); // the last step is past the manifest's rename
    });
  }
});
