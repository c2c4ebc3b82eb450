/**
 * The index's messages (issue 31, item 12), each as the CLI or the server
 * prints it: one line naming the file and what is wrong, never a raw system
 * error, a value it did not get, or a flag that was never given.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex } from '../../src/lshIndex/diskIndex.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { startServer } from '../../src/server/http.js';
import { CLI, runCli, tempDir, runCliHere } from '../support/cli.js';

const LINES = [
  'alpha beta gamma delta epsilon zeta eta theta iota',
  'alpha beta gamma delta epsilon zeta eta theta iota',
  'one two three four five six seven eight nine',
]
  .map((text, i) => JSON.stringify({ id: `d${i}`, text }))
  .join('\n');

let created: Promise<string> | undefined;

/**
 * An index of the three lines (two added, one a duplicate), and the corpus file. `gpudedup index create` makes it
 * once per file; each test gets a copy of its own to change or break (the index holds no path of its own).
 */
async function indexed(): Promise<{ dir: string; idx: string; corpus: string }> {
  created ??= (async () => {
    const dir = tempDir();
    const corpus = join(dir, 'a.jsonl');
    writeFileSync(corpus, `${LINES}\n`);
    const idx = join(dir, 'idx');
    const result = await runCli(['index', 'create', idx, corpus]);
    expect(result.code, result.stderr).toBe(0);
    return idx;
  })();
  const made = await created;
  const dir = tempDir();
  const corpus = join(dir, 'a.jsonl');
  writeFileSync(corpus, `${LINES}\n`);
  const idx = join(dir, 'idx');
  cpSync(made, idx, { recursive: true });
  return { dir, idx, corpus };
}

/** The CLI's one error line (progress and notes aside). */
const errorLine = (stderr: string): string => {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('gpudedup:') || l.startsWith('error:'));
  expect(lines, stderr).toHaveLength(1);
  return lines[0];
};

describe('index messages', () => {
  it('a missing segment file is named as such, not a raw ENOENT', async () => {
    const { idx } = await indexed();
    rmSync(join(idx, 'seg-000001.sig'));
    const result = await runCli(['query', idx, '-'], `${JSON.stringify({ text: 'alpha beta' })}\n`);
    expect(result.code).not.toBe(0);
    expect(errorLine(result.stderr)).toBe(
      `gpudedup: corrupt index: ${join(idx, 'seg-000001.sig')}: missing: the manifest names it, but the file is not there`,
    );
  });

  it('a truncated .sets and a changed file: their sizes, and checksums in hex', async () => {
    const { idx } = await indexed();
    const sets = join(idx, 'seg-000001.sets');
    const size = readFileSync(sets).length;
    truncateSync(sets, 10);
    const truncated = await runCli(['index', 'stats', idx]);
    expect(errorLine(truncated.stderr)).toBe(
      `gpudedup: corrupt index: ${sets}: 10 bytes, the manifest records ${size}: the file was truncated after it was written`,
    );
    const again = await indexed();
    const ids = join(again.idx, 'seg-000001.ids');
    const bytes = readFileSync(ids);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(ids, bytes);
    const changed = await runCli(['index', 'stats', again.idx]);
    expect(errorLine(changed.stderr)).toMatch(
      /seg-000001\.ids: checksum mismatch \(CRC-32 [0-9a-f]{8}, the manifest records [0-9a-f]{8}\): the file changed after it was written$/,
    );
  });

  it('a manifest without a checksum says so (not "recorded undefined"); a changed one in hex', async () => {
    const { idx } = await indexed();
    const path = join(idx, 'manifest.json');
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, JSON.stringify({ ...manifest, checksum: undefined }, null, 1));
    const missing = await runCli(['index', 'stats', idx]);
    expect(errorLine(missing.stderr)).toMatch(
      /manifest\.json: it has no checksum \("checksum": \{ "crc32": … \} is missing\)/,
    );
    writeFileSync(path, JSON.stringify({ ...manifest, documents: 5 }, null, 1));
    const changed = await runCli(['index', 'stats', idx]);
    expect(errorLine(changed.stderr)).toMatch(
      /manifest\.json: checksum mismatch \(CRC-32 [0-9a-f]{8}, recorded [0-9a-f]{8}\)/,
    );
  });

  it('a missing --ids file is named, not a raw ENOENT', async () => {
    const { dir, idx } = await indexed();
    const result = await runCli(['index', 'remove', idx, '--ids', join(dir, 'nope.txt')]);
    expect(errorLine(result.stderr)).toBe(
      `gpudedup: ${join(dir, 'nope.txt')}: no such file or directory (ENOENT, access)`,
    );
  });

  it('--top abc says "abc", not NaN; --scheme datasketch-affine32 is not refused for a --slot-bits never given', async () => {
    const { idx, corpus } = await indexed();
    const top = await runCliHere(['query', idx, corpus, '--top', 'abc']);
    expect(top.stderr).toMatch(/top must be an integer from 1 to 10000, got "abc"/);
    expect(top.stderr).not.toMatch(/NaN/);
    const datasketch = await runCli(['index', 'create', join(tempDir(), 'ds'), '--scheme', 'datasketch-affine32']);
    expect(datasketch.code, datasketch.stderr).toBe(0);
    const refused = await runCli([
      'index',
      'create',
      join(tempDir(), 'ds'),
      '--scheme',
      'datasketch-affine32',
      '--slot-bits',
      '64',
    ]);
    expect(errorLine(refused.stderr)).toMatch(/datasketch-affine32 keeps 32-bit slots .*not --slot-bits 64/);
  });

  it('a re-run of an add that committed says what most likely happened', async () => {
    const { idx, corpus } = await indexed();
    const rerun = await runCli(['index', 'add', idx, corpus]);
    expect(errorLine(rerun.stderr)).toMatch(
      /a\.jsonl:1: id "d0" is already in the index: .* \(2 of the add's 3 ids are in the index already: was this add run before\?/,
    );
  });

  it.runIf(process.getuid?.() === 0)(
    'a read-only directory: the writer lock refused in words, not a raw EACCES (as another user)',
    async () => {
      const { dir, idx, corpus } = await indexed();
      chmodSync(dir, 0o755);
      chmodSync(idx, 0o555);
      chmodSync(corpus, 0o644);
      const run = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI, 'index', 'add', idx, corpus],
        { encoding: 'utf8' },
      );
      chmodSync(idx, 0o755);
      expect(errorLine(run.stderr)).toBe(
        `gpudedup: ${idx}: cannot take the writer lock (${join(idx, 'writer.lock')}: permission denied): writing needs a directory this user may write; to query or inspect, open it read-only`,
      );
    },
  );

  it('a wrong token is told apart from a missing one', async () => {
    const memory = createMemoryIndex({ signer: inlineIndexSigner(resolveParameters({})) });
    const server = await startServer(
      { reader: memory, writer: memory },
      { host: '127.0.0.1', port: 0, maxBody: 2 ** 20, queue: 4, token: 'right' },
    );
    try {
      const missing = await fetch(`${server.url}/stats`);
      expect(missing.status).toBe(401);
      expect((await missing.json()).error).toMatch(/^a bearer token is needed/);
      const wrong = await fetch(`${server.url}/stats`, { headers: { Authorization: 'Bearer wrong' } });
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).error).toMatch(/^the bearer token sent is not this server's/);
    } finally {
      await server.stop(1000);
    }
  });

  it('the library names a missing segment too', async () => {
    const dir = join(tempDir(), 'lib');
    const index = await createIndex(dir);
    await index.add([{ id: 'a', text: 'some words of a document' }]);
    await index.close();
    rmSync(join(dir, 'seg-000001.docs.parquet'));
    const { openIndex } = await import('../../src/lshIndex/diskIndex.js');
    await expect(openIndex(dir)).rejects.toThrow(
      `corrupt index: ${join(dir, 'seg-000001.docs.parquet')}: missing: the manifest names it, but the file is not there`,
    );
  });
});
