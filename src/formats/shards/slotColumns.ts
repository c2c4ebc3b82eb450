/**
 * The shard's slot columns (and `score`) written from their words, as listColumn.ts writes the lists: a slot column is
 * dictionary-encoded and Snappy-compressed as hyparquet-writer did it (near duplicates share slot values: 41 MB of
 * slots a 100 k shard half PLAIN, 28 MB so), but its dictionary is built over (lo, hi) word pairs in a hash table of
 * typed arrays, where hyparquet-writer read every value back as a BigInt, checked its range and keyed a Map with it
 * (issue 38: a third of the ordering thread). Each column is one chunk of the row group just written, in schema order.
 */
import { ByteWriter, type ParquetWriter } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { addChunk } from './listColumn.js';

/** A dictionary of more than this share of a column's rows is not worth it (hyparquet-writer's ratio): PLAIN. */
const MAX_DICTIONARY_SHARE = 0.9;

/** Column `name`'s first `rows` values, words[2·row] (lo) and words[2·row + 1] (hi), as one chunk. */
export function appendSlotColumn(writer: ParquetWriter, name: string, words: Uint32Array, rows: number): void {
  const out = writer.writer;
  const start = out.offset;
  const { dictionary, indexes, size } = dictionaryOf(words, rows);
  if (size > MAX_DICTIONARY_SHARE * rows) {
    const plain = writePage(writer, bytesOf(words.subarray(0, 2 * rows)), rows, 'PLAIN');
    addChunk(writer, [name], start, rows, { encodings: ['PLAIN'], uncompressed: plain, codec: 'SNAPPY' });
    return;
  }
  const values = bytesOf(dictionary.subarray(0, 2 * size));
  const compressed = snappyCompress(values);
  writePageHeader(out, {
    type: 'DICTIONARY_PAGE',
    uncompressed_page_size: values.length,
    compressed_page_size: compressed.length,
    dictionary_page_header: { num_values: size, encoding: 'PLAIN' },
  });
  const dictionaryBytes = out.offset - start + values.length;
  out.appendBytes(compressed);
  const dataPage = out.offset;
  const page = new ByteWriter();
  const bitWidth = Math.ceil(Math.log2(size));
  page.appendUint8(bitWidth);
  writeRleBitPackedHybrid(page, indexes as unknown as number[], bitWidth);
  const data = writePage(writer, page.getBytes(), rows, 'RLE_DICTIONARY');
  addChunk(writer, [name], start, rows, {
    encodings: ['PLAIN', 'RLE_DICTIONARY'],
    uncompressed: dictionaryBytes + data,
    codec: 'SNAPPY',
    dataPage,
  });
}

/** The `score` column: doubles, PLAIN, uncompressed. */
export function appendScoreColumn(writer: ParquetWriter, scores: Float64Array): void {
  const start = writer.writer.offset;
  const size = writePage(writer, bytesOf(scores), scores.length, 'PLAIN', false);
  addChunk(writer, ['score'], start, scores.length, { encodings: ['PLAIN'], uncompressed: size, type: 'DOUBLE' });
}

/** One data page (v2) of a REQUIRED flat column (no levels), Snappy unless `compress` is false; its uncompressed size. */
function writePage(
  writer: ParquetWriter,
  bytes: Uint8Array,
  rows: number,
  encoding: 'PLAIN' | 'RLE_DICTIONARY',
  compress = true,
): number {
  const out = writer.writer;
  const stored = compress ? snappyCompress(bytes) : bytes;
  const start = out.offset;
  writePageHeader(out, {
    type: 'DATA_PAGE_V2',
    uncompressed_page_size: bytes.length,
    compressed_page_size: stored.length,
    data_page_header_v2: {
      num_values: rows,
      num_nulls: 0,
      num_rows: rows,
      encoding,
      definition_levels_byte_length: 0,
      repetition_levels_byte_length: 0,
      is_compressed: compress,
    },
  });
  const header = out.offset - start;
  out.appendBytes(stored);
  return header + bytes.length;
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * The distinct (lo, hi) pairs of the first `rows` in first-seen order (`dictionary`, `size` of them) and each row's
 * index into them: open addressing over a power-of-two table at most half full.
 */
export function dictionaryOf(
  words: Uint32Array,
  rows: number,
): { dictionary: Uint32Array; indexes: Int32Array; size: number } {
  const mask = (1 << Math.max(4, Math.ceil(Math.log2(2 * rows + 1)))) - 1;
  const table = new Int32Array(mask + 1).fill(-1);
  const dictionary = new Uint32Array(2 * rows);
  const indexes = new Int32Array(rows);
  let size = 0;
  for (let r = 0; r < rows; r++) {
    const lo = words[2 * r];
    const hi = words[2 * r + 1];
    let at = (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 7) & mask;
    for (;;) {
      const entry = table[at];
      if (entry === -1) {
        table[at] = size;
        dictionary[2 * size] = lo;
        dictionary[2 * size + 1] = hi;
        indexes[r] = size++;
        break;
      }
      if (dictionary[2 * entry] === lo && dictionary[2 * entry + 1] === hi) {
        indexes[r] = entry;
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
