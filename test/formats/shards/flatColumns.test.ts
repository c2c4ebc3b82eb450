// The shards' flat columns as flatColumns.ts writes them from typed arrays (id, position, exact keys with nulls,
// length, bands, text ranges), read back by DuckDB as pushed; and hybridRle.ts's bytes are hyparquet-writer's.
import { join } from 'node:path';
import { ByteWriter, type ParquetWriter } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { describe, expect, it } from 'vitest';
import { ShardWriter } from '../../../src/formats/shards/shardFile.js';
import { rleBitPacked } from '../../../src/formats/shards/hybridRle.js';
import { writeDataPageHeader, writeDictionaryPageHeader } from '../../../src/formats/shards/pageHeader.js';
import { tempDir } from '../../support/cli.js';
import { rows, sqlString, withDuckDB } from '../../support/duckdb.js';
import { oneShardMeta } from '../../support/shardMeta.js';

const k = 2;
const lsh = { bands: 2, rows: 1 };

/** Row d: an id (some not ASCII), a position past 2^32 with gaps, a key (null every 7th), a length and a range. */
function rowOf(d: number) {
  const id = d % 5 === 0 ? `é-${d}-😀` : `doc-${d}`;
  const position = 2 ** 32 + 3 * d + (d > 400 ? 2 ** 31 : 0);
  const exact = d % 7 === 0 ? null : ([BigInt(d) - 2n ** 62n, -BigInt(d) * 0x1_0000_0001n] as const);
  return {
    id,
    position,
    exact,
    length: (d * 37) % 11,
    range: { file: d % 3 === 0 ? 1 : 0, start: d * 1000, bytes: 9 },
  };
}

describe('the flat columns', () => {
  it('rleBitPacked gives hyparquet-writer bytes: runs, packed groups, widths 0 to 20', () => {
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const width of [0, 1, 2, 5, 8, 13, 20]) {
      for (const count of [1, 7, 8, 9, 100, 1000]) {
        const values = new Int32Array(count);
        for (let i = 0; i < count; i++)
          values[i] = width === 0 ? 0 : i > 0 && random() % 3 === 0 ? values[i - 1] : random() % 2 ** width;
        const theirs = new ByteWriter();
        writeRleBitPackedHybrid(theirs, values as unknown as number[], width);
        expect([...rleBitPacked(values, count, width)]).toEqual([...theirs.getBytes()]);
      }
    }
  });

  it('page headers are hyparquet-writer bytes: data pages v2 and dictionary pages, small and large sizes', () => {
    const mine = (write: (writer: ParquetWriter) => void) => {
      const writer = { writer: new ByteWriter() } as unknown as ParquetWriter;
      write(writer);
      return [...(writer.writer as ByteWriter).getBytes()];
    };
    const theirs = (header: Parameters<typeof writePageHeader>[1]) => {
      const out = new ByteWriter();
      writePageHeader(out, header);
      return [...out.getBytes()];
    };
    for (const size of [0, 1, 63, 64, 8191, 65_536, 2 ** 30])
      for (const isCompressed of [true, false])
        for (const encoding of ['PLAIN', 'RLE_DICTIONARY', 'DELTA_BINARY_PACKED'] as const) {
          const page = { uncompressed: size + 5, compressed: size, values: size, nulls: size >> 3, rows: size };
          const levels = { definitionBytes: size >> 2, repetitionBytes: size >> 4 };
          expect(mine((w) => writeDataPageHeader(w, { ...page, ...levels, encoding, isCompressed }))).toEqual(
            theirs({
              type: 'DATA_PAGE_V2',
              uncompressed_page_size: page.uncompressed,
              compressed_page_size: page.compressed,
              data_page_header_v2: {
                num_values: page.values,
                num_nulls: page.nulls,
                num_rows: page.rows,
                encoding,
                definition_levels_byte_length: levels.definitionBytes,
                repetition_levels_byte_length: levels.repetitionBytes,
                is_compressed: isCompressed,
              },
            }),
          );
          expect(mine((w) => writeDictionaryPageHeader(w, page))).toEqual(
            theirs({
              type: 'DICTIONARY_PAGE',
              uncompressed_page_size: page.uncompressed,
              compressed_page_size: page.compressed,
              dictionary_page_header: { num_values: page.values, encoding: 'PLAIN' },
            }),
          );
        }
  });

  it('read back by DuckDB as pushed, over three row groups', async () => {
    const path = join(tempDir(), 'flat.parquet');
    const documents = 700;
    const writer = ShardWriter.create(path, lsh, k, oneShardMeta(k, documents), 300, { texts: true });
    const bands = BigInt64Array.of(1n, -2n);
    for (let d = 0; d < documents; d++) {
      const r = rowOf(d);
      bands[0] = BigInt(d) - 300n;
      writer.push(r.id, r.position, r.exact, r.length, bands, BigInt64Array.of(5n, 6n), undefined, undefined, r.range);
    }
    await writer.commit();
    await withDuckDB(async (db) => {
      const table = await rows(
        db,
        'SELECT id, position, exact_lo, exact_hi, length, band_0, band_1, text_file, text_start, text_bytes ' +
          `FROM read_parquet(${sqlString(path)})`,
      );
      expect(table).toHaveLength(documents);
      table.forEach((t, d) => {
        const r = rowOf(d);
        const big = (v: unknown) => (v === null ? null : BigInt(v as bigint));
        expect(t.id).toBe(r.id);
        expect([t.position, t.exact_lo, t.exact_hi].map(big)).toEqual([
          BigInt(r.position),
          ...(r.exact ?? [null, null]),
        ]);
        expect([t.length, t.band_0, t.band_1].map(big)).toEqual([BigInt(r.length), BigInt(d) - 300n, -2n]);
        expect([t.text_file, t.text_start, t.text_bytes].map(big)).toEqual(
          [r.range.file, r.range.start, r.range.bytes].map(BigInt),
        );
      });
    });
  });
});
