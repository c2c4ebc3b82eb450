import { describe, expect, it } from 'vitest';
import type { Contamination } from '../../src/dedup/dedupSigned.js';
import {
  clusterRow,
  contaminationRow,
  pairColumns,
  pairRow,
  type DedupRowsSource,
} from '../../src/dedup/outputRows.js';
import { DocumentTable } from '../../src/exact/documentTable.js';
import type { VerifiedPairs } from '../../src/verify/verification.js';

/** Four documents: 0 and 2 share group 0, 1 is group 1, 3 is empty (−1). */
function source(verified: Partial<VerifiedPairs>, contamination?: Partial<Contamination>): DedupRowsSource {
  const table = new DocumentTable();
  for (const g of [0, 1, 0, -1]) table.add(g, 0);
  const assignment = { cluster: Uint32Array.of(0, 0, 0, 1), kept: Uint8Array.of(1, 0, 0, 1), counts: {} as never };
  return {
    table,
    assignment,
    verified: verified as VerifiedPairs,
    contamination: contamination as Contamination | undefined,
  };
}

describe('the rows of the dedup tables', () => {
  it('clusters: id, cluster, kept for each document', () => {
    const s = source({});
    expect([0, 1, 2, 3].map((d) => clusterRow(s, d, `d${d}`))).toEqual([
      ['d0', 0, true],
      ['d1', 0, false],
      ['d2', 0, false],
      ['d3', 1, true],
    ]);
  });

  it('contamination: a row for the documents of a matched group, to six decimals; none for the others or the empty', () => {
    const matches = {
      match: Int32Array.of(1, -1),
      similarity: Float64Array.of(0.123456789, 0),
      estimate: Float64Array.of(0.9, 0),
      referenceIds: ['r0', 'r1'],
    };
    const s = source({}, matches);
    expect([0, 1, 2, 3].map((d) => contaminationRow(s, d, `d${d}`))).toEqual([
      ['d0', 'r1', 0.123457, 0.9],
      undefined,
      ['d2', 'r1', 0.123457, 0.9],
      undefined,
    ]);
    expect(contaminationRow(source({}), 0, 'd0')).toBeUndefined();
  });

  it('pairs: each text named by its first document; exact only with exact or hybrid, empty where the estimate decided', () => {
    const names = (g: number): string => `g${g}`;
    const estimateOnly = { a: Uint32Array.of(0), b: Uint32Array.of(1), estimate: Float64Array.of(0.87654321) };
    expect(pairColumns(estimateOnly as VerifiedPairs).map(([name]) => name)).toEqual(['id_a', 'id_b', 'estimate']);
    expect(pairRow(estimateOnly as VerifiedPairs, 0, names)).toEqual(['g0', 'g1', 0.876543]);
    const hybrid = {
      ...estimateOnly,
      a: Uint32Array.of(0, 1),
      b: Uint32Array.of(1, 0),
      estimate: Float64Array.of(0.5, 0.25),
      exact: Float64Array.of(Number.NaN, 0.3333333),
    };
    expect(pairColumns(hybrid as VerifiedPairs).map(([name]) => name)).toEqual(['id_a', 'id_b', 'estimate', 'exact']);
    expect([0, 1].map((i) => pairRow(hybrid as VerifiedPairs, i, names))).toEqual([
      ['g0', 'g1', 0.5, null],
      ['g1', 'g0', 0.25, 0.333333],
    ]);
  });
});
