/**
 * The ids of `gpudedup index remove --ids FILE`, by the file's name:
 * `.csv` (a header with an `id` column, or the `--id-field` name),
 * `.jsonl`/`.ndjson`/`.json` (one object per line, its id field),
 * `.parquet` (its id column), anything else one id per line (blank lines
 * skipped, surrounding spaces trimmed). `-` is standard input, one id per line.
 * A row without the id is refused, naming the file and line.
 */
import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { systemReason } from '../errors.js';
import { invalidIdReason } from '../text/wellFormed.js';
import { createInterface } from 'node:readline';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { InputError } from '../io/documents.js';
import { csvRecords } from './clusterTable.js';

export async function readIdList(path: string, idField = 'id'): Promise<string[]> {
  if (path !== '-') {
    // Checked up front: a missing or unreadable file is one line naming it, not a stream's raw ENOENT.
    await access(path, constants.R_OK).catch((error: unknown) => {
      throw new InputError(path, 0, systemReason(error));
    });
  }
  const lower = path.toLowerCase();
  if (lower.endsWith('.parquet')) return parquetIds(path, idField);
  if (lower.endsWith('.csv')) return csvIds(path, idField);
  if (/\.(jsonl|ndjson|json)$/.test(lower)) return jsonIds(path, idField);
  const ids: string[] = [];
  for await (const line of lines(path)) if (line.text.trim() !== '') ids.push(line.text.trim());
  return ids;
}

async function* lines(path: string): AsyncGenerator<{ text: string; line: number }> {
  let line = 0;
  const input = path === '-' ? process.stdin : createReadStream(path);
  for await (const text of createInterface({ input, crlfDelay: Infinity }))
    yield { text: line++ === 0 ? text.replace(/^\uFEFF/, '') : text, line };
}

/** An id cell: a string, or a number or bigint written as text; anything else refused. */
function idOf(value: unknown, path: string, line: number, idField: string): string {
  const invalid = typeof value === 'string' ? invalidIdReason(value) : undefined;
  if (invalid !== undefined) throw new InputError(path, line, `"${idField}" ${invalid}`);
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  throw new InputError(
    path,
    line,
    value === undefined || value === null
      ? `no "${idField}" field`
      : `"${idField}" must be a string or a number, got ${JSON.stringify(value)}`,
  );
}

async function jsonIds(path: string, idField: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const { text, line } of lines(path)) {
    if (text.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new InputError(path, line, `not JSON (${(error as Error).message})`);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record))
      throw new InputError(path, line, 'not a JSON object');
    ids.push(idOf((record as Record<string, unknown>)[idField], path, line, idField));
  }
  return ids;
}

async function csvIds(path: string, idField: string): Promise<string[]> {
  const ids: string[] = [];
  let column = -1;
  for await (const { cells, line } of csvRecords(path)) {
    if (column < 0) {
      column = cells.map((c) => c.replace(/^\uFEFF/, '')).indexOf(idField);
      if (column < 0) throw new InputError(path, 1, `the header has no "${idField}" column (give --id-field)`);
      continue;
    }
    if (cells.length === 1 && cells[0] === '') continue;
    ids.push(idOf(cells[column], path, line, idField));
  }
  return ids;
}

async function parquetIds(path: string, idField: string): Promise<string[]> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  if (!metadata.schema.some((element) => element.name === idField))
    throw new InputError(path, 0, `no "${idField}" column (give --id-field)`);
  const rows = Number(metadata.num_rows);
  const ids: string[] = [];
  for (let start = 0; start < rows; start += 65536) {
    const chunk = await parquetReadObjects({
      file,
      metadata,
      columns: [idField],
      rowStart: start,
      rowEnd: Math.min(rows, start + 65536),
    });
    for (let i = 0; i < chunk.length; i++) ids.push(idOf(chunk[i][idField], path, start + i + 1, idField));
  }
  return ids;
}
