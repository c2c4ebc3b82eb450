import { describe, expect, it } from 'vitest';
import { clusterPlan, minimumAgreement, statementsOf } from '../../src/engines/clusterSql.js';
import { estimateBounds } from '../../src/verify/estimateBounds.js';
import { sqlPairRule } from '../../src/pipeline/cluster/cluster.js';
import { SHARD_FORMAT, type ShardMeta } from '../../src/formats/shards/shardFile.js';
import { checkShardSet } from '../../src/formats/shards/shardSet.js';
import { parseShardSlice } from '../../src/pipeline/sign/signShard.js';
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

const estimate = { acceptFrom: 3, rejectUpTo: 2, threshold: 0.75 };

describe('clusterPlan', () => {
  it('names every slot and band once and refuses non-integers', () => {
    const plan = clusterPlan({ k: 4, bands: 2, maxBucketPairs: 16, verify: estimate, keep: 'longest' });
    const scored = plan.setup.find((s) => s.name === 'scored')!.sql;
    for (let i = 0; i < 4; i++) expect(scored).toContain(`x.slot_${i} = y.slot_${i}`);
    expect(scored).not.toContain('slot_4');
    expect(plan.setup.find((s) => s.name === 'band_members')!.sql.match(/UNION ALL/g)).toHaveLength(1);
    expect(plan.finish.find((s) => s.name === 'documents')!.sql).toContain('s.length AS score');
    expect(() => clusterPlan({ k: 4, bands: 2, maxBucketPairs: 1.5, verify: estimate, keep: 'first' })).toThrow(
      /maxBucketPairs/,
    );
    expect(() =>
      clusterPlan({
        k: 4,
        bands: 2,
        maxBucketPairs: 2,
        verify: { acceptFrom: 2, rejectUpTo: 2, threshold: 0.5 },
        keep: 'first',
      }),
    ).toThrow(/bounds/);
  });

  it('reads shingle lists only where a pair can fall inside the margin', () => {
    const all = (plan: ReturnType<typeof clusterPlan>): string =>
      [...statementsOf([...plan.setup, ...plan.program, ...plan.finish])].map((s) => s.sql).join('\n');
    expect(all(clusterPlan({ k: 4, bands: 2, maxBucketPairs: 16, verify: estimate, keep: 'first' }))).not.toContain(
      'shingles',
    );
    const hybrid = clusterPlan({
      k: 4,
      bands: 2,
      maxBucketPairs: 16,
      verify: { acceptFrom: 4, rejectUpTo: 1, threshold: 0.75 },
      check: { rule: estimate, maxRepresentatives: 8 },
      keep: 'first',
    });
    expect(hybrid.setup.find((s) => s.name === 'margin_passed_pairs')!.sql).toContain('agree > 1 AND agree < 4');
    expect(hybrid.setup.find((s) => s.name === 'margin_passed_elements')!.sql).toContain('explode(shingles)');
    expect(hybrid.setup.find((s) => s.name === 'margin_passed')!.sql).toContain(`>= CAST('0.75' AS DOUBLE)`);
    // The check at t − δ with the estimate only: no exact step there.
    expect([...statementsOf(hybrid.program)].find((s) => s.name === 'check_exact')!.sql).toContain('1 = 0');
  });

  it('has no ROW_NUMBER() or window without PARTITION BY', () => {
    const plan = clusterPlan({
      k: 4,
      bands: 2,
      maxBucketPairs: 16,
      verify: estimate,
      check: { rule: estimate, maxRepresentatives: 8 },
      keep: 'longest',
    });
    for (const { sql } of statementsOf([...plan.setup, ...plan.program, ...plan.finish])) {
      for (const over of sql.matchAll(/OVER \(([^)]*)\)/g)) expect(over[1]).toMatch(/^PARTITION BY /);
    }
  });
});

describe('sqlPairRule', () => {
  it("SimHash: rejects beyond the threshold's Hamming distance in every mode (agree ≤ 64 − h − 1)", () => {
    const t = 61 / 64;
    for (const verify of ['none', 'estimate', 'exact', 'hybrid'] as const) {
      const rule = sqlPairRule(verify, t, 64, 32, 0.001, true);
      expect(rule.rejectUpTo).toBe(60);
      expect(rule.acceptFrom).toBe(verify === 'none' || verify === 'estimate' ? 61 : 65);
      expect(rule.simhash?.cosineFloor).toBeGreaterThan(0.98);
    }
  });

  it("is dedup's decision as slot-count bounds", () => {
    for (const [k, t] of [
      [128, 0.8],
      [128, 0.7000000000000001],
      [64, 0.5],
      [256, 0.9],
    ] as const) {
      const m = minimumAgreement(t, k);
      expect(sqlPairRule('estimate', t, k, 64)).toEqual({ acceptFrom: m, rejectUpTo: m - 1, threshold: t });
      expect(sqlPairRule('exact', t, k, 64)).toEqual({ acceptFrom: k + 1, rejectUpTo: -1, threshold: t });
      expect(sqlPairRule('none', t, k, 64)).toEqual({ acceptFrom: 0, rejectUpTo: -1, threshold: t });
      for (const bits of [32, 64] as const) {
        const b = estimateBounds(k, t, 0.001, bits);
        expect(sqlPairRule('hybrid', t, k, bits)).toEqual({
          acceptFrom: b.acceptFrom,
          rejectUpTo: b.rejectUpTo,
          threshold: t,
        });
      }
    }
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
    expect(() =>
      checkShardSet(['a', 'b'], [meta(), meta({ index: 1, params: makeParams({ k: 64, seed: 7 }) })]),
    ).toThrow('b does not match a: seed: 42 vs 7; k: 128 vs 64');
    expect(() => checkShardSet(['a', 'b'], [meta(), meta({ index: 1, lsh: { bands: 9, rows: 13 } })])).toThrow(
      'bands: 14 vs 9; rows: 9 vs 13',
    );
    expect(() => checkShardSet(['a', 'b'], [meta(), meta({ index: 1, totalDocuments: 21 })])).toThrow(
      'input documents: 20 vs 21 (not the same input)',
    );
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
