/**
 * The shard's flat columns but the slots (`id`, `position`, `exact_lo`, `exact_hi`, `length`, the bands and the text
 * ranges) written from typed arrays, as slotColumns.ts writes the slots. hyparquet-writer took each value as a BigInt,
 * range-checked it, sampled it for a dictionary and sized it for pages (issue 38: about 1 s of the shards' main thread
 * a 100 k documents); these write the same encodings (PLAIN, DELTA_BINARY_PACKED for `position`, dictionary where a
 * column repeats) straight from the words. Each column is one chunk of the current row group, in schema order.
 */
import { ByteWriter, type ParquetWriter } from 'hyparquet-writer';
import { deltaBinaryPack } from 'hyparquet-writer/src/delta.js';
import { rleBitPacked } from './hybridRle.js';
import { addChunk } from './listColumn.js';
import { bytesOf, writePage } from './slotColumns.js';

const TWO_32 = 2 ** 32;

/** Starts a row group of `rows` rows on `writer`: its columns follow (addChunk adds each). */
export function startRowGroup(writer: ParquetWriter, rows: number): void {
  writer.row_groups.push({ columns: [], total_byte_size: 0n, num_rows: BigInt(rows), total_compressed_size: 0n });
  writer.num_rows += BigInt(rows);
}

/** Non-negative integers below 2^53 as INT64 (lo, hi) words. */
export function int64Words(values: Float64Array, rows: number): Uint32Array {
  const words = new Uint32Array(2 * rows);
  for (let r = 0; r < rows; r++) {
    const v = values[r];
    words[2 * r] = v >>> 0;
    words[2 * r + 1] = Math.floor(v / TWO_32);
  }
  return words;
}

/** A REQUIRED INT64 column of (lo, hi) words: PLAIN, uncompressed. */
export function appendPlainInt64(writer: ParquetWriter, name: string, words: Uint32Array, rows: number): void {
  const start = writer.writer.offset;
  const size = writePage(writer, bytesOf(words.subarray(0, 2 * rows)), rows, 'PLAIN', false);
  addChunk(writer, [name], start, rows, { encodings: ['PLAIN'], uncompressed: size });
}

/**
 * An OPTIONAL INT64 column: row r present where `present[r]` is 1, its value words[4r + offset], words[4r + offset + 1]
 * (the exact keys' four words a row: `exact_lo` at offset 0, `exact_hi` at 2). PLAIN, uncompressed, nulls by level.
 */
export function appendOptionalInt64(
  writer: ParquetWriter,
  name: string,
  words: Uint32Array,
  offset: number,
  present: Uint8Array,
  rows: number,
): void {
  const out = writer.writer;
  const start = out.offset;
  const values = new Uint32Array(2 * rows);
  let count = 0;
  for (let r = 0; r < rows; r++) {
    if (present[r] !== 1) continue;
    values[2 * count] = words[4 * r + offset];
    values[2 * count + 1] = words[4 * r + offset + 1];
    count++;
  }
  const size = writePage(writer, bytesOf(values.subarray(0, 2 * count)), rows, 'PLAIN', false, {
    levels: rleBitPacked(present, rows, 1),
    nulls: rows - count,
  });
  addChunk(writer, [name], start, rows, { encodings: ['PLAIN'], uncompressed: size });
}

/**
 * The `id` column from its PLAIN bytes (each id a 4-byte length, then its UTF-8: rowGroup.ts builds them), uncompressed
 * (Snappy took a sixth of the writing to save 1 % of a shard).
 */
export function appendIdColumn(writer: ParquetWriter, name: string, plain: Uint8Array, rows: number): void {
  const start = writer.writer.offset;
  const size = writePage(writer, plain, rows, 'PLAIN', false);
  addChunk(writer, [name], start, rows, { encodings: ['PLAIN'], uncompressed: size, type: 'BYTE_ARRAY' });
}

/**
 * A REQUIRED INT64 column of non-negative integers below 2^53 (positions), DELTA_BINARY_PACKED, uncompressed. Deltas do
 * not depend on where the values start: hyparquet-writer packs them relative to the first (in Number arithmetic, where
 * the span fits 31 bits), and the header takes the first value.
 */
export function appendDeltaInt64(writer: ParquetWriter, name: string, values: Float64Array, rows: number): void {
  const first = rows > 0 ? values[0] : 0;
  let [low, high] = [0, 0];
  const shifted = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const v = values[r] - first;
    shifted[r] = v;
    if (v < low) low = v;
    if (v > high) high = v;
  }
  const page = new ByteWriter();
  if (low >= -(2 ** 31) && high < 2 ** 31) {
    const packed = new ByteWriter();
    deltaBinaryPack(packed, shifted, 'INT64');
    // Its header: block size 128 (2 bytes), 4 miniblocks, the count, then the first value 0 (one byte).
    const headerBytes = 4 + varintBytes(rows);
    page.appendVarInt(128);
    page.appendVarInt(4);
    page.appendVarInt(rows);
    page.appendZigZag(BigInt(first)); // a BigInt: the Number path is 32-bit, positions reach 2^53
    page.appendBytes(packed.getBytes().subarray(headerBytes));
  } else deltaBinaryPack(page, BigInt64Array.from(values.subarray(0, rows), BigInt), 'INT64');
  const start = writer.writer.offset;
  const size = writePage(writer, page.getBytes(), rows, 'DELTA_BINARY_PACKED', false);
  addChunk(writer, [name], start, rows, { encodings: ['DELTA_BINARY_PACKED'], uncompressed: size });
}

function varintBytes(value: number): number {
  let bytes = 1;
  for (let v = value; v > 0x7f; v = Math.floor(v / 128)) bytes++;
  return bytes;
}
