import { describe, expect, it } from 'vitest';
import { assignClusters } from '../../src/clusters/assignment.js';
import { DocumentTable } from '../../src/exact/documentTable.js';
import { largestClusters, showClusters } from '../../src/clusters/largestClusters.js';
import { shingleOptionsOf, makeParams } from '../../src/signatures/params.js';

describe('largestClusters and showClusters', () => {
  // Documents → groups: 0:g0 1:g1 2:g0 3:g2 4:g3 5:g3 6:g4 7:g2 8:g5
  // Clusters by representative: {g0, g1} → docs 0, 1, 2; {g2, g4, g5} → docs 3, 6, 7, 8; {g3} exact only → docs 4, 5.
  const table = new DocumentTable();
  [0, 1, 0, 2, 3, 3, 4, 2, 5].forEach((g) => table.add(g, 0));
  const assignment = assignClusters(table, Int32Array.from([0, 0, 2, 3, 2, 2]));

  it('picks clusters of two or more distinct texts, largest first, with their first removed members', () => {
    const chosen = largestClusters(assignment, table);
    expect(chosen.map((c) => [c.size, c.kept, c.removed])).toEqual([
      [4, 3, [6, 7, 8]],
      [3, 0, [1, 2]],
    ]);
    expect(largestClusters(assignment, table, 1, 2).map((c) => c.removed)).toEqual([[6, 7]]);
  });

  it('compares each removed member with the kept text, marks exact duplicates, and says when a text is missing', () => {
    const texts = [
      'a b c d e f g h',
      'a b c d e f g x',
      'a b c d e f g h',
      'one two three four five six',
      '',
      '',
      'one two three four five seven',
      'one two three four five six',
      'one two three four five six seven',
    ];
    const shingle = shingleOptionsOf(makeParams({ n: 3 }));
    const shown = showClusters(
      largestClusters(assignment, table),
      table,
      (d) => `doc${d}`,
      (d) => (d === 8 ? undefined : texts[d]),
      shingle,
    );
    const [big, small] = shown;
    expect(big.keptId).toBe('doc3');
    expect(big.members.map((m) => [m.id, m.exactDuplicate, m.comparison !== undefined])).toEqual([
      ['doc6', false, true],
      ['doc7', true, false],
      ['doc8', false, false],
    ]);
    // 3-grams: kept {one two three, two three four, three four five, four five six}; removed shares 3 of 4 with one of its own different: J = 3/5.
    expect(big.members[0].comparison!.exact).toBeCloseTo(3 / 5, 12);
    expect(big.members[0].comparison!.sharedShingles).toBe(3);
    expect(small.members[0].comparison!.removed.map((s) => s.shared)).toContain(false);
  });
});
