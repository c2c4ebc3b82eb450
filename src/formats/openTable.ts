/**
 * A row-oriented output by its name: Parquet (`*.parquet`, typed columns),
 * else CSV or JSON Lines, compressed or not (tableWriter.ts).
 */
import type { Cell } from './files/csv.js';
import { isParquetOutput, ParquetFile, type ParquetCompression } from './parquet/parquetFile.js';
import { flatSchema, TABLE_ROW_GROUP, toColumnValue, type ScalarType } from './parquet/parquetSchema.js';
import { TableWriter, type RowFormat } from './files/tableWriter.js';

export type TableColumn = readonly [name: string, type: ScalarType];

export interface RowTable {
  /** Undefined, or a promise to await before the next row (tableWriter.ts). */
  row(values: readonly Cell[]): Promise<void> | undefined;
  commit(): Promise<void>;
  abort(): Promise<void>;
  /** CSV and JSON Lines: how rows are formatted, and a way in for rows formatted elsewhere (worker threads). */
  readonly format?: RowFormat;
  formatted?(bytes: Uint8Array): Promise<void> | undefined;
}

export async function openTable(
  path: string,
  columns: readonly TableColumn[],
  compression?: ParquetCompression,
): Promise<RowTable> {
  if (!isParquetOutput(path))
    return TableWriter.create(
      path,
      columns.map(([name]) => name),
    );
  return new ParquetTable(
    await ParquetFile.create(path, flatSchema(columns.map(([name, type]) => ({ name, type }))), { compression }),
    columns,
  );
}

class ParquetTable implements RowTable {
  private data: unknown[][];

  constructor(
    private readonly file: ParquetFile,
    private readonly columns: readonly TableColumn[],
  ) {
    this.data = columns.map(() => []);
  }

  async row(values: readonly Cell[]): Promise<void> {
    this.columns.forEach(([, type], i) => this.data[i].push(toColumnValue(values[i], type)));
    if (this.data[0].length >= TABLE_ROW_GROUP) await this.flush();
  }

  private async flush(): Promise<void> {
    const data = this.data;
    this.data = this.columns.map(() => []);
    await this.file.writeRowGroup(this.columns.map(([name], i) => ({ name, data: data[i] })));
  }

  async commit(): Promise<void> {
    await this.flush();
    await this.file.commit();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}
