// The representative check in rounds gives what checking one component after another (the algorithm it replaced,
// kept here as the reference) gives: the same representatives and counts, on random graphs with random verdicts.
import { describe, expect, it } from 'vitest';
import { clusterPairs, clusterPairsInRounds } from '../../src/clusters/clustering.js';
import { UnionFind } from '../../src/clusters/unionFind.js';
import { clusterVerifiedOn } from '../../src/clusters/nearDuplicates.js';
import { signatureMatrix } from '../../src/bands/signatureMatrix.js';
import type { ExactPairs } from '../../src/verify/exactWorkers.js';
import { rng } from '../support/reference.js';

interface Graph {
  readonly count: number;
  readonly a: Uint32Array;
  readonly b: Uint32Array;
}

function randomGraph(seed: number): Graph {
  const next = rng(seed);
  const count = 20 + Math.floor(next() * 300);
  const edges = Math.floor(count * (0.5 + 2 * next()));
  const a = new Uint32Array(edges);
  const b = new Uint32Array(edges);
  for (let i = 0; i < edges; i++) {
    a[i] = Math.floor(next() * count);
    b[i] = (a[i] + 1 + Math.floor(next() * Math.min(count - 1, 8))) % count; // local edges: long chains
  }
  return { count, a, b };
}

/** A verdict that depends on the pair only (so any order of asking gives the same answers), passing a share of them. */
const verdict = (seed: number, share: number) => (rep: number, m: number) =>
  ((Math.imul(rep * 2654435761 + m * 40503 + seed, 0x9e3779b1) >>> 0) % 1000) / 1000 < share;

/** The check before rounds: one component at a time, a stack of groups. */
function referenceCheck(
  g: Graph,
  compare: (x: number, y: number) => number,
  passes: (r: number, m: number) => boolean,
  R: number,
) {
  const uf = new UnionFind(g.count);
  for (let i = 0; i < g.a.length; i++) uf.union(g.a[i], g.b[i]);
  const adjacency = Array.from({ length: g.count }, () => [] as number[]);
  for (let i = 0; i < g.a.length; i++) adjacency[g.a[i]].push(g.b[i]), adjacency[g.b[i]].push(g.a[i]);
  const representative = Int32Array.from({ length: g.count }, (_, d) => d);
  const attempts = new Uint32Array(g.count);
  let comparisons = 0;
  let exhausted = 0;
  let splitOff = 0;
  const byRoot = new Map<number, number[]>();
  for (let d = 0; d < g.count; d++)
    if (uf.sizeOf(d) > 1) byRoot.set(uf.find(d), [...(byRoot.get(uf.find(d)) ?? []), d]);
  for (const members of byRoot.values()) {
    members.sort(compare);
    const work = [members];
    while (work.length > 0) {
      const group = work.pop()!;
      const failed: number[] = [];
      for (const m of group.slice(1)) {
        if (attempts[m] >= R) {
          exhausted++;
          continue;
        }
        attempts[m]++;
        comparisons++;
        if (passes(group[0], m)) representative[m] = group[0];
        else failed.push(m);
      }
      // The pieces the verified pairs connect among the failed members, each in preference order.
      const inFailed = new Set(failed);
      const seen = new Set<number>();
      for (const m of failed) {
        if (seen.has(m)) continue;
        const piece: number[] = [];
        const stack = [m];
        seen.add(m);
        while (stack.length > 0) {
          const x = stack.pop()!;
          piece.push(x);
          for (const y of adjacency[x]) if (inFailed.has(y) && !seen.has(y)) seen.add(y), stack.push(y);
        }
        piece.sort(compare);
        if (piece.length > 1) work.push(piece);
      }
    }
    for (const m of members.slice(1)) if (representative[m] !== members[0]) splitOff++;
  }
  return { representative, splitOff, exhausted, comparisons };
}

describe('the representative check in rounds', () => {
  it('equals the one-component-at-a-time check on 200 random graphs, in clusterPairs and in rounds', async () => {
    for (let seed = 1; seed <= 200; seed++) {
      const g = randomGraph(seed);
      const pairs = { a: g.a, b: g.b };
      const compare =
        seed % 2 === 0
          ? (x: number, y: number) => x - y
          : (x: number, y: number) => ((x * 7919) % 101) - ((y * 7919) % 101) || x - y;
      const passes = verdict(seed, [0.2, 0.5, 0.8, 0.95][seed % 4]);
      const R = 1 + (seed % 5);
      const expected = referenceCheck(g, compare, passes, R);
      const direct = clusterPairs(g.count, pairs, { check: 'representative', compare, passes, maxRepresentatives: R });
      expect({ ...direct, representative: [...direct.representative] }).toEqual({
        ...expected,
        representative: [...expected.representative],
      });
      const settled: number[] = [];
      const rounds = await clusterPairsInRounds(g.count, pairs, {
        check: 'representative',
        compare,
        maxRepresentatives: R,
        decide: async (round) => Uint8Array.from(round.a, (rep, i) => (passes(rep, round.b[i]) ? 1 : 0)),
        onProgress: (done, total) => settled.push(done / total),
      });
      expect(rounds).toEqual(direct);
      expect(settled.at(-1)).toBe(1);
      for (let i = 1; i < settled.length; i++) expect(settled[i]).toBeGreaterThanOrEqual(settled[i - 1]);
    }
  });

  it('without the check, rounds never ask and every component keeps its preferred member', async () => {
    const g = randomGraph(7);
    const compare = (x: number, y: number) => y - x;
    const rounds = await clusterPairsInRounds(g.count, g, {
      check: 'none',
      compare,
      decide: () => Promise.reject(new Error('asked')),
    });
    expect(rounds).toEqual(clusterPairs(g.count, g, { check: 'none', compare }));
  });

  it("sends the workers the check's rule with verification's measure (SimHash's angle), at t − δ", async () => {
    // Four identical rows (k = 4, 64-bit slots), a chain 0–1–2–3: every check comparison is by the estimate, accepted.
    const m = signatureMatrix(new Uint32Array(4 * 8).fill(7), 4);
    const rules: unknown[] = [];
    const workers: ExactPairs = {
      decide: async (_matrix, pairs, rule, onBatch) => {
        rules.push(rule);
        onBatch(0, {
          decisions: new Uint8Array(pairs.a.length), // 'estimate accepted'
          estimates: new Float64Array(pairs.a.length).fill(1),
          exacts: new Float64Array(pairs.a.length).fill(Number.NaN),
        });
      },
    };
    const verified = { a: Uint32Array.of(0, 1, 2), b: Uint32Array.of(1, 2, 3) };
    const options = { threshold: 0.9, verify: 'exact' as const, clusterCheck: 'representative' as const };
    const angular = await clusterVerifiedOn(
      m,
      verified,
      { ...options, compare: (x, y) => x - y, measure: 'angular' },
      workers,
    );
    expect([...angular.representative]).toEqual([0, 0, 0, 0]);
    expect(angular.checkDecided.estimateAccepted).toBe(3);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ verify: 'exact', threshold: 0.9 - 0.1, measure: 'angular' });
    await clusterVerifiedOn(m, verified, { ...options, compare: (x, y) => x - y }, workers);
    expect(rules[1]).not.toHaveProperty('measure'); // Jaccard
  });
});
