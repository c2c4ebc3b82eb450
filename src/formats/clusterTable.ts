/**
 * Reads a clusters table back (`id, cluster, kept` per document, as `dedup
 * --clusters` and `cluster --clusters` write it): CSV with a header, JSON
 * Lines (.jsonl) or Parquet (.parquet), streamed row by row in file order.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';

export interface ClusterTableRow {
  readonly id: string;
  readonly cluster: number;
  readonly kept: boolean;
  /** 1-based line (CSV: the record's first line; JSONL) or row (Parquet), for messages. */
  readonly line: number;
}

export function readClusterTable(path: string): AsyncGenerator<ClusterTableRow> {
  const lower = path.toLowerCase();
  if (lower.endsWith('.parquet')) return readParquetTable(path);
  if (lower.endsWith('.jsonl')) return readJsonlTable(path);
  return readCsvTable(path);
}

function parseKept(value: unknown, where: string): boolean {
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  throw new Error(`${where}: kept must be true or false, got ${JSON.stringify(value)}`);
}

function row(record: Record<string, unknown>, where: string, line: number): ClusterTableRow {
  if (record.id === undefined || record.id === null) throw new Error(`${where}: no id`);
  const cluster = Number(record.cluster);
  if (!Number.isSafeInteger(cluster) || cluster < 0)
    throw new Error(`${where}: cluster must be a non-negative integer, got ${JSON.stringify(record.cluster)}`);
  return { id: String(record.id), cluster, kept: parseKept(record.kept, where), line };
}

async function* readJsonlTable(path: string): AsyncGenerator<ClusterTableRow> {
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`${path}:${line}: not JSON (${(error as Error).message})`);
    }
    yield row(record, `${path}:${line}`, line);
  }
}

async function* readParquetTable(path: string): AsyncGenerator<ClusterTableRow> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const rows = Number(metadata.num_rows);
  for (let start = 0; start < rows; start += 65536) {
    const chunk = await parquetReadObjects({
      file,
      metadata,
      columns: ['id', 'cluster', 'kept'],
      rowStart: start,
      rowEnd: Math.min(rows, start + 65536),
    });
    for (let i = 0; i < chunk.length; i++) yield row(chunk[i], `${path}: row ${start + i + 1}`, start + i + 1);
  }
}

/** RFC 4180 records (quoted cells may hold commas, quotes and line breaks), header first. */
async function* readCsvTable(path: string): AsyncGenerator<ClusterTableRow> {
  let header: string[] | undefined;
  for await (const { cells, line } of csvRecords(path)) {
    if (header === undefined) {
      header = cells;
      for (const column of ['id', 'cluster', 'kept'])
        if (!header.includes(column)) throw new Error(`${path}:1: the header has no ${column} column`);
      continue;
    }
    if (cells.length === 1 && cells[0] === '') continue;
    if (cells.length !== header.length)
      throw new Error(`${path}:${line}: ${cells.length} cells, the header has ${header.length}`);
    const record: Record<string, string> = {};
    header.forEach((column, i) => (record[column] = cells[i]));
    yield row(record, `${path}:${line}`, line);
  }
}

/** A CSV record's cells and the line it starts on. */
interface CsvRecord {
  cells: string[];
  line: number;
}

/** A CSV parse across chunks (quoted cells with "" in them; records end at LF, CRLF or CR). */
class CsvScanner {
  cells: string[] = [];
  cell = '';
  quoted = false;
  afterQuote = false;
  line = 1;
  recordLine = 1;
  pendingCr = false;

  /** The records that `text`, the next chunk, completes. */
  scan(text: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    let { cells, cell, quoted, afterQuote, line, recordLine, pendingCr } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (pendingCr) {
        pendingCr = false;
        if (c === '\n') continue;
      }
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i++;
          } else if (i + 1 === text.length) {
            // A quote at a chunk's end: decided by the next chunk's first character.
            afterQuote = true;
            quoted = false;
          } else quoted = false;
        } else {
          if (c === '\n') line++;
          cell += c;
        }
        continue;
      }
      if (afterQuote) {
        afterQuote = false;
        if (c === '"') {
          cell += '"';
          quoted = true;
          continue;
        }
      }
      if (c === '"') quoted = true;
      else if (c === ',') {
        cells.push(cell);
        cell = '';
      } else if (c === '\n' || c === '\r') {
        cells.push(cell);
        records.push({ cells, line: recordLine });
        cells = [];
        cell = '';
        line++;
        recordLine = line;
        pendingCr = c === '\r';
      } else cell += c;
    }
    Object.assign(this, { cells, cell, quoted, afterQuote, line, recordLine, pendingCr });
    return records;
  }
}

export async function* csvRecords(path: string): AsyncGenerator<CsvRecord> {
  const scanner = new CsvScanner();
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) yield* scanner.scan(chunk as string);
  const { cells, cell, quoted, recordLine } = scanner;
  if (quoted) throw new Error(`${path}:${recordLine}: unterminated quoted cell`);
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    yield { cells, line: recordLine };
  }
}
