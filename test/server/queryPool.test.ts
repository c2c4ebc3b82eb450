/**
 * The server's query threads (`serve --threads N`): every kind of query
 * (threshold, top-K, containment, a short query, a bad option) answers
 * exactly as the same index read on this thread; after a write and
 * `refresh()`, every thread sees it; close() ends the threads. The threads
 * run the build in dist/ (workerScript.ts), as the CLI does.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import type { QueryOptions } from '../../src/lshIndex/types.js';
import { QueryPool } from '../../src/server/queryPool.js';
import { errorReply } from '../../src/server/routes.js';
import { familyCorpus } from '../lshIndex/queryCorpus.js';
import { tempDir } from '../support/tempDirs.js';

const family = familyCorpus(1, 10, 4);
const short = family.queries.map((q) => q.text.split(' ').slice(40, 56).join(' '));
const texts = [...family.queries.map((q) => q.text), ...family.indexed.slice(0, 4).map((d) => d.text), ...short];
const kinds: readonly QueryOptions[] = [
  {},
  { top: 1 },
  { top: 10 },
  { top: 10, rerank: 'estimate' },
  { containment: 0.5 },
];

describe('QueryPool', () => {
  it('answers as the index on this thread; after a write and refresh every thread sees it', async () => {
    const dir = join(tempDir(), 'index');
    const writer = await createIndex(dir, { backend: 'cpu', threads: 1 });
    await writer.add(family.indexed, { all: true });
    const reader = await openIndex(dir, { readOnly: true, backend: 'cpu', threads: 1 });
    const pool = await QueryPool.open({ dir, backend: 'cpu' }, 2, reader);
    try {
      expect(pool.size).toBe(2);
      for (const options of kinds) {
        const expected = await reader.query(texts, options);
        expect(expected.some((r) => r.matches.length > 0)).toBe(true);
        // Both threads at once (the fewest in flight, then the next in turn): each answers every text alike.
        const answers = await Promise.all([pool.query(texts, options), pool.query(texts, options)]);
        for (const answer of answers) expect(answer, JSON.stringify(options)).toEqual(expected);
        // One text a query, many in flight: spread over both threads, each answer its own.
        const one = await Promise.all(texts.map((text) => pool.query([text], options)));
        expect(one.map((r) => r[0])).toEqual(expected);
      }
      // An option the index refuses: the same error, its class kept for the reply's status.
      const refused = await reader.query(texts, { top: 0 }).catch((error: unknown) => error);
      const pooled = await pool.query(texts, { top: 0 }).catch((error: unknown) => error);
      expect(pooled).toBeInstanceOf(Error);
      expect((pooled as Error).name).toBe((refused as Error).name);
      expect((pooled as Error).message).toBe((refused as Error).message);
      expect(errorReply(pooled)).toEqual(errorReply(refused));

      const added = { id: 'added-later', text: `${family.queries[0].text} one more` };
      expect((await writer.add([added], { all: true })).added).toBe(1);
      await pool.refresh();
      const after = await Promise.all([0, 1, 2, 3].map(() => pool.query([added.text])));
      for (const [result] of after) expect(result.matches.map((m) => m.id)).toContain('added-later');
      await writer.remove(['added-later']);
      await pool.refresh();
      const removed = await Promise.all([0, 1].map(() => pool.query([added.text], { top: 50 })));
      for (const [result] of removed) expect(result.matches.map((m) => m.id)).not.toContain('added-later');
      expect(pool.failure).toBeUndefined();
      expect(await pool.stats()).toEqual(await reader.stats());
    } finally {
      await pool.close();
      await reader.close();
      await writer.close();
    }
  }, 60_000);

  it('refuses a size below 1; opening a directory that is not an index fails and leaves no thread', async () => {
    const dir = join(tempDir(), 'index');
    const writer = await createIndex(dir, { backend: 'cpu', threads: 1 });
    await writer.close();
    const reader = await openIndex(dir, { readOnly: true, backend: 'cpu', threads: 1 });
    try {
      await expect(QueryPool.open({ dir, backend: 'cpu' }, 0, reader)).rejects.toThrow(/at least 1/);
      await expect(QueryPool.open({ dir: join(dir, 'none'), backend: 'cpu' }, 2, reader)).rejects.toThrow();
    } finally {
      await reader.close();
    }
  });
});
