/**
 * Row-oriented output files: CSV with a header (RFC 4180 quoting), or JSON
 * Lines when the name ends in `.jsonl`; gzip or zstd when it ends in `.gz` or
 * `.zst` (`x.jsonl.gz`, `x.csv.zst`). Written atomically and in large chunks;
 * `-` is standard output.
 *
 * Writes return a promise only when they wait for a chunk to be written (once
 * a megabyte), else undefined: a million rows cost no million promises. A
 * caller awaits what it gets before its next write to the same file.
 */
import { openOutput, type AtomicFile, type OutputFile } from './atomicFile.js';
import { makeEncoder, outputCompressionOf, withoutCompressionSuffix, type Encoder } from './compression.js';
import { csvCell, type Cell } from './csv.js';

const CHUNK = 1 << 20;

export class BufferedFile {
  private buffer = '';
  private bytes: Uint8Array[] = [];
  private byteCount = 0;

  /** Whether anything went to the file or its buffers yet. */
  private written = false;

  private constructor(
    private readonly file: OutputFile,
    private readonly encoder: Encoder,
    private readonly compressed: boolean,
  ) {}

  /** Compressed as the name says (see compression.ts). */
  static async create(path: string): Promise<BufferedFile> {
    const compression = outputCompressionOf(path);
    const encoder = await makeEncoder(compression);
    return new BufferedFile(await openOutput(path), encoder, compression !== 'none');
  }

  /**
   * The temporary file that becomes this one, for bytes written at their offsets by other threads instead of through
   * this writer: only uncompressed, to a file (not standard output), before anything was written.
   */
  positionalPath(): string | undefined {
    const { tempPath } = this.file as Partial<AtomicFile>;
    return this.compressed || this.written || tempPath === undefined ? undefined : tempPath;
  }

  write(text: string): Promise<void> | undefined {
    this.written = true;
    if (this.bytes.length > 0) return this.flushBytes().then(() => this.write(text));
    this.buffer += text;
    return this.buffer.length >= CHUNK ? this.flush() : undefined;
  }

  /** Bytes as they are (kept lines copied from the input), in order with the text written. */
  writeBytes(bytes: Uint8Array): Promise<void> | undefined {
    this.written = true;
    if (this.buffer.length > 0) return this.flush().then(() => this.writeBytes(bytes));
    this.bytes.push(bytes);
    this.byteCount += bytes.length;
    return this.byteCount >= CHUNK ? this.flushBytes() : undefined;
  }

  private async flush(): Promise<void> {
    await this.flushBytes();
    if (this.buffer.length === 0) return;
    const text = this.buffer;
    this.buffer = '';
    await this.writeAll(await this.encoder.push(Buffer.from(text, 'utf8')));
  }

  private async flushBytes(): Promise<void> {
    if (this.bytes.length === 0) return;
    // One chunk (a worker's rows, a run of kept lines past a megabyte) goes as it is, uncopied.
    const joined = this.bytes.length === 1 ? this.bytes[0] : Buffer.concat(this.bytes, this.byteCount);
    this.bytes = [];
    this.byteCount = 0;
    await this.writeAll(await this.encoder.push(joined));
  }

  private async writeAll(chunks: readonly Uint8Array[]): Promise<void> {
    for (const chunk of chunks) await this.file.write(chunk);
  }

  async commit(): Promise<void> {
    await this.flush();
    await this.writeAll(await this.encoder.finish());
    await this.file.commit();
  }

  async abort(): Promise<void> {
    this.buffer = '';
    this.bytes = [];
    await this.file.abort();
  }
}

/** How a table's rows are written: CSV cells, or JSON Lines records with these keys. */
export interface RowFormat {
  readonly columns: readonly string[];
  readonly jsonl: boolean;
}

/** One row as its line (newline included): a pure function, so that worker threads format rows as the writer would. */
export function formatRow({ columns, jsonl }: RowFormat, values: readonly Cell[]): string {
  if (jsonl) {
    const record: Record<string, Cell> = {};
    columns.forEach((column, i) => (record[column] = values[i]));
    return JSON.stringify(record) + '\n';
  }
  let line = csvCell(values[0]);
  for (let i = 1; i < values.length; i++) line += ',' + csvCell(values[i]);
  return line + '\n';
}

export class TableWriter {
  private constructor(
    private readonly file: BufferedFile,
    readonly format: RowFormat,
  ) {}

  static async create(path: string, columns: readonly string[]): Promise<TableWriter> {
    const jsonl = withoutCompressionSuffix(path).toLowerCase().endsWith('.jsonl');
    const file = await BufferedFile.create(path);
    if (!jsonl) await file.write(columns.map(csvCell).join(',') + '\n');
    return new TableWriter(file, { columns, jsonl });
  }

  /** Undefined, or a promise to await before the next row: see the header. */
  row(values: readonly Cell[]): Promise<void> | undefined {
    return this.file.write(formatRow(this.format, values));
  }

  /** Rows already formatted (`formatRow` on a worker thread) as UTF-8, in order with the rows written. */
  formatted(bytes: Uint8Array): Promise<void> | undefined {
    return this.file.writeBytes(bytes);
  }

  commit(): Promise<void> {
    return this.file.commit();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}
