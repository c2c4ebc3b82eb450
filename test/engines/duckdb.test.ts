import { describe, expect, it, vi } from 'vitest';

describe('runDuckDb without @duckdb/node-api', () => {
  it('says how to install it', async () => {
    vi.resetModules();
    vi.doMock('@duckdb/node-api', () => {
      throw new Error("Cannot find package '@duckdb/node-api'");
    });
    try {
      const { runDuckDb } = await import('../../src/engines/duckdb.js');
      const { clusterPlan } = await import('../../src/engines/clusterSql.js');
      const plan = clusterPlan({
        k: 4,
        bands: 2,
        maxBucketPairs: 16,
        verify: { acceptFrom: 3, rejectUpTo: 2, threshold: 0.75 },
        keep: 'first',
      });
      await expect(runDuckDb(plan, ['x.parquet'])).rejects.toThrow(
        /--engine duckdb needs DuckDB.*npm install @duckdb\/node-api/,
      );
    } finally {
      vi.doUnmock('@duckdb/node-api');
      vi.resetModules();
    }
  });
});
