// runDedup's shingle sets for exact Jaccard: kept from the signing pass within a budget, else read again;
// the results are the same either way, and the second way reads only once more.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runDedup } from '../../src/pipeline/dedup.js';
import { tempDir } from '../support/cli.js';
import { testDedupConfig } from '../support/dedupConfig.js';

describe('runDedup with hybrid verification', () => {
  const dir = tempDir();
  const path = join(dir, 'corpus.jsonl');
  writeFileSync(path, gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean).slice(0, 200).join('\n') + '\n');
  const config = testDedupConfig([path]);

  it('gives the same clusters from kept shingle sets as from a pass over the corpus, which loads only margin pairs', async () => {
    const kept = await runDedup(config);
    const reread = await runDedup({ ...config, keepShingleSetsBytes: 0 });
    expect([...reread.assignment.cluster]).toEqual([...kept.assignment.cluster]);
    expect([...reread.assignment.kept]).toEqual([...kept.assignment.kept]);
    expect(reread.verified.decided).toEqual(kept.verified.decided);
    expect(kept.timings['load shingles']).toBeDefined();
    // Reading again: only the groups exact Jaccard needs, in one pass here (two at most).
    expect(reread.shingleSets.loads).toBeGreaterThanOrEqual(1);
    expect(reread.shingleSets.loads).toBeLessThanOrEqual(2);
    expect(reread.shingleSets.loaded).toBeGreaterThan(0);
    expect(reread.shingleSets.loaded).toBeLessThan(reread.signatures.count);
    const d = reread.verified.decided;
    expect(d.exactAccepted + d.exactRejected).toBeGreaterThan(0);
    expect(d.estimateAccepted + d.estimateRejected).toBeGreaterThan(0);
  });
});
