/** The small runDedup configuration the pipeline tests share: CPU signing, k = 64, 10 × 6 bands, hybrid verification. */
import { DEFAULT_READ } from '../../src/io/documents.js';
import type { DedupConfig } from '../../src/pipeline/dedup/dedup.js';
import { makeParams } from '../../src/signatures/params.js';

export function testDedupConfig(inputs: readonly string[]): DedupConfig {
  return {
    inputs,
    read: DEFAULT_READ,
    params: makeParams({ k: 64 }),
    backend: 'cpu',
    threshold: 0.8,
    lsh: { bands: 10, rows: 6 },
    verify: 'hybrid',
    clusterCheck: 'representative',
    keep: { kind: 'first' },
    against: [],
  };
}
