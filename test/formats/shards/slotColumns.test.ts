// The shards' slot and score columns as slotColumns.ts writes them (dictionary or PLAIN pages from words): read back
// by hyparquet and DuckDB as the values pushed.
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { ShardWriter } from '../../../src/formats/shards/shardFile.js';
import { dictionaryOf } from '../../../src/formats/shards/slotColumns.js';
import { tempDir } from '../../support/cli.js';
import { rows, sqlString, withDuckDB } from '../../support/duckdb.js';
import { ONE_BAND as lsh, oneShardMeta } from '../../support/shardMeta.js';

const k = 3;

/**
 * Row d's slots: slot 0 one value for all (a dictionary of one), slot 1 one of five values sharing low or high words,
 * slot 2 distinct in every row (PLAIN); negative and positive.
 */
function slotsOf(d: number): BigInt64Array {
  const shared = [5n, -5n, (5n << 32n) | 7n, (7n << 32n) | 5n, -(2n ** 63n)][d % 5];
  return BigInt64Array.of(-1n, shared, BigInt(d) * 0x1_0000_0001n - 2n ** 62n);
}

describe('the slot and score columns', () => {
  it('dictionaryOf gives the distinct pairs in first-seen order and each row its index', () => {
    const words = Uint32Array.of(1, 2, 2, 1, 1, 2, 1, 3, 2, 1);
    const { dictionary, indexes, size } = dictionaryOf(words, 5);
    expect(size).toBe(3);
    expect([...dictionary.subarray(0, 6)]).toEqual([1, 2, 2, 1, 1, 3]);
    expect([...indexes]).toEqual([0, 1, 0, 2, 1]);
    // 2,000 pairs with one low word (and 2,000 with one high word): probes meet pairs that share a word.
    const sameLo = Uint32Array.from({ length: 8000 }, (_, i) =>
      i < 4000 ? (i % 2 === 0 ? 7 : i >> 1) : i % 2 === 0 ? i : 7,
    );
    const many = dictionaryOf(sameLo, 4000);
    expect(many.size).toBe(4000);
    expect([...many.indexes]).toEqual(Array.from({ length: 4000 }, (_, i) => i));
  });

  it('reads back as pushed: one value, a few values, all distinct, and the scores, over two row groups', async () => {
    const path = join(tempDir(), 'slots.parquet');
    const documents = 700;
    const meta = oneShardMeta(k, documents, { scoreField: 'q' });
    const writer = ShardWriter.create(path, lsh, k, meta, 400, { score: true });
    const band = BigInt64Array.of(9n);
    const score = (d: number): number => (d % 7 === 0 ? -Infinity : d / 4);
    for (let d = 0; d < documents; d++) writer.push(`d${d}`, d, null, 0, band, slotsOf(d), undefined, score(d));
    await writer.commit();

    const file = await asyncBufferFromFile(path);
    const chunks = (await parquetMetadataAsync(file)).row_groups[0].columns.map((c) => c.meta_data!);
    const encodings = (name: string) => chunks.find((c) => c.path_in_schema[0] === name)!.encodings;
    expect(encodings('slot_0')).toContain('RLE_DICTIONARY');
    expect(encodings('slot_1')).toContain('RLE_DICTIONARY');
    expect(encodings('slot_2')).toEqual(['PLAIN']);
    const read = await parquetReadObjects({ file, columns: ['id', 'slot_0', 'slot_1', 'slot_2', 'score'] });
    read.forEach((r, d) => {
      expect([r.id, r.slot_0, r.slot_1, r.slot_2, r.score]).toEqual([`d${d}`, ...slotsOf(d), score(d)]);
    });
    await withDuckDB(async (db) => {
      const table = await rows(db, `SELECT slot_0, slot_1, slot_2, score FROM read_parquet(${sqlString(path)})`);
      table.forEach((r, d) => {
        expect([r.slot_0, r.slot_1, r.slot_2].map((v) => BigInt(v as bigint))).toEqual([...slotsOf(d)]);
        expect(r.score).toBe(score(d));
      });
    });
  });
});
