// The library's dedup runs the stages after signing on worker threads as the CLI does (src/dedup/node/stageWorkers.ts):
// the same kept documents, clusters, pairs and decision counts on one thread and on several, for every verification.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dedup } from '../src/api.js';
import { runCli, tempDir } from './support/cli.js';
import { plantedCorpus } from './support/planted.js';

const corpus = plantedCorpus(37, 60, [1, 2, 3, 5, 8, 12, 20]);

describe('dedup in memory on stage workers', () => {
  it.each(['exact', 'hybrid', 'estimate'] as const)('%s verification: threads 1 and 3 decide alike', async (verify) => {
    const options = { backend: 'cpu', verify, clusterCheck: 'representative', threshold: 0.7 } as const;
    const one = await dedup(corpus.texts, { ...options, threads: 1 });
    const three = await dedup(corpus.texts, { ...options, threads: 3 });
    expect(three.assignment).toEqual(one.assignment);
    expect(three.verified).toEqual(one.verified);
    expect(three.candidateStats).toEqual(one.candidateStats);
    expect(three.clustering).toEqual(one.clustering);
    // The corpus plants near-duplicates: something to decide, and (exact, hybrid) exact Jaccard computed.
    expect(one.verified.a.length).toBeGreaterThan(50);
    if (verify !== 'estimate') expect(one.verified.decided.exactAccepted).toBeGreaterThan(0);
  });
});

describe('dedup in memory with scheme simhash', () => {
  it('keeps what `gpudedup dedup --scheme simhash` keeps, banded by maxHamming and decided by the angle', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const ids = corpus.texts.map((_, d) => `d${d}`);
    writeFileSync(input, corpus.texts.map((text, d) => JSON.stringify({ id: ids[d], text })).join('\n') + '\n');
    const kept = join(dir, 'kept.jsonl');
    const cli = await runCli([
      'dedup',
      input,
      '-o',
      kept,
      '--scheme',
      'simhash',
      '--max-hamming',
      '15',
      '--verify',
      'exact',
      '-q',
    ]);
    expect(cli.stderr).toBe('');
    const keptByCli = readFileSync(kept, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    const memory = await dedup(
      corpus.texts.map((text, d) => ({ id: ids[d], text })),
      { scheme: 'simhash', maxHamming: 15, verify: 'exact', backend: 'cpu' },
    );
    expect(ids.filter((_, d) => memory.assignment.kept[d] === 1)).toEqual(keptByCli);
    expect(memory.verified.decided.exactAccepted + memory.verified.decided.exactRejected).toBeGreaterThan(0);
    expect(keptByCli.length).toBeLessThan(ids.length);
    await expect(dedup(corpus.texts, { scheme: 'simhash', threshold: 0.9 })).rejects.toThrow(/bands by maxHamming/);
  });
});
