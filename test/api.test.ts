// The library's dedup runs the stages after signing on worker threads as the CLI does (src/dedup/node/stageWorkers.ts):
// the same kept documents, clusters, pairs and decision counts on one thread and on several, for every verification.
import { describe, expect, it } from 'vitest';
import { dedup } from '../src/api.js';
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
