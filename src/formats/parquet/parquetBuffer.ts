/**
 * Parquet in memory, for the browser app's downloads: hyparquet-writer (pure
 * JS, its built-in snappy, as the CLI's default) encoding one row group at a
 * time into byte chunks, which become a Blob. No Node module: the CLI writes
 * files through parquetFile.ts with the same schemas (parquetSchema.ts).
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import type { Cell } from '../files/csv.js';
import { flatSchema, toColumnValue, type ScalarType } from './parquetSchema.js';

/** hyparquet-writer's buffer, emptied into a chunk after each row group. */
class ChunkByteWriter extends ByteWriter {
  readonly chunks: Uint8Array[] = [];

  flush(): void {
    if (this.index > 0) this.chunks.push(new Uint8Array(this.buffer, 0, this.index).slice());
    this.index = 0;
  }

  override finish(): void {
    this.flush();
  }
}

/** A snappy Parquet file built row group by row group. */
export class ParquetBuffer {
  private readonly bytes = new ChunkByteWriter(1 << 20);
  private readonly writer: ParquetWriter;
  private readonly names: string[];
  private data: unknown[][];
  private textLength = 0;

  /**
   * `schema`: the full schema (root first); a row group holds `rowGroupRows` rows or `rowGroupText` characters of
   * strings.
   */
  constructor(
    schema: SchemaElement[],
    private readonly rowGroupRows: number,
    private readonly rowGroupText = Infinity,
  ) {
    this.writer = new ParquetWriter({ writer: this.bytes, schema, codec: 'SNAPPY', createdBy: 'gpudedup' });
    this.names = schema.slice(1).map((e) => e.name);
    if (schema.some((e) => (e.num_children ?? 0) > 0 && e !== schema[0]))
      throw new Error('ParquetBuffer takes flat schemas only');
    this.data = this.names.map(() => []);
  }

  /** One row, as the column representation (toColumnValue) holds it. */
  add(values: readonly unknown[], textLength = 0): void {
    values.forEach((value, i) => this.data[i].push(value));
    this.textLength += textLength;
    if (this.data[0].length >= this.rowGroupRows || this.textLength >= this.rowGroupText) this.flush();
  }

  private flush(): void {
    const data = this.data;
    this.data = this.names.map(() => []);
    this.textLength = 0;
    if (data[0].length === 0) return;
    void this.writer.write({
      columnData: this.names.map((name, i) => ({ name, data: data[i] as never })),
      rowGroupSize: data[0].length,
    });
  }

  /** The file's bytes, in chunks (for a Blob). */
  finish(): Uint8Array[] {
    this.flush();
    void this.writer.finish();
    return this.bytes.chunks;
  }
}

/** A table of scalar columns (the CLI's --clusters / --pairs / --contamination Parquet), by row of cells. */
export class ParquetTableBuffer {
  private readonly file: ParquetBuffer;

  constructor(
    private readonly columns: readonly (readonly [name: string, type: ScalarType])[],
    rowGroupRows: number,
  ) {
    this.file = new ParquetBuffer(flatSchema(columns.map(([name, type]) => ({ name, type }))), rowGroupRows);
  }

  row(cells: readonly Cell[]): void {
    this.file.add(this.columns.map(([, type], i) => toColumnValue(cells[i], type)));
  }

  finish(): Uint8Array[] {
    return this.file.finish();
  }
}
