/**
 * Row-oriented output files: CSV with a header (RFC 4180 quoting), or JSON
 * Lines when the name ends in `.jsonl`. Written atomically and in large chunks.
 */
import { AtomicFile } from './atomicFile.js';
import { csvCell, type Cell } from './csv.js';

const CHUNK = 1 << 20;

export class BufferedFile {
  private buffer = '';

  private constructor(private readonly file: AtomicFile) {}

  static async create(path: string): Promise<BufferedFile> {
    return new BufferedFile(await AtomicFile.create(path));
  }

  async write(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= CHUNK) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const text = this.buffer;
    this.buffer = '';
    await this.file.write(text);
  }

  async commit(): Promise<void> {
    await this.flush();
    await this.file.commit();
  }

  async abort(): Promise<void> {
    this.buffer = '';
    await this.file.abort();
  }
}


export class TableWriter {
  private constructor(
    private readonly file: BufferedFile,
    private readonly columns: readonly string[],
    private readonly jsonl: boolean,
  ) {}

  static async create(path: string, columns: readonly string[]): Promise<TableWriter> {
    const jsonl = path.toLowerCase().endsWith('.jsonl');
    const file = await BufferedFile.create(path);
    if (!jsonl) await file.write(columns.map(csvCell).join(',') + '\n');
    return new TableWriter(file, columns, jsonl);
  }

  async row(values: readonly Cell[]): Promise<void> {
    if (this.jsonl) {
      const record: Record<string, Cell> = {};
      this.columns.forEach((column, i) => (record[column] = values[i]));
      await this.file.write(JSON.stringify(record) + '\n');
    } else {
      await this.file.write(values.map(csvCell).join(',') + '\n');
    }
  }

  commit(): Promise<void> {
    return this.file.commit();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}
