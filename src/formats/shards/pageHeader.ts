/**
 * The page headers of the shard's columns (a data page v2, or a dictionary page) in Thrift's compact protocol, the
 * bytes hyparquet-writer's writePageHeader writes, without its walk over a generic object (issue 38: a tenth of the
 * shards' writing: a header a column of each row group).
 */
import type { ParquetWriter } from 'hyparquet-writer';

/** Parquet's page types and encodings by number (parquet.thrift). */
const DATA_PAGE_V2 = 3;
const DICTIONARY_PAGE = 2;
const ENCODINGS = { PLAIN: 0, RLE: 3, DELTA_BINARY_PACKED: 5, RLE_DICTIONARY: 8 } as const;
export type PageEncoding = keyof typeof ENCODINGS;

/** Compact protocol: a field header byte (id delta, type), I32 = 5, STRUCT = 12, BOOLEAN_FALSE = 2, stop 0. */
const I32 = 5;
const STRUCT = 12;
const FALSE = 2;

export interface DataPageV2 {
  readonly uncompressed: number;
  readonly compressed: number;
  readonly values: number;
  readonly nulls: number;
  readonly rows: number;
  readonly encoding: PageEncoding;
  readonly definitionBytes: number;
  readonly repetitionBytes: number;
  readonly isCompressed: boolean;
}

class HeaderBytes {
  readonly bytes = new Uint8Array(96);
  at = 0;

  field(delta: number, type: number): void {
    this.bytes[this.at++] = (delta << 4) | type;
  }

  /** A non-negative I32 field value (zigzag: 2v, as a varint). */
  i32(value: number): void {
    let v = 2 * value;
    while (v > 0x7f) {
      this.bytes[this.at++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.bytes[this.at++] = v;
  }

  fields(values: readonly number[]): void {
    for (const v of values) {
      this.field(1, I32);
      this.i32(v);
    }
  }

  stop(): void {
    this.bytes[this.at++] = 0;
  }
}

/** A DATA_PAGE_V2 header. */
export function writeDataPageHeader(writer: ParquetWriter, page: DataPageV2): void {
  const h = new HeaderBytes();
  h.fields([DATA_PAGE_V2, page.uncompressed, page.compressed]);
  h.field(5, STRUCT); // field 8 after field 3
  h.fields([page.values, page.nulls, page.rows, ENCODINGS[page.encoding], page.definitionBytes, page.repetitionBytes]);
  if (!page.isCompressed) h.field(1, FALSE);
  h.stop();
  h.stop();
  writer.writer.appendBytes(h.bytes.subarray(0, h.at));
}

/** A DICTIONARY_PAGE header of `values` PLAIN values. */
export function writeDictionaryPageHeader(
  writer: ParquetWriter,
  page: { readonly uncompressed: number; readonly compressed: number; readonly values: number },
): void {
  const h = new HeaderBytes();
  h.fields([DICTIONARY_PAGE, page.uncompressed, page.compressed]);
  h.field(4, STRUCT); // field 7 after field 3
  h.fields([page.values, ENCODINGS.PLAIN]);
  h.stop();
  h.stop();
  writer.writer.appendBytes(h.bytes.subarray(0, h.at));
}
