/**
 * `gpudedup serve --threads 2` (query threads, src/server/queryPool.ts)
 * against `--threads 1` (queries on the server's thread) on the same index:
 * every kind of query gets the same reply, byte for byte, however the
 * queries are spread over the threads; after an /add answered, every
 * thread's answer holds the new document; /health and /stats as with one;
 * a --read-only server's threads follow another writer's commits.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex } from '../../src/lshIndex/diskIndex.js';
import { familyCorpus } from '../lshIndex/queryCorpus.js';
import { CLI, tempDir } from '../support/cli.js';
import { startServe } from '../support/serveProcess.js';

const family = familyCorpus(2, 10, 4);
const short = family.queries.map((q) => q.text.split(' ').slice(30, 46).join(' '));
const texts = [...family.queries.map((q) => q.text), ...family.indexed.slice(0, 3).map((d) => d.text), ...short];
const bodies = [{}, { top: 1 }, { top: 10 }, { top: 5, rerank: 'estimate' }, { containment: 0.6 }, { top: 0 }].flatMap(
  (fields) => [{ texts, ...fields }, ...texts.map((text, i) => ({ documents: [{ id: `q${i}`, text }], ...fields }))],
);

/** The status and the reply's text of each body, posted all at once (16 at a time). */
async function replies(url: string, list: readonly unknown[]): Promise<string[]> {
  const out: string[] = [];
  for (let at = 0; at < list.length; at += 16) {
    const batch = list.slice(at, at + 16).map(async (body) => {
      const response = await fetch(`${url}/query`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return `${response.status} ${await response.text()}`;
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** `gpudedup serve DIR` on a free loopback port, with `flags`. */
const serve = (dir: string, ...flags: string[]) =>
  startServe([process.execPath, CLI, 'serve', dir, '--port', '0', ...flags]);

describe('serve --threads 2', () => {
  it('answers every query as --threads 1 does; after an /add every thread sees it', async () => {
    const dir = join(tempDir(), 'index');
    const index = await createIndex(dir, { backend: 'cpu', threads: 1 });
    await index.add(family.indexed, { all: true });
    await index.close();
    const pooled = await serve(dir, '--threads', '2');
    const single = await serve(dir, '--threads', '1', '--read-only');
    try {
      const expected = await replies(single.url, bodies);
      expect(expected.filter((r) => r.startsWith('200 ')).length).toBe(bodies.length - texts.length - 1);
      expect(expected.some((r) => r.startsWith('400 '))).toBe(true); // top 0, refused alike
      expect(await replies(pooled.url, bodies)).toEqual(expected);
      expect(await replies(pooled.url, [...bodies].reverse())).toEqual([...expected].reverse());

      const added = { id: 'added-later', text: `${family.queries[1].text} and a few more words` };
      const add = await fetch(`${pooled.url}/add`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ documents: [added], all: true }),
      });
      expect(add.status).toBe(200);
      expect(((await add.json()) as { added: number }).added).toBe(1);
      // Eight at once: both threads answer some of them.
      const after = await replies(
        pooled.url,
        Array.from({ length: 8 }, () => ({ texts: [added.text], top: 3 })),
      );
      for (const reply of after) expect(reply).toMatch(/^200 .*"id":"added-later"/);
      const health = await fetch(`${pooled.url}/health`);
      expect(health.status).toBe(200);
      const stats = (await (await fetch(`${pooled.url}/stats`)).json()) as { documents: number };
      expect(stats.documents).toBe(family.indexed.length + 1);
    } finally {
      expect(await pooled.stop()).toBe(0);
      expect(await single.stop()).toBe(0);
    }
  }, 120_000);

  it("--read-only: every query thread follows another writer's commits", async () => {
    const dir = join(tempDir(), 'index');
    const writer = await createIndex(dir, { backend: 'cpu', threads: 1 });
    await writer.add(family.indexed.slice(0, 20), { all: true });
    const served = await serve(dir, '--threads', '2', '--read-only');
    try {
      const added = { id: 'from-another-writer', text: `${family.queries[2].text} written elsewhere` };
      await writer.add([added], { all: true });
      // The threads look for a new commit every second (REFRESH_MS): within a few, every thread answers with it.
      let seen: string[] = [];
      for (let tries = 0; tries < 50; tries++) {
        seen = await replies(
          served.url,
          Array.from({ length: 8 }, () => ({ texts: [added.text], top: 3 })),
        );
        if (seen.every((reply) => reply.includes('"id":"from-another-writer"'))) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (const reply of seen) expect(reply).toMatch(/^200 .*"id":"from-another-writer"/);
    } finally {
      expect(await served.stop()).toBe(0);
      await writer.close();
    }
  }, 60_000);
});
