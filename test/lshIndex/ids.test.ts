/**
 * Ids that differ only in a lone surrogate (issue 31, item 6): "\ud800" and
 * "\ufffd" both went into an index as the same stored id (UTF-8 has no lone
 * surrogate: it becomes U+FFFD), and dedup called them one id. Such ids are
 * refused everywhere ids are keys — the index (library, /add), dedup, sign,
 * index add and remove — with one line naming the file and line, as a
 * JSON → UTF-8 pipeline would; the two ids themselves are told apart.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dedup } from '../../src/api.js';
import { createIndex } from '../../src/lshIndex/diskIndex.js';
import { IndexIdError } from '../../src/lshIndex/errors.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { startServer } from '../../src/server/http.js';
import { tempDir, runCliHere } from '../support/cli.js';

const TEXT = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
const OTHER = 'one two three four five six seven eight nine ten eleven';
/** JSON Lines whose first id is a lone surrogate, written as JSON writes it (an escape). */
const LINES = `{"id":"\\ufffd","text":"${OTHER}"}\n{"id":"x\\ud800","text":"${TEXT}"}\n`;

describe('ids that are not valid Unicode are refused', () => {
  it('by the index (on disk and in memory), naming the document', async () => {
    const index = await createIndex(join(tempDir(), 'idx'));
    const add = index.add([
      { id: '\ufffd', text: OTHER },
      { id: 'x\ud800', text: TEXT },
    ]);
    await expect(add).rejects.toBeInstanceOf(IndexIdError);
    await expect(index.add([{ id: 'x\ud800', text: TEXT }])).rejects.toThrow(
      /document 1 of the add: its id is not valid Unicode: it holds a lone surrogate \(\\ud800 at UTF-16 unit 1\)/,
    );
    expect((await index.stats()).documents).toBe(0); // refused before any work
    await index.add([
      { id: '\ufffd', text: OTHER },
      { id: '\ud83d\ude00', text: TEXT },
    ]); // U+FFFD and a pair are valid
    expect((await index.stats()).documents).toBe(2);
    await index.close();
    const memory = createMemoryIndex({ signer: inlineIndexSigner(resolveParameters({})) });
    await expect(memory.add([{ id: '\udc00', text: TEXT }])).rejects.toThrow(
      /lone surrogate \(\\udc00 at UTF-16 unit 0\)/,
    );
  });

  it('by /add: 400, naming the document', async () => {
    const memory = createMemoryIndex({ signer: inlineIndexSigner(resolveParameters({})) });
    const server = await startServer(
      { reader: memory, writer: memory },
      { host: '127.0.0.1', port: 0, maxBody: 2 ** 20, queue: 4 },
    );
    try {
      const response = await fetch(`${server.url}/add`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: `{"documents":[{"id":"\\ud800","text":"${TEXT}"}]}`,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatch(/document 1 of the add: its id is not valid Unicode/);
    } finally {
      await server.stop(1000);
    }
  });

  it('by dedup in the library, naming the document', async () => {
    const run = dedup(
      [
        { id: 'a', text: OTHER },
        { id: '\ud800', text: TEXT },
      ],
      { backend: 'cpu' },
    );
    await expect(run).rejects.toThrow(/document 2: its id is not valid Unicode/);
  });

  for (const command of [
    ['dedup', '-o', 'OUT.jsonl'],
    ['sign', '-o', 'OUT.npy'],
    ['index', 'create', 'IDX'],
  ]) {
    it(`by ${command.slice(0, 2).join(' ')} on the command line: one line naming the file and line`, async () => {
      const dir = tempDir();
      const input = join(dir, 'a.jsonl');
      writeFileSync(input, LINES);
      const args = command.map((a) => (/^(OUT|IDX)/.test(a) ? join(dir, a) : a));
      const result = await runCliHere(
        command[0] === 'index' ? [...args, input] : [command[0], input, ...args.slice(1)],
      );
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(
        new RegExp(
          `${input.replace(/[.]/g, '\\.')}:2: id field "id" is not valid Unicode: it holds a lone surrogate \\(\\\\ud800 at UTF-16 unit 1\\)`,
        ),
      );
      expect(result.stderr).not.toMatch(/repeats the id/);
    });
  }

  it('by index remove --ids, naming the file and line', async () => {
    const dir = tempDir();
    const idx = join(dir, 'idx');
    await (await createIndex(idx)).close();
    const ids = join(dir, 'ids.jsonl');
    writeFileSync(ids, '{"id":"a"}\n{"id":"\\udfff"}\n');
    const result = await runCliHere(['index', 'remove', idx, '--ids', ids]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(new RegExp(`${ids.replace(/[.]/g, '\\.')}:2: "id" is not valid Unicode`));
  });
});
