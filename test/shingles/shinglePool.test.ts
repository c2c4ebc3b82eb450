import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ShinglePool, splitByLength } from '../../src/shingles/shinglePool.js';
import { DEFAULT_SHINGLE, shingleDocument } from '../../src/shingles/shingles.js';

const texts = gunzipSync(readFileSync('data/sample.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 200)
  .map((line) => (JSON.parse(line) as { text: string }).text);

describe('ShinglePool', () => {
  it('gives the inline shingle sets, in order, from worker threads', async () => {
    const pool = new ShinglePool(3);
    try {
      const all = [...texts, '', 'one two', '日本語のテキスト'];
      expect(all.reduce((n, t) => n + t.length, 0)).toBeGreaterThan(1 << 16); // really goes to the workers
      for (const options of [DEFAULT_SHINGLE, { ...DEFAULT_SHINGLE, mode: 'auto' as const, n: 3 }]) {
        const sets = await pool.shingleAll(all, options);
        expect(sets).toHaveLength(all.length);
        sets.forEach((set, i) => expect(set, `text ${i}`).toEqual(shingleDocument(all[i], options)));
      }
    } finally {
      pool.destroy();
    }
  });

  it('rejects, instead of waiting forever, once a worker has died', async () => {
    const pool = new ShinglePool(2);
    try {
      await pool.shingleAll(texts, DEFAULT_SHINGLE); // starts the workers (they start on the first request)
      const worker = (pool as unknown as { pool: { workers: import('node:worker_threads').Worker[] } }).pool.workers[1];
      await worker.terminate();
      await expect(pool.shingleAll(texts, DEFAULT_SHINGLE)).rejects.toThrow(/shingle pool worker exited/);
    } finally {
      pool.destroy();
    }
  });

  it('cuts texts into contiguous runs that cover all of them', () => {
    const lengths = ['a', 'bbbbbbbbbb', '', 'cc', 'dddddddddddddddddddd', 'e'];
    for (const parts of [1, 2, 3, 6, 10]) {
      const runs = splitByLength(lengths, parts);
      expect(runs[0][0]).toBe(0);
      expect(runs[runs.length - 1][1]).toBe(lengths.length);
      runs.forEach(([from, to], i) => {
        expect(to).toBeGreaterThan(from);
        if (i > 0) expect(from).toBe(runs[i - 1][1]);
      });
      expect(runs.length).toBeLessThanOrEqual(parts);
    }
  });
});
