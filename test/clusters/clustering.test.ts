import { describe, expect, it } from 'vitest';
import { clusterPairs } from '../../src/clusters/clustering.js';
import { assignClusters } from '../../src/clusters/assignment.js';
import { DocumentTable } from '../../src/exact/documentTable.js';
import { isPreferred, keepScore, parseKeepPolicy } from '../../src/text/keepPolicy.js';

const pairs = (list: [number, number][]) => ({
  a: Uint32Array.from(list.map((p) => p[0])),
  b: Uint32Array.from(list.map((p) => p[1])),
});
const byIndex = (a: number, b: number): number => a - b;

describe('clusterPairs', () => {
  // A chain 0~1~2~3 where only neighbours are similar, plus a separate pair 5~6.
  const sim = (a: number, b: number): number => (Math.abs(a - b) === 1 ? 0.9 : 0.1);
  const chain = pairs([
    [0, 1],
    [1, 2],
    [2, 3],
    [5, 6],
  ]);

  it('without a check, connected components are clusters, represented by their preferred member', () => {
    const { representative } = clusterPairs(7, chain, { check: 'none', compare: byIndex });
    expect(Array.from(representative)).toEqual([0, 0, 0, 0, 4, 5, 5]);
    const reversed = clusterPairs(7, chain, { check: 'none', compare: (a, b) => b - a });
    expect(Array.from(reversed.representative)).toEqual([3, 3, 3, 3, 4, 6, 6]);
  });

  it('the representative check breaks chains: every member is similar to its representative', () => {
    const { representative, splitOff } = clusterPairs(7, chain, {
      check: 'representative',
      compare: byIndex,
      similarity: sim,
      threshold: 0.8,
    });
    expect(Array.from(representative)).toEqual([0, 0, 2, 2, 4, 5, 5]);
    expect(splitOff).toBe(2);
    for (let d = 0; d < 7; d++)
      if (representative[d] !== d) expect(sim(d, representative[d])).toBeGreaterThanOrEqual(0.8);
  });

  it('the representative check needs a similarity', () => {
    expect(() => clusterPairs(7, chain, { check: 'representative', compare: byIndex })).toThrow(/similarity/);
  });
});

describe('keep policy', () => {
  it('parses first, longest and field:NAME, refuses others', () => {
    expect(parseKeepPolicy('first')).toEqual({ kind: 'first' });
    expect(parseKeepPolicy('longest')).toEqual({ kind: 'longest' });
    expect(parseKeepPolicy('field:quality')).toEqual({ kind: 'field', field: 'quality' });
    expect(() => parseKeepPolicy('field:')).toThrow(/keep must be first, longest or field:NAME/);
    expect(() => parseKeepPolicy('shortest')).toThrow(/keep must be first, longest or field:NAME/);
  });

  it('scores: field values (numbers or numeric strings), missing ones lowest', () => {
    const policy = parseKeepPolicy('field:q');
    expect(keepScore(policy, 'x', { q: 0.5 })).toEqual({ score: 0.5, missing: false });
    expect(keepScore(policy, 'x', { q: '2.5' })).toEqual({ score: 2.5, missing: false });
    expect(keepScore(policy, 'x', { q: 'high' })).toEqual({ score: -Infinity, missing: true });
    expect(keepScore(policy, 'x', undefined).missing).toBe(true);
    expect(keepScore(parseKeepPolicy('longest'), 'abcd', undefined).score).toBe(4);
    expect(isPreferred(1, 5, 1, 3)).toBe(false);
    expect(isPreferred(1, 3, 1, 5)).toBe(true);
    expect(isPreferred(2, 5, 1, 3)).toBe(true);
  });
});

describe('assignClusters', () => {
  // Documents: 0 "a", 1 "b", 2 "" (empty), 3 "a" again (exact dup of 0), 4 "c" (near dup of 1), 5 "", 6 "d".
  // Exact groups: a=0, b=1, c=2, d=3.
  function table(scores: number[]): DocumentTable {
    const t = new DocumentTable();
    const groups = [0, 1, -1, 0, 2, -1, 3];
    groups.forEach((g, d) => t.add(g, scores[d]));
    return t;
  }
  const rep = Int32Array.of(0, 1, 1, 3); // group c (2) clustered with group b (1)

  it('numbers clusters by first document, shares clusters with exact duplicates, keeps empties alone', () => {
    const { cluster, kept, counts } = assignClusters(table([0, 0, 0, 0, 0, 0, 0]), rep);
    expect(Array.from(cluster)).toEqual([0, 1, 2, 0, 1, 3, 4]);
    expect(Array.from(kept)).toEqual([1, 1, 1, 0, 0, 1, 1]);
    expect(counts).toEqual({
      documents: 7,
      empty: 2,
      exactDuplicates: 1,
      clusters: 5,
      nearDuplicateClusters: 1,
      contaminated: 0,
      removed: 2,
      kept: 5,
    });
  });

  it('keeps the best-scoring member, ties to the earliest, across exact duplicates too', () => {
    const { kept } = assignClusters(table([1, 2, 0, 5, 3, 0, 0]), rep);
    expect(Array.from(kept)).toEqual([0, 0, 1, 1, 1, 1, 1]);
    const tie = assignClusters(table([1, 3, 0, 1, 3, 0, 0]), rep);
    expect(Array.from(tie.kept)).toEqual([1, 1, 1, 0, 0, 1, 1]);
  });

  it('the group comparator orders groups by their preferred member', () => {
    const t = table([1, 2, 0, 5, 3, 0, 0]);
    const order = [0, 1, 2, 3].sort(t.groupComparator());
    expect(order).toEqual([0, 2, 1, 3]); // a via doc 3 (5), c (3), b (2), d (0)
  });

  it('with every score tied, the comparator and the kept documents are those of the general rule', () => {
    // Random tables: ties throughout (the shortcut) against the same table with one document scored apart.
    for (let seed = 1; seed <= 20; seed++) {
      const groups: number[] = [];
      let signed = 0;
      for (let d = 0; d < 300; d++) {
        const r = (Math.imul(d + 1, 2654435761 + seed) >>> 0) % 10;
        groups.push(r === 0 ? -1 : signed > 0 && r < 4 ? (d * seed) % signed : signed++);
      }
      const tied = new DocumentTable();
      groups.forEach((g) => tied.add(g, 7));
      expect(tied.uniformScores).toBe(true);
      const general = tied.groupComparator(tied.preferredMembers());
      const order = Array.from({ length: signed }, (_, g) => signed - 1 - g);
      expect([...order].sort(tied.groupComparator())).toEqual([...order].sort(general));
      const representative = Int32Array.from({ length: signed }, (_, g) => g - (g % (1 + (seed % 4))));
      const reference = referenceAssignment(groups, representative);
      expect(Array.from(assignClusters(tied, representative).kept)).toEqual(reference);
    }
    const mixed = new DocumentTable();
    [0, 1, 0].forEach((g, d) => mixed.add(g, d === 2 ? 1 : 0));
    expect(mixed.uniformScores).toBe(false);
    const nan = new DocumentTable();
    nan.add(0, Number.NaN);
    expect(nan.uniformScores).toBe(false);
  });

  it('contaminated groups are removed, with their exact duplicates, and never represent others', () => {
    const contaminated = Uint8Array.of(0, 1, 0, 0);
    const { cluster, kept, counts } = assignClusters(table([0, 0, 0, 0, 0, 0, 0]), rep, contaminated);
    expect(kept[1]).toBe(0);
    expect(kept[4]).toBe(1); // c was clustered under b, but b is gone: c is kept
    expect(cluster[1]).not.toBe(cluster[4]);
    expect(counts.contaminated).toBe(1);
    expect(counts.removed).toBe(2);
  });
});

/** Kept flags by the rule itself, scores all tied: a cluster's first document, and every empty document. */
function referenceAssignment(groups: readonly number[], representative: Int32Array): number[] {
  const seen = new Set<number>();
  return groups.map((g) => {
    if (g < 0) return 1;
    const cluster = representative[g];
    if (seen.has(cluster)) return 0;
    seen.add(cluster);
    return 1;
  });
}
