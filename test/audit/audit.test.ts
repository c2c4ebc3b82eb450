import { describe, expect, it } from 'vitest';
import { assignClusters } from '../../src/clusters/assignment.js';
import {
  auditBin,
  auditGroups,
  drawAuditSample,
  measureAudit,
  stratifiedPrecision,
  type AuditInput,
} from '../../src/audit/audit.js';
import { auditGenerator, sampleRanks, wilsonInterval } from '../../src/audit/sampling.js';
import { DocumentTable } from '../../src/exact/documentTable.js';
import { dedup } from '../../src/api.js';
import { plantedCorpus, similarity } from '../support/planted.js';

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3 (Wilson score, no continuity correction).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i: [%f, %f]', (x, n, low, high) => {
    const interval = wilsonInterval(x, n);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('is symmetric, covers the whole range with no trials, and ends at 1 for all successes', () => {
    const a = wilsonInterval(3, 17);
    const b = wilsonInterval(14, 17);
    expect(a.low).toBeCloseTo(1 - b.high, 12);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    expect(wilsonInterval(10, 10).high).toBe(1);
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.7225, 4);
  });
});

describe('sampleRanks', () => {
  it('draws distinct ranks in range, all of them when n ≥ count, and the same ones from the same seed', () => {
    const draw = (seed: string) => sampleRanks(1000, 50, auditGenerator(seed));
    const ranks = draw('42');
    expect(new Set(ranks).size).toBe(50);
    expect(ranks.every((r) => r >= 0 && r < 1000)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    expect(draw('42')).toEqual(ranks);
    expect(draw('0x2a')).toEqual(ranks); // the same 64-bit seed, spelled in hex
    expect(draw('43')).not.toEqual(ranks);
    expect(sampleRanks(7, 50, auditGenerator('1'))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(sampleRanks(0, 5, auditGenerator('1'))).toEqual([]);
  });

  it('is uniform: each rank is drawn about n/count of the time', () => {
    const hits = new Array(20).fill(0);
    const gen = auditGenerator('7');
    for (let t = 0; t < 4000; t++) for (const r of sampleRanks(20, 5, gen)) hits[r]++;
    // Expected 1000 per rank, binomial sd ≈ 27: 6 sd either way.
    for (const h of hits) expect(Math.abs(h - 1000)).toBeLessThan(165);
  });
});

describe('auditBin', () => {
  it('bins [0, 0.5), [0.5, 0.6) … [0.9, 1.0] with 1.0 in the last', () => {
    expect([0, 0.49, 0.5, 0.59, 0.6, 0.79, 0.8, 0.9, 0.95, 1].map(auditBin)).toEqual([0, 0, 1, 1, 2, 3, 4, 5, 5, 5]);
  });
});

/**
 * A planted run: `groups` distinct texts, one document each, in clusters of two (group 2i kept, 2i + 1 removed),
 * accepted pairs (2i, 2i + 1) with a chosen estimate and a chosen exact Jaccard.
 */
function plantedRun(
  estimates: number[],
  exacts: number[],
): { input: AuditInput; exact: (a: number, b: number) => number } {
  const table = new DocumentTable();
  const n = estimates.length;
  for (let g = 0; g < 2 * n; g++) table.add(g, 0);
  const representative = Int32Array.from({ length: 2 * n }, (_, g) => g - (g % 2));
  const assignment = assignClusters(table, representative);
  const verified = {
    a: Uint32Array.from({ length: n }, (_, i) => 2 * i),
    b: Uint32Array.from({ length: n }, (_, i) => 2 * i + 1),
    estimate: Float64Array.from(estimates),
  };
  const exact = (a: number, b: number): number => {
    if (Math.abs(a - b) !== 1 || Math.min(a, b) % 2 !== 0) throw new Error(`pair ${a}, ${b} was not planted`);
    return exacts[Math.min(a, b) / 2];
  };
  return { input: { verified, assignment, table }, exact };
}

describe('drawAuditSample and measureAudit', () => {
  // 600 pairs estimated 0.85 (exact: 70 % ≥ 0.8), 300 estimated 0.95 (exact: all ≥ 0.8), 100 estimated 0.75 (exact: 10 % ≥ 0.8).
  const estimates = [...new Array(600).fill(0.85), ...new Array(300).fill(0.95), ...new Array(100).fill(0.75)];
  const exacts = [
    ...Array.from({ length: 600 }, (_, i) => (i % 10 < 7 ? 0.83 : 0.72)),
    ...new Array(300).fill(0.97),
    ...Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? 0.81 : 0.65)),
  ];
  const { input, exact } = plantedRun(estimates, exacts);
  const settings = { threshold: 0.8, chainDelta: 0.1, seed: '42' };
  const truePrecision = (600 * 0.7 + 300 + 100 * 0.1) / 1000;

  it('measures the planted precision exactly when every pair is sampled', () => {
    const audit = measureAudit(drawAuditSample(input, 10_000, '42'), exact, settings);
    expect(audit.bins.map((b) => [b.from, b.to, b.pairs, b.precision.count, b.precision.sampled])).toEqual([
      [0.7, 0.8, 100, 10, 100],
      [0.8, 0.9, 600, 420, 600],
      [0.9, 1, 300, 300, 300],
    ]);
    expect(audit.precision.share).toBeCloseTo(truePrecision, 12);
    expect(audit.precision.effectiveSample).toBeCloseTo(1000, 9); // sampled in proportion: Kish's n_eff is the sample
    // Removed: the 1000 odd groups; those at 0.72 and 0.65 are below 0.8, the 0.65 ones below 0.7.
    expect(audit.removed.population).toBe(1000);
    expect(audit.removed.belowThreshold.count).toBe(180 + 90);
    expect(audit.removed.belowChainThreshold.count).toBe(90);
  });

  it('covers the planted precision with its interval from a sample, and samples deterministically', () => {
    const sample = drawAuditSample(input, 60, '42');
    expect(sample.pairs).toHaveLength(180);
    expect(sample.removals).toHaveLength(60);
    expect(drawAuditSample(input, 60, '42')).toEqual(sample);
    expect(drawAuditSample(input, 60, '9')).not.toEqual(sample);
    const audit = measureAudit(sample, exact, settings);
    expect(audit.precision.low).toBeLessThan(truePrecision);
    expect(audit.precision.high).toBeGreaterThan(truePrecision);
    expect(audit.removed.belowChainThreshold.low).toBeLessThan(0.09);
    expect(audit.removed.belowChainThreshold.high).toBeGreaterThan(0.09);
    // Only the sample's groups need their shingle sets.
    const needed = auditGroups(sample, 2000);
    expect(needed.reduce((s, x) => s + x, 0)).toBeLessThanOrEqual(2 * (180 + 60));
  });

  it('covers the true precision in about 95 % of seeds', () => {
    let covered = 0;
    for (let seed = 0; seed < 200; seed++) {
      const audit = measureAudit(drawAuditSample(input, 40, String(seed)), exact, { ...settings, seed: String(seed) });
      if (audit.precision.low <= truePrecision && truePrecision <= audit.precision.high) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(180); // 95 % of 200 is 190; binomial sd ≈ 3
  });

  it('leaves exact duplicates and reference matches out of the removed population', () => {
    const table = new DocumentTable();
    [0, 0, 1, 2].forEach((g) => table.add(g, 0)); // doc 1 repeats doc 0's text
    const assignment = assignClusters(table, Int32Array.from([0, 0, 2]), Uint8Array.from([0, 0, 1]));
    const verified = { a: Uint32Array.from([0]), b: Uint32Array.from([1]), estimate: Float64Array.from([0.9]) };
    const sample = drawAuditSample({ verified, assignment, table, contaminated: Uint8Array.from([0, 0, 1]) }, 10, '1');
    expect(sample.removals.map((r) => [r.removed, r.kept])).toEqual([[2, 0]]);
  });
});

describe('stratifiedPrecision', () => {
  it('is one bin’s Wilson interval when there is one bin', () => {
    const bins = [
      { from: 0.8, to: 0.9, pairs: 500, precision: { count: 45, sampled: 50, share: 0.9, ...wilsonInterval(45, 50) } },
    ];
    const p = stratifiedPrecision(bins);
    expect(p.effectiveSample).toBeCloseTo(50, 9);
    expect(p.low).toBeCloseTo(wilsonInterval(45, 50).low, 12);
    expect(p.high).toBeCloseTo(wilsonInterval(45, 50).high, 12);
  });
});

describe('dedup({ audit }) on a planted corpus', () => {
  it('measures the precision the planted Jaccard gives, and every removed document against its kept one', async () => {
    // Families of a base text and variants with 5…60 of 200 words replaced: pairs from J ≈ 0.2 to 0.95.
    const planted = plantedCorpus(11, 12, [5, 15, 25, 40, 60]);
    const threshold = 0.6;
    // verify none: every candidate is accepted, so the precision is well below 1 and known from the planted Jaccard.
    const result = await dedup(planted.texts, {
      backend: 'cpu',
      threshold,
      verify: 'none',
      clusterCheck: 'none',
      audit: 100_000,
      k: 64,
    });
    const { verified, audit } = result;
    let correct = 0;
    for (let i = 0; i < verified.a.length; i++)
      if (similarity(planted, verified.a[i], verified.b[i]) >= threshold) correct++;
    expect(verified.a.length).toBeGreaterThan(20);
    expect(correct).toBeLessThan(verified.a.length); // the corpus has false candidates to find
    expect(audit!.precision.sampled).toBe(verified.a.length); // every pair sampled
    expect(audit!.precision.share).toBeCloseTo(correct / verified.a.length, 12);
    for (const p of audit!.pairs) expect(p.exact).toBeCloseTo(similarity(planted, p.a, p.b), 12);
    for (const r of audit!.removals) expect(r.exact).toBeCloseTo(similarity(planted, r.removed, r.kept), 12);
    expect(audit!.removed.population).toBe(result.assignment.counts.removed);
  }, 60_000);
});
