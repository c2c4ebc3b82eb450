/**
 * The shard's `shingles` column (LIST of INT64, shardFile.ts) written straight from the sets' words: one column chunk
 * of PLAIN, uncompressed data pages (v2) whose values are the sets' bytes as they are, since a set's (lo, hi) word
 * pairs read little-endian are the signed 64-bit values hi·2^32 + lo. hyparquet-writer's general path took a BigInt per
 * shingle, a Dremel walk over them and a range check of each (most of `sign --shard`'s main thread and of its garbage:
 * issue 38); this one copies bytes and writes two runs of levels a row.
 */
import type { ColumnChunk, CompressionCodec, Encoding, RowGroup } from 'hyparquet';
import { ByteWriter, type ParquetWriter } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';

/** Pages of about this many value bytes, cut at row boundaries (a row never spans pages in data page v2). */
const PAGE_BYTES = 1 << 20;

/** The leaf's path: the three-level LIST of the Parquet spec (shardFile.ts's schema). */
const LEAF_PATH = ['shingles', 'list', 'element'];

/**
 * Writes `sets` (a row's set: (lo, hi) words, any length, empty for an empty list) as the shingles column chunk of the
 * row group `writer` has just written, and adds it to that group. Must follow `writer.write` of the group's other
 * columns at once: the chunk's bytes go right after theirs.
 */
export function appendListColumn(writer: ParquetWriter, sets: readonly Uint32Array[]): void {
  const group: RowGroup | undefined = writer.row_groups.at(-1);
  if (group === undefined || Number(group.num_rows) !== sets.length)
    throw new Error('internal: the shingles column follows its row group');
  const out = writer.writer;
  const start = out.offset;
  let levels = 0;
  let row = 0;
  while (row < sets.length) {
    let end = row;
    let bytes = 0;
    while (end < sets.length && (end === row || bytes + sets[end].byteLength <= PAGE_BYTES))
      bytes += sets[end++].byteLength;
    levels += writePage(writer, sets.slice(row, end), bytes);
    row = end;
  }
  addChunk(writer, LEAF_PATH, start, levels, { encodings: ['PLAIN', 'RLE'], uncompressed: out.offset - start });
}

/**
 * Adds the column chunk written from byte `start` to the writer's offset to the last row group: `values` level entries,
 * `uncompressed` bytes before compression, and a dictionary page first when `dictionary` (its values at `start`).
 */
export function addChunk(
  writer: ParquetWriter,
  path: string[],
  start: number,
  values: number,
  chunk: {
    encodings: Encoding[];
    uncompressed: number;
    codec?: CompressionCodec;
    dataPage?: number;
    type?: 'INT64' | 'DOUBLE' | 'BYTE_ARRAY';
  },
): void {
  const group = writer.row_groups.at(-1)!;
  const size = BigInt(writer.writer.offset - start);
  const column: ColumnChunk = {
    file_offset: BigInt(start),
    meta_data: {
      type: chunk.type ?? 'INT64',
      encodings: chunk.encodings,
      path_in_schema: path,
      codec: chunk.codec ?? 'UNCOMPRESSED',
      num_values: BigInt(values),
      total_compressed_size: size,
      total_uncompressed_size: BigInt(chunk.uncompressed),
      data_page_offset: BigInt(chunk.dataPage ?? start),
      dictionary_page_offset: chunk.dataPage === undefined ? undefined : BigInt(start),
    },
  };
  group.columns.push(column);
  group.total_byte_size += BigInt(chunk.uncompressed);
  if (group.total_compressed_size !== undefined) group.total_compressed_size += size;
}

/** One data page of whole rows; returns its level count (values, plus one for each empty list). */
function writePage(writer: ParquetWriter, sets: readonly Uint32Array[], valueBytes: number): number {
  let count = 0;
  for (const set of sets) count += Math.max(1, set.length / 2);
  // Levels: a row's first entry has repetition 0, the rest 1; definition 1 for a value, 0 for an empty list.
  const repetition = new Uint8Array(count).fill(1);
  const definition = new Uint8Array(count).fill(1);
  let empty = 0;
  let at = 0;
  for (const set of sets) {
    repetition[at] = 0;
    if (set.length === 0) {
      definition[at] = 0;
      empty++;
    }
    at += Math.max(1, set.length / 2);
  }
  const levels = new ByteWriter();
  const repetitionBytes = writeRleBitPackedHybrid(levels, repetition as unknown as number[], 1);
  const definitionBytes = writeRleBitPackedHybrid(levels, definition as unknown as number[], 1);
  const out = writer.writer;
  writePageHeader(out, {
    type: 'DATA_PAGE_V2',
    uncompressed_page_size: levels.offset + valueBytes,
    compressed_page_size: levels.offset + valueBytes,
    data_page_header_v2: {
      num_values: count,
      num_nulls: empty,
      num_rows: sets.length,
      encoding: 'PLAIN',
      definition_levels_byte_length: definitionBytes,
      repetition_levels_byte_length: repetitionBytes,
      is_compressed: false,
    },
  });
  out.appendBytes(levels.getBytes());
  for (const set of sets)
    if (set.length > 0) out.appendBytes(new Uint8Array(set.buffer, set.byteOffset, set.byteLength));
  return count;
}

/**
 * (lo, hi) pairs as signed 64-bit values hi·2^32 + lo: the little-endian words are those values already, read through
 * a BigInt64Array view (of a copy when the set's words are not 8-byte aligned).
 */
export function setValues(set: Uint32Array): bigint[] {
  const words = set.byteOffset % 8 === 0 ? set : set.slice();
  return Array.from(new BigInt64Array(words.buffer, words.byteOffset, words.length / 2));
}
