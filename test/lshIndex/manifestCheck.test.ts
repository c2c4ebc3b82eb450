/**
 * Opening what is not an index this gpudedup reads — another format, another
 * version, a directory without a manifest, a manifest missing a field or
 * holding a bad parameter — fails with one line naming the directory and
 * what was found (IndexFormatError), never a TypeError: on disk (writer and
 * reader), from the files' bytes (the tab's openIndexSnapshot), and in the CLI.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { crc32 } from '../../src/lshIndex/crc32.js';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { CorruptIndexError, IndexFormatError } from '../../src/lshIndex/errors.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { openIndexSnapshot } from '../../src/lshIndex/snapshot.js';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/tempDirs.js';

let good: string;
const root = tempDir();

beforeAll(async () => {
  good = join(root, 'good');
  const index = await createIndex(good, { threshold: 0.7 });
  await index.add([
    { id: 'a', text: 'the quick brown fox jumps over the lazy dog again and again' },
    { id: 'b', text: 'a completely different sentence about something else entirely here' },
  ]);
  await index.close();
});

type Json = Record<string, unknown>;

/** A copy of the good index with its manifest edited (and its checksum made right again, unless `keepChecksum`). */
function edited(name: string, edit: (m: Json) => unknown, keepChecksum = false): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const file of readdirSync(good))
    if (file !== 'manifest.json') writeFileSync(join(dir, file), readFileSync(join(good, file)));
  const { checksum, ...rest } = JSON.parse(readFileSync(join(good, 'manifest.json'), 'utf8')) as Json;
  const next = edit(structuredClone(rest));
  const isObject = typeof next === 'object' && next !== null && !Array.isArray(next);
  const text =
    isObject && !keepChecksum
      ? JSON.stringify(
          { ...next, checksum: { crc32: crc32(new TextEncoder().encode(JSON.stringify(next, null, 1))) } },
          null,
          1,
        )
      : JSON.stringify(isObject ? { ...next, checksum } : next);
  writeFileSync(join(dir, 'manifest.json'), text);
  return dir;
}

/** What each way of opening `dir` throws. */
async function failures(dir: string): Promise<unknown[]> {
  const read = async (name: string) => new Uint8Array(readFileSync(join(dir, name)));
  const opens = [
    () => openIndex(dir, { readOnly: true }),
    () => openIndex(dir),
    () => openIndexSnapshot(read, (p) => inlineIndexSigner(p), { name: dir }),
  ];
  const thrown: unknown[] = [];
  for (const open of opens)
    thrown.push(
      await open().then(
        async (index) => (await index.close(), 'opened'),
        (error: unknown) => error,
      ),
    );
  return thrown;
}

async function expectFormatError(dir: string, message: string | RegExp): Promise<void> {
  for (const error of await failures(dir)) {
    expect(error).toBeInstanceOf(IndexFormatError);
    expect((error as IndexFormatError).dir).toBe(dir);
    expect((error as Error).message).not.toContain('\n');
    if (typeof message === 'string') expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
  }
  expect(existsSync(join(dir, 'writer.lock'))).toBe(false);
}

describe('opening what is not an index this gpudedup reads', () => {
  it('another format version, or none', async () => {
    const v2 = edited('v2', (m) => ({ ...m, version: 2 }));
    await expectFormatError(v2, `${v2} is a gpudedup index with format version 2: this gpudedup reads version 1`);
    const none = edited('noversion', ({ version: _, ...m }) => m);
    await expectFormatError(none, `${none} is a gpudedup index with no "version" field: this gpudedup reads version 1`);
    const text = edited('textversion', (m) => ({ ...m, version: '1' }));
    await expectFormatError(
      text,
      `${text} is a gpudedup index with format version the string "1": this gpudedup reads version 1`,
    );
  });

  it('another format, or a manifest that is not an object', async () => {
    const other = edited('other', (m) => ({ ...m, format: 'datasketch-lsh' }));
    await expectFormatError(
      other,
      `${other} is not a gpudedup index: its manifest.json has format "datasketch-lsh" (an index's is "gpudedup-index")`,
    );
    const noFormat = edited('noformat', ({ format: _, ...m }) => m);
    await expectFormatError(
      noFormat,
      `${noFormat} is not a gpudedup index: its manifest.json has no "format" field (an index's is "gpudedup-index")`,
    );
    for (const [name, value, kind] of [
      ['array', [], 'an array'],
      ['null', null, 'null'],
      ['number', 3, 'the number 3'],
    ] as const) {
      const dir = edited(name, () => value);
      await expectFormatError(
        dir,
        `${dir} is not a gpudedup index: its manifest.json holds ${kind}, not a manifest object`,
      );
    }
  });

  it('a manifest missing a field (or with one of the wrong kind) names the field', async () => {
    const cases: [string, (m: Json) => unknown, string][] = [
      ['nosegments', ({ segments: _, ...m }) => m, '"segments" is missing (expected an array)'],
      ['noparameters', ({ parameters: _, ...m }) => m, '"parameters" is missing (expected an object)'],
      [
        'nok',
        (m) => ({ ...m, parameters: { ...(m.parameters as Json), k: undefined } }),
        '"parameters.k" is missing (expected a value)',
      ],
      ['nodocuments', (m) => ({ ...m, documents: -1 }), '"documents" is the number -1 (expected a count)'],
      [
        'noids',
        (m) => ({
          ...m,
          segments: [
            { ...(m.segments as Json[])[0], files: { ...((m.segments as Json[])[0].files as Json), ids: 'x' } },
          ],
        }),
        '"segments[0].files.ids" is the string "x" (expected a file entry { name, bytes, crc32 })',
      ],
    ];
    for (const [name, edit, found] of cases) {
      const dir = edited(name, edit);
      await expectFormatError(dir, `${dir}/manifest.json is not a complete index manifest: ${found}`);
    }
    // The on-disk index also needs each segment's block checksums; the snapshot does not read them.
    const dir = edited('nobandindex', (m) => ({
      ...m,
      segments: [
        { ...(m.segments as Json[])[0], files: { ...((m.segments as Json[])[0].files as Json), bandIndex: undefined } },
      ],
    }));
    const [reader, writer, snapshot] = await failures(dir);
    for (const error of [reader, writer])
      expect((error as Error).message).toBe(
        `${dir}/manifest.json is not a complete index manifest: "segments[0].files.bandIndex" is missing (expected a file entry { name, bytes, crc32 })`,
      );
    expect(snapshot).toBe('opened');
  });

  it('a parameter the options table refuses names the manifest', async () => {
    const dir = edited('badk', (m) => ({ ...m, parameters: { ...(m.parameters as Json), k: 100000 } }));
    await expectFormatError(dir, `${dir}/manifest.json: parameters: k must be an integer from 1 to 4096, got 100000`);
  });

  it('a directory that is not an index, a missing one, a file', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const [reader, writer, snapshot] = await failures(empty);
    for (const error of [reader, writer])
      expect(error).toEqual(
        new IndexFormatError(
          empty,
          `${empty} is not an index (no manifest.json): create one with createIndex / gpudedup index create`,
        ),
      );
    expect(snapshot).toBeInstanceOf(IndexFormatError);
    expect((snapshot as Error).message).toMatch(
      new RegExp(`^${empty} is not an index: no manifest.json could be read \\(ENOENT`),
    );
    expect(readdirSync(empty)).toEqual([]); // no writer.lock made (or left) in what is not an index
    const missing = join(root, 'missing');
    for (const open of [() => openIndex(missing), () => openIndex(missing, { readOnly: true })])
      await expect(open()).rejects.toThrow(`${missing} is not an index: it does not exist`);
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    for (const open of [() => openIndex(file), () => openIndex(file, { readOnly: true })])
      await expect(open()).rejects.toThrow(`${file} is not an index: it is a file, not a directory`);
  }, 20_000);

  it('a changed manifest with its old checksum is still a CorruptIndexError; the good index opens', async () => {
    const dir = edited('stale', (m) => ({ ...m, generation: 7 }), true);
    for (const error of await failures(dir)) expect(error).toBeInstanceOf(CorruptIndexError);
    expect(await failures(good)).toEqual(['opened', 'opened', 'opened']);
  });

  it('the CLI prints the one line and fails', async () => {
    const dir = edited('cli-v2', (m) => ({ ...m, version: 2 }));
    for (const args of [
      ['index', 'stats', dir],
      ['query', dir, '-'],
    ]) {
      const result = await runCli(args, '{"id":"q","text":"x y z"}\n');
      expect(result.code).not.toBe(0);
      expect(result.stderr).toBe(
        `gpudedup: ${dir} is a gpudedup index with format version 2: this gpudedup reads version 1\n`,
      );
    }
  }, 30_000);
});
