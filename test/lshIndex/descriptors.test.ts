/**
 * Descriptors (issue 31, item 8): each add left a segment holding three
 * descriptors and nothing merged them, so under `ulimit -n 256` a writer
 * failed with EMFILE after a few dozen adds (serve: 500 to every /add after
 * the 37th while /health said ok), and an index of 1,000 segments could not
 * even be opened to compact it. Real processes under a real limit (bash's
 * ulimit): 1,000 adds through the library, then the CLI, then 1,000 /adds
 * to `serve` on loopback; each bounded in time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../support/cli.js';
import { postJson, startServe } from '../support/serveProcess.js';

/** The index in memory where the system has it: 1,000 commits fsync, which a disk makes slow. */
const root = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/gpudedup-fds-') : tempDir();
afterAll(() => rmSync(root, { recursive: true, force: true }));

const LIMIT = 256;
const ADDS = 1000;
const underLimit = (command: string): string[] => ['-c', `ulimit -n ${LIMIT} && exec ${command}`];
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A script that adds ADDS one-document adds to a new index at argv[2], then prints its stats and its own open descriptors. */
const ADDER = `
import { readdirSync } from 'node:fs';
import { createIndex } from ${JSON.stringify(join(process.cwd(), 'dist/src/lshIndex/diskIndex.js'))};
const index = await createIndex(process.argv[2], { k: 64, threads: 1, backend: 'cpu' });
let most = 0;
for (let i = 0; i < ${ADDS}; i++) {
  await index.add([{ id: 'doc-' + i, text: 'document ' + i + ' of words ' + (i * 7919 % 10007) + ' and ' + (i * 104729 % 1299709) + ' apart' }]);
  if (i % 100 === 99) most = Math.max(most, readdirSync('/proc/self/fd').length);
}
const stats = await index.stats();
console.log(JSON.stringify({ documents: stats.documents, segments: stats.segments, most, problem: index.writeProblem ?? null }));
await index.close();
`;

describe(`under ulimit -n ${LIMIT}`, () => {
  it(`${ADDS} adds through the library, then the CLI opens the index and compacts it`, () => {
    const dir = join(root, 'library');
    const script = join(tempDir(), 'adder.mjs');
    writeFileSync(script, ADDER);
    const run = spawnSync('bash', underLimit(`${quote(process.execPath)} ${quote(script)} ${quote(dir)}`), {
      encoding: 'utf8',
      timeout: 150_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ documents: ADDS, problem: null });
    expect(result.segments).toBeLessThanOrEqual(40); // merged: at most 9 per level of 1, 10, 100 and 1,000 rows
    expect(result.most).toBeLessThan(64); // small segments are held in memory: no descriptor each
    const cli = (args: string): ReturnType<typeof spawnSync> =>
      spawnSync('bash', underLimit(`${quote(process.execPath)} ${quote(CLI)} ${args}`), {
        encoding: 'utf8',
        timeout: 60_000,
      });
    const stats = cli(`index stats ${quote(dir)} --json`);
    expect(stats.stderr).toBe('');
    expect(JSON.parse(stats.stdout as string).documents).toBe(ADDS);
    const compact = cli(`index compact ${quote(dir)}`);
    expect(compact.status, String(compact.stderr)).toBe(0);
  }, 200_000);

  it(`serve takes ${ADDS} /adds, one document each, and stays healthy`, async () => {
    const dir = join(root, 'served');
    const created = spawnSync(process.execPath, [CLI, 'index', 'create', dir, '--k', '64'], { encoding: 'utf8' });
    expect(created.status, created.stderr).toBe(0);
    const served = await startServe([
      'bash',
      ...underLimit(`${quote(process.execPath)} ${quote(CLI)} serve ${quote(dir)} --port 0 --threads 1`),
    ]);
    const { url } = served;
    try {
      const deadline = Date.now() + 150_000;
      for (let i = 0; i < ADDS && Date.now() < deadline; i++) {
        const reply = await postJson(`${url}/add`, {
          documents: [
            {
              id: `doc-${i}`,
              text: `served document ${i} with words ${(i * 7919) % 10007} and ${(i * 104729) % 1299709}`,
            },
          ],
        });
        expect(reply.status, `add ${i}: ${JSON.stringify(reply.body)}`).toBe(200);
      }
      const stats = await (await fetch(`${url}/stats`)).json();
      expect(stats.documents).toBe(ADDS);
      expect(stats.segments).toBeLessThanOrEqual(40);
      expect((await fetch(`${url}/health`)).status).toBe(200);
    } finally {
      await served.stop();
    }
  }, 240_000);
});
