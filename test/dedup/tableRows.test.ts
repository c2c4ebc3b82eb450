// The clusters and pairs tables' CSV rows, written as bytes by the stage workers (tableRows.ts), are what formatRow
// writes from clusterRow and pairRow: ids to quote, past ASCII, empty; every similarity of six decimals in [0, 1], and
// values outside it; exact Jaccard absent, NaN or present.
import { describe, expect, it } from 'vitest';
import { clusterRow, pairRow, type PairColumns } from '../../src/dedup/outputRows.js';
import { tableRows, type PackedIds } from '../../src/dedup/tableRows.js';
import { formatRow } from '../../src/formats/files/tableWriter.js';

const ids = [
  'plain',
  'a,b',
  'say "hi"',
  'two\nlines',
  'carriage\r',
  'é',
  '😀',
  '',
  'x'.repeat(200),
  '\ufffd',
  'tab\there',
];
function packed(list: readonly string[]): PackedIds {
  const encoded = list.map((id) => new TextEncoder().encode(id));
  const bytes = new Uint8Array(encoded.reduce((n, e) => n + e.length, 0));
  const ends = new Float64Array(list.length);
  let at = 0;
  encoded.forEach((e, i) => {
    bytes.set(e, at);
    ends[i] = at += e.length;
  });
  return { bytes, ends };
}
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('tableRows as CSV bytes', () => {
  it('gives formatRow’s clusters rows', () => {
    const format = { columns: ['id', 'cluster', 'kept'], jsonl: false };
    const documents = 5 * ids.length;
    const all = Array.from({ length: documents }, (_, d) => ids[d % ids.length]);
    const cluster = Uint32Array.from({ length: documents - 3 }, (_, i) => (i * 977) % 100_003);
    const kept = Uint8Array.from({ length: documents - 3 }, (_, i) => i % 2);
    const rows = tableRows({ type: 'table rows', table: 'clusters', format, ids: packed(all), from: 3, cluster, kept });
    let expected = '';
    for (let i = 0; i < cluster.length; i++)
      expected += formatRow(format, clusterRow({ assignment: { cluster, kept } }, i, all[3 + i]));
    expect(text(rows)).toBe(expected);
  });

  it('gives formatRow’s pairs rows, for every six-decimal similarity and a few past [0, 1]', () => {
    const n = 1_000_001 + 6;
    const estimate = Float64Array.from({ length: n }, (_, k) => (k <= 1e6 ? k / 1e6 + ((k % 7) - 3) * 1e-8 : 0));
    estimate.set([-0.25, 1.5, 2, 1e-7, -1e-7, 123456.789], 1_000_001);
    const exact = Float64Array.from({ length: n }, (_, k) => (k % 3 === 0 ? Number.NaN : estimate[n - 1 - k]));
    const a = Uint32Array.from({ length: n }, (_, k) => k % ids.length);
    const b = Uint32Array.from({ length: n }, (_, k) => (k * 7 + 1) % ids.length);
    const firstDocument = Int32Array.from(ids, (_, g) => g);
    for (const pairs of [
      { a, b, estimate, exact },
      { a, b, estimate },
    ] as PairColumns[]) {
      const columns = pairs.exact === undefined ? ['id_a', 'id_b', 'estimate'] : ['id_a', 'id_b', 'estimate', 'exact'];
      const format = { columns, jsonl: false };
      const request = { type: 'table rows', table: 'pairs', format, ids: packed(ids), firstDocument, pairs } as const;
      const rows = text(tableRows(request));
      let expected = '';
      for (let i = 0; i < n; i++)
        expected += formatRow(
          format,
          pairRow(pairs, i, (g) => ids[g]),
        );
      // A million rows: compared whole, and where they first differ when they do.
      let at = 0;
      while (at < rows.length && rows[at] === expected[at]) at++;
      expect(rows.slice(Math.max(0, at - 40), at + 40)).toBe(expected.slice(Math.max(0, at - 40), at + 40));
      expect(rows.length).toBe(expected.length);
    }
  });
});
