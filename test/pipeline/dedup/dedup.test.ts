// runDedup's shingle sets for exact Jaccard come from the first pass itself (held, or spilled past their
// share: setSpill.test.ts), whatever the number of threads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runDedup } from '../../../src/pipeline/dedup/dedup.js';
import { tempDir } from '../../support/cli.js';
import { testDedupConfig } from '../../support/dedupConfig.js';

describe('runDedup with hybrid verification', () => {
  const dir = tempDir();
  const path = join(dir, 'corpus.jsonl');
  writeFileSync(
    path,
    gunzipSync(readFileSync('data/sample.jsonl.gz'))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .slice(0, 200)
      .join('\n') + '\n',
  );
  const config = testDedupConfig([path]);

  it("keeps the first pass's shingle sets for exact Jaccard (no second pass), reading only those compared, on any number of threads", async () => {
    const one = await runDedup({ ...config, threads: 1 });
    const two = await runDedup({ ...config, threads: 2 });
    for (const run of [one, two]) {
      expect(run.timings['load shingles']).toBeDefined();
      expect(run.shingleSets.loads).toBe(0); // no load: each set is read where it lies when a comparison needs it
      expect(run.shingleSets.loaded).toBeGreaterThan(0);
      expect(run.shingleSets.loaded).toBeLessThan(run.signatures.count);
    }
    expect([...two.assignment.cluster]).toEqual([...one.assignment.cluster]);
    expect([...two.assignment.kept]).toEqual([...one.assignment.kept]);
    expect(two.verified.decided).toEqual(one.verified.decided);
    // The representative check: on the workers with two threads, here with one; the same comparisons and verdicts.
    const plain = (c: typeof one.clustering) => ({ ...c, representative: [...c.representative] });
    expect(plain(two.clustering)).toEqual(plain(one.clustering));
    expect(one.clustering.comparisons).toBeGreaterThan(0);
    expect(two.shingleSets).toEqual(one.shingleSets);
    const d = one.verified.decided;
    expect(d.exactAccepted + d.exactRejected).toBeGreaterThan(0);
    expect(d.estimateAccepted + d.estimateRejected).toBeGreaterThan(0);
  });
});
