/**
 * Fault injection over the on-disk index's files (issue 31): every kind of
 * file a manifest names — and the manifest — bit-flipped at its first,
 * middle and last byte, truncated, grown by a byte and removed, then each
 * operation (open and query, stats, add, remove, compact) run on it, with
 * the segments held in memory (checked whole at open) and read by position
 * with lazy checksums. Each either fails with one clear error naming the
 * damaged file, or gives exactly what the undamaged index gives — its
 * answer, and for a write the very files (by CRC-32) the undamaged index
 * writes — so nothing damaged is served or copied.
 */
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createIndex, openIndex, type DiskIndex } from '../../src/lshIndex/diskIndex.js';
import { segmentTuning } from '../../src/lshIndex/diskSegment.js';
import { CorruptIndexError, IndexFormatError } from '../../src/lshIndex/errors.js';
import { readManifest, referencedFiles } from '../../src/lshIndex/manifest.js';
import type { OpenOptions } from '../../src/lshIndex/options.js';
import { plantedCorpus } from '../support/planted.js';
import { tempDir } from '../support/tempDirs.js';

const corpus = plantedCorpus(31, 6, [2, 40], 60);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
const probes = corpus.texts.filter((_, i) => i % 3 === 0);
const fresh = [
  { id: 'new-1', text: corpus.texts[1] }, // a duplicate of an indexed document
  { id: 'new-2', text: 'words enough for a document of its own that matches nothing indexed here at all' },
];

/** In memory where the system has it (/dev/shm): the 600 cases' commits fsync, which a disk makes slow. */
const root = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/gpudedup-fault-') : tempDir();
let made = 0;
const scratch = (name: string): string => join(root, `${name}-${made++}`);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Three segments (one with a removed row) and a removed list: every kind of file an index has. */
async function built(): Promise<string> {
  const dir = scratch('index');
  const index = await createIndex(dir, { threshold: 0.7, k: 64 });
  await index.add(docs.slice(0, 6));
  const second = await index.add(docs.slice(6, 12));
  await index.add(docs.slice(12));
  const removed = second.decisions.find((d) => d.added)?.id ?? '';
  expect((await index.remove([removed])).removed).toBe(1);
  await index.close();
  return dir;
}

type Damage = (path: string) => void;
const flipAt =
  (where: (size: number) => number): Damage =>
  (path) => {
    const bytes = readFileSync(path);
    bytes[where(bytes.length)] ^= 0x5a;
    writeFileSync(path, bytes);
  };
const damages: Record<string, Damage> = {
  'a bit flip in the first byte': flipAt(() => 0),
  'a bit flip in the middle': flipAt((n) => n >> 1),
  'a bit flip in the last byte': flipAt((n) => n - 1),
  truncation: (path) => truncateSync(path, statSync(path).size >> 1),
  'a byte appended': (path) => appendFileSync(path, Uint8Array.of(0)),
  removal: (path) => rmSync(path),
};

/** What an operation gives: its answer, and for a write the files its commit added (name → CRC-32). */
type Outcome = { answer: unknown; written: Record<string, number> };
type Operation = (dir: string, options: OpenOptions) => Promise<Outcome>;

/** The manifest's files (name → CRC-32) that `before` did not name: what a write committed. */
function writtenFiles(dir: string, before: Set<string>): Record<string, number> {
  const manifest = readManifest(dir);
  const entries = [...manifest.segments.flatMap((s) => Object.values(s.files)), manifest.removed].filter(
    (e) => e !== undefined,
  );
  return Object.fromEntries(entries.filter((e) => !before.has(e.name)).map((e) => [e.name, e.crc32]));
}

const write =
  (work: (index: DiskIndex) => Promise<unknown>): Operation =>
  async (dir, options) => {
    const before = referencedFiles(readManifest(dir));
    const index = await openIndex(dir, options);
    try {
      const answer = await work(index);
      return { answer: { answer, stats: await index.stats() }, written: writtenFiles(dir, before) };
    } finally {
      await index.close();
    }
  };

const read =
  (work: (index: DiskIndex) => Promise<unknown>): Operation =>
  async (dir, options) => {
    const index = await openIndex(dir, { ...options, readOnly: true });
    try {
      return { answer: await work(index), written: {} };
    } finally {
      await index.close();
    }
  };

const operations: Record<string, Operation> = {
  query: read(async (index) => [await index.query(probes), await index.query(probes, { top: 3 })]),
  stats: read((index) => index.stats()),
  add: write((index) => index.add(fresh)),
  remove: write((index) => index.remove(docs.map((d) => d.id).filter((_, i) => i % 5 === 0))),
  compact: write((index) => index.compact()),
};

const modes: Record<string, { options: OpenOptions; smallSegmentBytes: number }> = {
  'held in memory': { options: {}, smallSegmentBytes: 2 ** 20 },
  'read by position, lazy checksums': { options: { checksums: 'lazy' }, smallSegmentBytes: 0 },
};

/** One file of each kind the index has (the first segment's, and its removed list and manifest). */
function fileKinds(dir: string): string[] {
  const manifest = readManifest(dir);
  return [
    'manifest.json',
    manifest.removed?.name ?? 'no removed list',
    ...Object.values(manifest.segments[0].files).map((e) => e.name),
  ];
}

afterEach(() => {
  segmentTuning.smallSegmentBytes = 2 ** 20;
});

describe('fault injection: damaged files are named, never served or copied', () => {
  for (const [modeName, mode] of Object.entries(modes)) {
    it(`every file kind × every damage × every operation (${modeName})`, async () => {
      segmentTuning.smallSegmentBytes = mode.smallSegmentBytes;
      const base = await built();
      const kinds = fileKinds(base);
      expect(kinds).toEqual(
        expect.arrayContaining([
          'seg-000001.docs.parquet',
          'seg-000001.sets',
          'seg-000001.sets.crc',
          'seg-000001.bands.idx',
          'seg-000001.sig.crc',
        ]),
      );
      const reference: Record<string, Outcome> = {};
      for (const [name, operation] of Object.entries(operations)) {
        const clean = scratch(`clean-${name}`);
        cpSync(base, clean, { recursive: true });
        reference[name] = await operation(clean, mode.options);
      }
      const tally = { named: 0, unaffected: 0 };
      for (const file of kinds) {
        for (const [damageName, damage] of Object.entries(damages)) {
          for (const [name, operation] of Object.entries(operations)) {
            const dir = scratch('damaged');
            cpSync(base, dir, { recursive: true });
            damage(join(dir, file));
            const what = `${file}, ${damageName}, ${name}`;
            let outcome: Outcome | undefined;
            try {
              outcome = await operation(dir, mode.options);
            } catch (error) {
              expect(
                error instanceof CorruptIndexError || error instanceof IndexFormatError,
                `${what}: ${String(error)}`,
              ).toBe(true);
              expect((error as Error).message, what).toContain(file);
              expect((error as Error).message.split('\n'), what).toHaveLength(1);
              tally.named++;
            }
            // Served or written as if undamaged: the very answer, the very files.
            if (outcome !== undefined) {
              expect(outcome, what).toEqual(reference[name]);
              tally.unaffected++;
            }
            rmSync(dir, { recursive: true, force: true });
          }
        }
      }
      // Most damage is met (every operation opens the index); some is not needed by a lazy reader.
      expect(tally.named).toBeGreaterThan(tally.unaffected);
    }, 120_000);
  }
});
