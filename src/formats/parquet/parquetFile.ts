/**
 * Parquet output: hyparquet-writer (pure JS) encoding one row group at a time
 * into an AtomicFile (temp + rename), so memory holds one row group. Snappy by
 * default; zstd (the zstd library as WebAssembly), gzip (zlib) or none.
 */
import { gzipSync } from 'node:zlib';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { CompressionCodec, KeyValue, SchemaElement } from 'hyparquet';
import { AtomicFile } from '../files/atomicFile.js';
import { loadZstd } from '../files/compression.js';

export const PARQUET_COMPRESSIONS = ['snappy', 'zstd', 'gzip', 'none'] as const;
export type ParquetCompression = (typeof PARQUET_COMPRESSIONS)[number];

export function isParquetOutput(path: string): boolean {
  return /\.parquet$/i.test(path);
}

const CODECS: Record<ParquetCompression, CompressionCodec> = {
  snappy: 'SNAPPY',
  zstd: 'ZSTD',
  gzip: 'GZIP',
  none: 'UNCOMPRESSED',
};

/** hyparquet-writer's buffer, emptied into the file after each row group. */
class FileByteWriter extends ByteWriter {
  constructor(private readonly file: AtomicFile) {
    super(1 << 20);
  }

  flush(): Promise<void> {
    const bytes = new Uint8Array(this.buffer, 0, this.index).slice();
    this.index = 0;
    return this.file.write(bytes);
  }

  override finish(): Promise<void> {
    return this.flush();
  }
}

/** A column's values for one row group, in the representation hyparquet-writer takes (bigint for INT64). */
export interface ColumnValues {
  readonly name: string;
  readonly data: unknown[];
  /** PLAIN skips the dictionary attempt (random values such as signature slots). */
  readonly encoding?: 'PLAIN';
  /** Min/max statistics (default true). */
  readonly statistics?: boolean;
}

export interface ParquetFileOptions {
  readonly compression?: ParquetCompression;
  readonly metadata?: Readonly<Record<string, string>>;
  /**
   * The schema the footer gives, when columns are written by another (keptParquet.ts: annotations written as bytes).
   */
  readonly footerSchema?: SchemaElement[];
}

export class ParquetFile {
  private constructor(
    private readonly file: AtomicFile,
    private readonly writer: ParquetWriter,
    private readonly footerSchema?: SchemaElement[],
  ) {}

  /** `schema`: the full Parquet schema (root first), as in a file's metadata. */
  static async create(path: string, schema: SchemaElement[], options: ParquetFileOptions = {}): Promise<ParquetFile> {
    const compression = options.compression ?? 'snappy';
    const zstd = compression === 'zstd' ? await loadZstd() : undefined;
    const file = await AtomicFile.create(path);
    const kvMetadata: KeyValue[] = Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value }));
    const writer = new ParquetWriter({
      writer: new FileByteWriter(file),
      schema,
      codec: CODECS[compression],
      compressors: { ...(zstd && { ZSTD: zstd }), GZIP: (bytes: Uint8Array) => gzipSync(bytes) },
      kvMetadata: kvMetadata.length > 0 ? kvMetadata : undefined,
      createdBy: 'gpudedup',
    });
    return new ParquetFile(file, writer, options.footerSchema);
  }

  /** Writes one row group (all columns the same length; none at all is skipped). */
  async writeRowGroup(columns: readonly ColumnValues[]): Promise<void> {
    const rows = columns[0]?.data.length ?? 0;
    if (rows === 0) return;
    await this.writer.write({
      columnData: columns.map((c) => ({
        name: c.name,
        data: c.data as never,
        encoding: c.encoding,
        statistics: c.statistics,
      })),
      rowGroupSize: rows,
    });
  }

  /** Key-value metadata written in the footer (replaces what create() was given). */
  setMetadata(metadata: Readonly<Record<string, string>>): void {
    this.writer.kvMetadata = Object.entries(metadata).map(([key, value]) => ({ key, value }));
  }

  async commit(): Promise<void> {
    // hyparquet-writer reads `schema` when it encodes a row group and when it writes the footer.
    if (this.footerSchema !== undefined) this.writer.schema = this.footerSchema;
    await this.writer.finish();
    await this.file.commit();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}

export { flatSchema, toColumnValue, type ScalarType } from './parquetSchema.js';
