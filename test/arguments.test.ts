/**
 * The library's entry points check their arguments at run time as the CLI
 * checks its flags (issue 31, items 4 and 13): a string is never iterated as
 * ids or texts, a misspelled option is refused before any work or lock, and a
 * bad document gets a message naming the call and the document.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createIndex,
  createMemoryIndex,
  dedup,
  inlineIndexSigner,
  minhash,
  openIndex,
  resolveIndexParameters,
  substrings,
} from '../src/index.js';
import { tempDir } from './support/tempDirs.js';

const docs = [
  { id: 'd', text: 'one two three four five six seven' },
  { id: 'o', text: 'eight nine ten eleven twelve thirteen' },
  { id: 'c', text: 'fourteen fifteen sixteen seventeen eighteen' },
  { id: 'doc', text: 'nineteen twenty twenty-one twenty-two twenty-three' },
];

/** The error a call throws (sync or async), or undefined. */
async function failure(call: () => unknown): Promise<Error | undefined> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe('an index never iterates a string as ids or texts', () => {
  it("remove('doc') is refused and removes nothing: not d, o and c (on disk and in memory)", async () => {
    const index = await createIndex(join(tempDir(), 'idx'), { verify: 'estimate' });
    const memory = createMemoryIndex({
      verify: 'estimate',
      signer: inlineIndexSigner(resolveIndexParameters({ verify: 'estimate' })),
    });
    for (const target of [index, memory]) {
      await target.add(docs);
      const error = await failure(() => target.remove('doc' as unknown as string[]));
      expect(error).toBeInstanceOf(TypeError);
      expect(error?.message).toBe('remove: expected an array of ids, got the string "doc"');
      expect((await target.stats()).documents).toBe(4);
      expect(await target.remove(['doc'])).toEqual({ removed: 1 });
    }
    await index.close();
  });

  it('query, add and the library functions refuse a string or a non-string item, naming the call', async () => {
    const index = await createIndex(join(tempDir(), 'idx'));
    const cases: [() => unknown, string][] = [
      [
        () => index.query('some text' as unknown as string[]),
        'query: expected an array of texts, got the string "some text"',
      ],
      [() => index.query(['a', 3 as unknown as string]), 'query: text 2 is not a string (got number)'],
      [() => index.add({ id: 'x', text: 'y' } as unknown as []), 'add: expected an array of documents, got object'],
      [
        () => index.add(['plain text' as unknown as { id: string; text: string }]),
        'add: document 1 must be { id: string, text: string }, got the string "plain text"',
      ],
      [
        () => index.add([{ id: 1, text: 'y' } as unknown as { id: string; text: string }]),
        // Issue 40, item 12: the message says the id is a number.
        'add: document 1 must be { id: string, text: string }, got { id, text } (its id is the number 1: ids are ' +
          'strings, give String(id))',
      ],
      [() => index.remove([7 as unknown as string]), 'remove: id 1 is not a string (got number)'],
      [
        () => minhash('abc' as unknown as string[], { backend: 'cpu' }),
        'minhash: expected an array of texts, got the string "abc"',
      ],
      [
        () => dedup([{ text: 'no id' } as unknown as string], { backend: 'cpu' }),
        'dedup: document 1 must be a string or { id: string, text: string }, got { text } (it has no id)',
      ],
      [() => dedup(null as unknown as string[]), 'dedup: expected an array of documents, got null'],
      [
        () => dedup(['a'], { against: 'b' as unknown as string[] }),
        'dedup: against: expected an array of documents, got the string "b"',
      ],
      [
        () => substrings('abc' as unknown as string[]),
        'substrings: expected an array of documents, got the string "abc"',
      ],
    ];
    for (const [call, message] of cases) {
      const error = await failure(call);
      expect(error, message).toBeInstanceOf(TypeError);
      expect(error?.message).toBe(message);
    }
    expect((await index.stats()).documents).toBe(0);
    await index.close();
  });
});

describe('unknown and contradictory options are refused in every entry point', () => {
  it('openIndex(dir, { readonly: true }) (a typo) is refused before taking the lock', async () => {
    const dir = join(tempDir(), 'idx');
    await (await createIndex(dir)).close();
    const error = await failure(() => openIndex(dir, { readonly: true } as never));
    expect(error?.message).toMatch(
      /^openIndex has no option "readonly"; its options are backend, threads, readOnly, expect, checksums$/,
    );
    expect(existsSync(join(dir, 'writer.lock'))).toBe(false);
    for (const [options, message] of [
      [{ readOnly: 'yes' }, 'readOnly must be true or false, got "yes"'],
      [{ checksums: 'never' }, 'checksums must be open or lazy or auto, got "never"'],
      [{ threads: 0 }, 'threads must be a positive integer, got 0'],
      [{ backend: 'gpu' }, 'backend must be one of auto, cpu or webgpu, got "gpu"'],
      [{ expect: { treshold: 0.5 } }, /^openIndex: expect has no option "treshold"/],
    ] as const) {
      const refused = await failure(() => openIndex(dir, options as never));
      if (typeof message === 'string') expect(refused?.message).toBe(message);
      else expect(refused?.message).toMatch(message);
      expect(existsSync(join(dir, 'writer.lock'))).toBe(false);
    }
    const reader = await openIndex(dir, { readOnly: true });
    await reader.close();
  });

  it("createIndex({ verify: 'exact', storeSets: false }) is refused as the CLI refuses --verify exact --no-store-sets", async () => {
    const dir = join(tempDir(), 'idx');
    const error = await failure(() => createIndex(dir, { verify: 'exact', storeSets: false }));
    expect(error?.message).toBe(
      'verify exact needs the shingle sets: drop storeSets: false, or choose verify hybrid or estimate',
    );
    expect(existsSync(join(dir, 'manifest.json'))).toBe(false);
    expect((await failure(() => createIndex(dir, { storeSets: 'no' } as never)))?.message).toBe(
      'storeSets must be true or false, got "no"',
    );
    expect((await failure(() => createIndex(dir, { readonly: true } as never)))?.message).toMatch(
      /^createIndex has no option "readonly"/,
    );
    expect((await failure(() => createIndex(dir, null as never)))?.message).toBe(
      'createIndex: expected an options object, got null',
    );
    expect((await failure(() => createMemoryIndex({ verify: 'exact', storeSets: false } as never)))?.message).toMatch(
      /^createMemoryIndex: expected a signer|verify exact needs/,
    );
    const index = await createIndex(dir, { verify: 'hybrid', storeSets: false });
    await index.close();
  });

  it('query and add options: unknown names and bad values refused through the options table', async () => {
    const index = await createIndex(join(tempDir(), 'idx'));
    expect((await failure(() => index.query(['a'], { tpo: 3 } as never)))?.message).toBe(
      'query has no option "tpo"; its options are top, containment, rerank',
    );
    expect((await failure(() => index.query(['a'], { top: 0 })))?.message).toBe(
      'top must be an integer from 1 to 10000, got 0',
    );
    expect((await failure(() => index.add(docs, { al: true } as never)))?.message).toBe(
      'add has no option "al"; its options are all',
    );
    expect((await failure(() => index.add(docs, { all: 'yes' } as never)))?.message).toBe(
      'all must be true or false, got "yes"',
    );
    expect((await index.stats()).documents).toBe(0);
    await index.close();
  });
});
