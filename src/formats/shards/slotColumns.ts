/**
 * The shard's slot columns (and `score`) written from their words, as listColumn.ts writes the lists: a slot column is
 * dictionary-encoded as hyparquet-writer did it, now without Snappy (near duplicates share slot values: 41 MB of
 * slots a 100 k shard half PLAIN, 28 MB so), but its dictionary is built over (lo, hi) word pairs in a hash table of
 * typed arrays, where hyparquet-writer read every value back as a BigInt, checked its range and keyed a Map with it
 * (issue 38: a third of the ordering thread). Each column is one chunk of the current row group, in schema order.
 */
import type { ParquetWriter } from 'hyparquet-writer';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { rleBitPackedBound, rleBitPackedInto } from './hybridRle.js';
import { addChunk } from './listColumn.js';
import { writeDataPageHeader, writeDictionaryPageHeader } from './pageHeader.js';

/** A dictionary of more than this share of a column's rows is not worth it (hyparquet-writer's ratio): PLAIN. */
const MAX_DICTIONARY_SHARE = 0.9;

/**
 * Column `name`'s first `rows` values, words[2·row] (lo) and words[2·row + 1] (hi), as one chunk, Snappy-compressed
 * with `compress` (random slots gain nothing from it: the shards' columns are written uncompressed).
 */
export function appendSlotColumn(
  writer: ParquetWriter,
  name: string,
  words: Uint32Array,
  rows: number,
  compress = false,
): void {
  const out = writer.writer;
  const start = out.offset;
  const codec = compress ? 'SNAPPY' : 'UNCOMPRESSED';
  const { dictionary, indexes, size } = dictionaryOf(words, rows);
  if (size > MAX_DICTIONARY_SHARE * rows) {
    const plain = writePage(writer, bytesOf(words.subarray(0, 2 * rows)), rows, 'PLAIN', compress);
    addChunk(writer, [name], start, rows, { encodings: ['PLAIN'], uncompressed: plain, codec });
    return;
  }
  const values = bytesOf(dictionary.subarray(0, 2 * size));
  const compressed = compress ? snappyCompress(values) : values;
  writeDictionaryPageHeader(writer, { uncompressed: values.length, compressed: compressed.length, values: size });
  const dictionaryBytes = out.offset - start + values.length;
  out.appendBytes(compressed);
  const dataPage = out.offset;
  const bitWidth = Math.ceil(Math.log2(size));
  // The page (its bit width, then the indexes) in a buffer kept from call to call: written out before the next.
  const bound = 1 + rleBitPackedBound(rows, bitWidth);
  if (scratch.page.length < bound) scratch.page = new Uint8Array(bound);
  scratch.page[0] = bitWidth;
  const page = scratch.page.subarray(0, rleBitPackedInto(indexes, rows, bitWidth, scratch.page, 1));
  const data = writePage(writer, page, rows, 'RLE_DICTIONARY', compress);
  addChunk(writer, [name], start, rows, {
    encodings: ['PLAIN', 'RLE_DICTIONARY'],
    uncompressed: dictionaryBytes + data,
    codec,
    dataPage,
  });
}

/** The `score` column: doubles, PLAIN, uncompressed. */
export function appendScoreColumn(writer: ParquetWriter, scores: Float64Array): void {
  const start = writer.writer.offset;
  const size = writePage(writer, bytesOf(scores), scores.length, 'PLAIN', false);
  addChunk(writer, ['score'], start, scores.length, { encodings: ['PLAIN'], uncompressed: size, type: 'DOUBLE' });
}

/**
 * One data page (v2) of a flat column, Snappy unless `compress` is false; its uncompressed size. An
 * OPTIONAL column's definition levels (RLE, uncompressed) and null count come as `optional`.
 */
export function writePage(
  writer: ParquetWriter,
  bytes: Uint8Array,
  rows: number,
  encoding: 'PLAIN' | 'RLE_DICTIONARY' | 'DELTA_BINARY_PACKED',
  compress = true,
  optional?: { readonly levels: Uint8Array; readonly nulls: number },
): number {
  const out = writer.writer;
  const stored = compress ? snappyCompress(bytes) : bytes;
  const start = out.offset;
  const levels = optional?.levels.length ?? 0;
  writeDataPageHeader(writer, {
    uncompressed: levels + bytes.length,
    compressed: levels + stored.length,
    values: rows,
    nulls: optional?.nulls ?? 0,
    rows,
    encoding,
    definitionBytes: levels,
    repetitionBytes: 0,
    isCompressed: compress,
  });
  const header = out.offset - start;
  if (optional !== undefined) out.appendBytes(optional.levels);
  out.appendBytes(stored);
  return header + levels + bytes.length;
}

export function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** dictionaryOf's arrays, kept from call to call: a shard's 128 slot columns a row group made 28 MB of garbage. */
const scratch = {
  table: new Int32Array(0),
  dictionary: new Uint32Array(0),
  indexes: new Int32Array(0),
  page: new Uint8Array(0),
};

/**
 * The distinct (lo, hi) pairs of the first `rows` in first-seen order (`dictionary`, `size` of them) and each row's
 * index into them: open addressing over a power-of-two table at most half full, each entry a pair's lo word and its
 * index + 1 (0: free), so that a probe reads one cache line and compares lo before it reads the dictionary (15 %
 * fewer CPU-seconds in a micro-benchmark of 128 columns of 8192 rows, half of them repeats). The arrays are valid
 * until the next call.
 */
export function dictionaryOf(
  words: Uint32Array,
  rows: number,
): { dictionary: Uint32Array; indexes: Int32Array; size: number } {
  const bits = Math.max(4, Math.ceil(Math.log2(2 * rows + 1)));
  const mask = (1 << bits) - 1;
  if (scratch.table.length < 2 * (mask + 1)) scratch.table = new Int32Array(2 * (mask + 1));
  if (scratch.indexes.length < rows)
    [scratch.dictionary, scratch.indexes] = [new Uint32Array(2 * rows), new Int32Array(rows)];
  const { table, dictionary } = scratch;
  table.fill(0, 0, 2 * (mask + 1));
  const indexes = scratch.indexes.subarray(0, rows);
  const shift = 32 - bits;
  let size = 0;
  for (let r = 0; r < rows; r++) {
    const lo = words[2 * r] | 0;
    const hi = words[2 * r + 1] | 0;
    let at = Math.imul(lo ^ hi, 0x9e3779b1) >>> shift;
    for (;;) {
      const entry = table[2 * at + 1];
      if (entry === 0) {
        table[2 * at] = lo;
        table[2 * at + 1] = size + 1;
        dictionary[2 * size] = lo;
        dictionary[2 * size + 1] = hi;
        indexes[r] = size++;
        break;
      }
      if (table[2 * at] === lo && (dictionary[2 * entry - 1] | 0) === hi) {
        indexes[r] = entry - 1;
        break;
      }
      at = (at + 1) & mask;
    }
  }
  return { dictionary, indexes, size };
}

/** Value i of `values` into row `at` of column i, word by word. */
export function copyWords(values: BigInt64Array, columns: readonly Uint32Array[], at: number): void {
  const words = new Uint32Array(values.buffer, values.byteOffset, 2 * values.length);
  for (let i = 0; i < columns.length; i++) {
    columns[i][2 * at] = words[2 * i];
    columns[i][2 * at + 1] = words[2 * i + 1];
  }
}
