import { describe, expect, it } from 'vitest';
import { clusterPlan, minimumAgreement } from '../../src/engines/clusterSql.js';
import { checkShardSet, SHARD_FORMAT, type ShardMeta } from '../../src/formats/shardFile.js';
import { parseShardSlice } from '../../src/pipeline/signShard.js';
import { makeParams } from '../../src/signatures/params.js';

describe('minimumAgreement', () => {
  it('is the least slot count m with m / k ≥ t in double arithmetic, as signatureAgreement compares', () => {
    for (const k of [1, 7, 64, 100, 128, 256, 1000]) {
      for (const t of [0.01, 0.1, 0.3, 0.5, 0.7, 0.75, 0.8, 0.85, 0.9, 0.99, 1 / 3, 2 / 3]) {
        const m = minimumAgreement(t, k);
        expect(m / k >= t).toBe(true);
        if (m > 0) expect((m - 1) / k >= t).toBe(false);
      }
    }
    // 0.7 · 10 is 7.000000000000001 in doubles, but 7 / 10 ≥ 0.7 holds: the count is 7, not 8.
    expect(minimumAgreement(0.7, 10)).toBe(7);
  });
});

describe('clusterPlan', () => {
  it('names every slot and band once and refuses non-integers', () => {
    const plan = clusterPlan({ k: 4, bands: 2, maxBucketPairs: 16, minAgreement: 3, keep: 'longest' });
    const verified = plan.setup.find((s) => s.name === 'verified')!.sql;
    for (let i = 0; i < 4; i++) expect(verified).toContain(`x.slot_${i} = y.slot_${i}`);
    expect(verified).not.toContain('slot_4');
    expect(plan.setup.find((s) => s.name === 'band_members')!.sql.match(/UNION ALL/g)).toHaveLength(1);
    expect(plan.finish.find((s) => s.name === 'documents')!.sql).toContain('s.length AS score');
    expect(() => clusterPlan({ k: 4, bands: 2, maxBucketPairs: 1.5, minAgreement: 3, keep: 'first' })).toThrow(/maxBucketPairs/);
  });
});

const meta = (over: Partial<ShardMeta> & { index?: number } = {}): ShardMeta => ({
  format: SHARD_FORMAT,
  params: makeParams({ k: 128 }),
  lsh: { bands: 14, rows: 9 },
  threshold: 0.8,
  shard: { index: over.index ?? 0, count: 2 },
  documents: 10,
  totalDocuments: 20,
  ...over,
});

describe('checkShardSet', () => {
  it('accepts all N shards in any order', () => {
    expect(checkShardSet(['b', 'a'], [meta({ index: 1 }), meta({ index: 0 })]).lsh).toEqual({ bands: 14, rows: 9 });
  });

  it('refuses mixed parameters, naming each difference', () => {
    expect(() => checkShardSet(['a', 'b'], [meta(), meta({ index: 1, params: makeParams({ k: 64, seed: 7 }) })])).toThrow(
      'b does not match a: seed: 42 vs 7; k: 128 vs 64',
    );
    expect(() => checkShardSet(['a', 'b'], [meta(), meta({ index: 1, lsh: { bands: 9, rows: 13 } })])).toThrow('bands: 14 vs 9; rows: 9 vs 13');
    expect(() => checkShardSet(['a', 'b'], [meta(), meta({ index: 1, totalDocuments: 21 })])).toThrow('input documents: 20 vs 21 (not the same input)');
  });

  it('refuses a shard given twice or missing', () => {
    expect(() => checkShardSet(['a', 'b'], [meta(), meta()])).toThrow('a and b are both shard 1/2');
    expect(() => checkShardSet(['a'], [meta()])).toThrow('missing shard 2/2');
  });
});

describe('parseShardSlice', () => {
  it('reads 1-based I/N', () => {
    expect(parseShardSlice('1/4')).toEqual({ index: 0, count: 4 });
    expect(parseShardSlice('4/4')).toEqual({ index: 3, count: 4 });
    for (const bad of ['0/4', '5/4', '1', 'a/b', '1/0']) expect(() => parseShardSlice(bad)).toThrow(/I\/N/);
  });
});
