// The index check's table in compact columns (issue 40, item 13): every document checked, a row per match or one
// "no match" row, the cells as the table shows them, a page of rows at a time. In Node: no DOM is needed.
import { describe, expect, it } from 'vitest';
import { IndexRowsBuilder, pageRange, rowBuffers, rowCells } from '../../web/indexRows.js';

describe('IndexRowsBuilder', () => {
  it('keeps every document (past the 500 the table once stopped at), each id once', () => {
    const rows = new IndexRowsBuilder();
    for (let d = 0; d < 41_764; d++)
      rows.add(
        `doc-${d}`,
        d % 3 === 0
          ? []
          : [
              { id: `indexed-${d % 7}`, similarity: 0.9 },
              { id: 'indexed-0', similarity: 0.85 },
            ],
      );
    const table = rows.finish();
    const expected = Math.ceil(41_764 / 3) + 2 * (41_764 - Math.ceil(41_764 / 3));
    expect(table.length).toBe(expected);
    expect(table.ids.length).toBe(41_764 + 7);
    expect(rowCells(table, 0)).toEqual(['doc-0', 'no match', '']);
    expect(rowCells(table, table.length - 1)).toEqual(['doc-41763', 'no match', '']);
    expect(rowCells(table, table.length - 2)).toEqual(['doc-41762', 'indexed-0', '0.850']);
    expect(pageRange(table, 0, 50)).toEqual([0, 50]);
    const last = Math.ceil(table.length / 50) - 1;
    expect(pageRange(table, last, 50)).toEqual([last * 50, table.length]);
    expect(rowBuffers(table).every((buffer) => buffer.byteLength > 0)).toBe(true);
  });

  it('shows the similarity, the exact value where verified, and containment, as the table did', () => {
    const rows = new IndexRowsBuilder();
    rows.add('a', [
      { id: 'x', similarity: 0.81234 },
      { id: 'y', similarity: 0.8, exact: 0.75 },
    ]);
    rows.add('b', [
      { id: 'x', similarity: 0.5, containment: 0.9 },
      { id: 'z', similarity: 0.5, containment: 0.95, exactContainment: 1 },
    ]);
    const table = rows.finish();
    expect([0, 1, 2, 3].map((i) => rowCells(table, i))).toEqual([
      ['a', 'x', '0.812'],
      ['a', 'y', '0.750 exact (estimate 0.800)'],
      ['b', 'x', 'containment 0.900'],
      ['b', 'z', 'containment 1.000 exact (estimate 0.950)'],
    ]);
  });
});
