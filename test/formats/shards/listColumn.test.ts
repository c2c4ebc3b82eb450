// The shards' `shingles` column as listColumn.ts writes it (pages of raw words): read back by hyparquet and DuckDB as the
// sets, across row groups, data pages and empty lists.
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { ShardWriter, setValues } from '../../../src/formats/shards/shardFile.js';
import { tempDir } from '../../support/cli.js';
import { rows, sqlString, withDuckDB } from '../../support/duckdb.js';
import { ONE_BAND as lsh, oneShardMeta } from '../../support/shardMeta.js';

const k = 1;

/** Set d: d·40,000 + 3 values (some over a data page of 1 MiB), every fourth empty; words with high bits set. */
function setOf(d: number): Uint32Array {
  if (d % 4 === 3) return new Uint32Array(0);
  const values = d * 40_000 + 3;
  // One word more, and the set a view at word 1: not 8-byte aligned.
  const words = new Uint32Array(2 * values + 1);
  for (let i = 0; i < values; i++) {
    words[1 + 2 * i] = (i * 2654435761 + d) >>> 0;
    words[2 + 2 * i] = (0x80000000 | (i * 40503 + 7 * d)) >>> 0;
  }
  return words.subarray(1);
}

describe('the shingles column', () => {
  it('reads back as the sets: 3 rows a row group, pages cut at rows, empty lists between', async () => {
    const path = join(tempDir(), 'lists.parquet');
    const documents = 8;
    const meta = oneShardMeta(k, documents, { sets: true });
    const writer = ShardWriter.create(path, lsh, k, meta, 3, { sets: true });
    const zero = new BigInt64Array(1);
    for (let d = 0; d < documents; d++) writer.push(`d${d}`, d, null, 0, zero, zero, setOf(d));
    await writer.commit();

    const file = await asyncBufferFromFile(path);
    const groups = (await parquetMetadataAsync(file)).row_groups;
    expect(groups.map((g) => Number(g.num_rows))).toEqual([3, 3, 2]);
    const want = Array.from({ length: documents }, (_, d) => setValues(setOf(d)));
    const read = await parquetReadObjects({ file, columns: ['id', 'shingles'] });
    expect(read.map((r) => r.id)).toEqual(want.map((_, d) => `d${d}`));
    read.forEach((r, d) => expect(r.shingles).toEqual(want[d]));

    await withDuckDB(async (db) => {
      const table = await rows(
        db,
        `SELECT id, len(shingles) AS n, list_sum(shingles::HUGEINT[]) AS total, shingles[1] AS first ` +
          `FROM read_parquet(${sqlString(path)}) ORDER BY position`,
      );
      table.forEach((r, d) => {
        expect(r.id).toBe(`d${d}`);
        expect(Number(r.n)).toBe(want[d].length);
        if (want[d].length > 0) {
          expect(BigInt(r.first as bigint)).toBe(want[d][0]);
          expect(BigInt(r.total as bigint)).toBe(want[d].reduce((a, b) => a + b, 0n));
        }
      });
    });
  });
});
