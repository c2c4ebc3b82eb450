// The first pass's records of every document: ids (UTF-8, packed) and line ranges, unit by unit, past the first
// arrays' sizes (1,024 documents, 64 KiB of ids); each file's first document.
import { describe, expect, it } from 'vitest';
import { DocumentRecords } from '../../src/firstPass/documentRecords.js';
import type { UnitDocuments } from '../../src/firstPass/protocol.js';

/** A unit of documents with these ids and line ranges (start −1: no line), as a first-pass worker sends it. */
function unit(ids: readonly string[], ranges: readonly [number, number][]): UnitDocuments {
  const encoded = ids.map((id) => new TextEncoder().encode(id));
  const idBytes = new Uint8Array(encoded.reduce((n, e) => n + e.length, 0) + 5); // room past the ids, as a worker's
  const idEnds = new Uint32Array(ids.length);
  let at = 0;
  encoded.forEach((e, i) => {
    idBytes.set(e, at);
    idEnds[i] = at += e.length;
  });
  idBytes.fill(0x7a, at); // what lies past the last id is never read as an id
  const starts = Float64Array.from(ranges, ([s]) => s);
  const ends = Float64Array.from(ranges, ([, e]) => e);
  return { count: ids.length, idBytes, idEnds, starts, ends } as unknown as UnitDocuments;
}

describe('DocumentRecords', () => {
  it('records every unit’s ids and line ranges in order, and where each file starts', () => {
    const records = new DocumentRecords();
    const ids: string[] = [];
    const ranges: ([number, number] | undefined)[] = [];
    let offset = 0;
    // 40 units of 0 to 149 documents over three files: ids empty, ASCII, long and multi-byte; some without lines.
    for (let u = 0; u < 40; u++) {
      const path = u < 15 ? 'a.jsonl' : u < 30 ? 'b.parquet' : 'c.jsonl';
      const n = (u * 37) % 150;
      const unitIds = Array.from({ length: n }, (_, i) =>
        i % 11 === 0 ? '' : i % 7 === 0 ? `ïd-€-${u}-${i}-${'x'.repeat(3 * i)}` : `${u}:${i}`,
      );
      const unitRanges = unitIds.map((_, i): [number, number] => {
        if (path === 'b.parquet') return [-1, -1];
        const range: [number, number] = [offset, offset + 10 + i];
        offset += 10 + i;
        return range;
      });
      records.addUnit({ path, documents: unit(unitIds, unitRanges) });
      ids.push(...unitIds);
      ranges.push(...unitRanges.map(([s, e]) => (s < 0 ? undefined : ([s, e] as [number, number]))));
    }
    expect(records.documents).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(1024);
    expect(ids.reduce((n, id) => n + new TextEncoder().encode(id).length, 0)).toBeGreaterThan(2 ** 16);
    ids.forEach((id, d) => expect(records.id(d), `document ${d}`).toBe(id));
    ranges.forEach((range, d) => expect(records.byteRange(d), `document ${d}`).toEqual(range));
    const first = (u: number) => Array.from({ length: u }, (_, v) => (v * 37) % 150).reduce((a, b) => a + b, 0);
    expect(records.files).toEqual([
      { path: 'a.jsonl', firstDocument: 0 },
      { path: 'b.parquet', firstDocument: first(15) },
      { path: 'c.jsonl', firstDocument: first(30) },
    ]);
    const shared = records.sharedIds();
    if (shared !== undefined) {
      const decoder = new TextDecoder();
      ids.forEach((id, d) =>
        expect(decoder.decode(shared.bytes.subarray(d === 0 ? 0 : shared.ends[d - 1], shared.ends[d]))).toBe(id),
      );
    }
  });
});
