import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { SHARD_FORMAT, ShardWriter, setValues, type ShardMeta } from '../../../src/formats/shards/shardFile.js';
import { readShardMeta } from '../../../src/formats/shards/shardSet.js';
import { makeParams } from '../../../src/signatures/params.js';
import { tempDir } from '../../support/cli.js';

const lsh = { bands: 2, rows: 2 };
const k = 4;

const meta = (format: string): ShardMeta => ({
  format,
  params: makeParams({ k }),
  lsh,
  threshold: 0.8,
  shard: { index: 0, count: 1 },
  documents: 2,
  totalDocuments: 2,
  sets: true,
});

/** A two-document shard with sets, its metadata saying `format`. */
async function writeShard(path: string, format = SHARD_FORMAT): Promise<void> {
  const writer = ShardWriter.create(path, lsh, k, () => meta(format), undefined, { sets: true });
  const bands = BigInt64Array.of(1n, -2n);
  const slots = BigInt64Array.of(5n, 6n, -7n, 8n);
  // (lo, hi) words: 0xffffffff_00000001 is negative as a signed INT64; a second value with the same low word.
  writer.push('a', 0, [3n, -4n], 5, bands, slots, Uint32Array.of(1, 0xffffffff, 1, 2, 9, 0));
  writer.push('b', 1, null, 0, bands, slots, new Uint32Array(0));
  await writer.commit();
}

describe('shard files', () => {
  it('setValues reads (lo, hi) words as signed 64-bit values, from an unaligned view too', () => {
    const words = Uint32Array.of(7, 1, 0xffffffff, 2, 0xffffffff);
    expect(setValues(words.subarray(1, 5))).toEqual([-(2n ** 32n) + 1n, -(2n ** 32n) + 2n]);
    expect(setValues(words.subarray(0, 4))).toEqual([(1n << 32n) | 7n, (2n << 32n) | 0xffffffffn]);
  });

  it(`writes ${SHARD_FORMAT}: hash columns uncompressed, no statistics, the lists as 64-bit values`, async () => {
    const path = join(tempDir(), 's.parquet');
    await writeShard(path);
    expect((await readShardMeta(path)).format).toBe(SHARD_FORMAT);
    const file = await asyncBufferFromFile(path);
    const chunks = (await parquetMetadataAsync(file)).row_groups[0].columns.map((c) => c.meta_data!);
    const of = (name: string) => chunks.find((c) => c.path_in_schema[0] === name)!;
    for (const name of ['shingles', 'band_0', 'exact_lo']) expect(of(name).codec).toBe('UNCOMPRESSED');
    expect(of('shingles').encodings).toContain('PLAIN');
    for (const chunk of chunks) expect(chunk.statistics?.min_value).toBeUndefined();
    const rows = await parquetReadObjects({ file, columns: ['id', 'exact_hi', 'shingles'] });
    expect(rows).toEqual([
      { id: 'a', exact_hi: -4n, shingles: [-(2n ** 32n) + 1n, (2n << 32n) | 1n, 9n] },
      { id: 'b', exact_hi: null, shingles: [] },
    ]);
  });

  it('reads a v1 shard (same columns) and refuses another format in one line naming the file', async () => {
    const dir = tempDir();
    const v1 = join(dir, 'v1.parquet');
    await writeShard(v1, 'gpudedup-shard/v1');
    expect((await readShardMeta(v1)).format).toBe('gpudedup-shard/v1');
    const v9 = join(dir, 'v9.parquet');
    await writeShard(v9, 'gpudedup-shard/v9');
    const refused = await readShardMeta(v9).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).toContain(`${v9}: shard format gpudedup-shard/v9, expected ${SHARD_FORMAT}`);
    expect(refused).not.toContain('\n');
  });
});
