/**
 * Documents from a Parquet file, one row group at a time: memory holds one
 * row group (decompressed), never the whole file. No Node imports: the file
 * is any hyparquet AsyncBuffer (a local file in the CLI, a `File` in a tab).
 *
 * `textField` names the text column (a string column at the top level);
 * `idField` the id column (string or integer), if the file has one, else rows
 * are named by their 1-based row number (`path:row` with several inputs);
 * only the default `id` may be missing (idFieldRequired).
 * Every top-level column of a row is the document's `record` (for
 * `--keep field:NAME` and for writing the row back), each value exactly as
 * stored (parquetValues.ts).
 */
import {
  parquetMetadataAsync,
  parquetReadObjects,
  parquetSchema,
  type AsyncBuffer,
  type FileMetaData,
  type SchemaTree,
} from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { idFieldRequired, InputError, type InputDocument, type ReadOptions } from './documents.js';
import { EXACT_PARSERS, exactConverter, readingSchema, type Convert } from './parquetValues.js';

export interface ParquetSource {
  readonly metadata: FileMetaData;
  /** Top-level columns, in file order. */
  readonly columns: readonly SchemaTree[];
}

/** `initialFetchSize`: bytes read from the end at first (hyparquet's default 512 KiB reads all of a small file). */
export async function openParquet(file: AsyncBuffer, path: string, initialFetchSize?: number): Promise<ParquetSource> {
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file, initialFetchSize === undefined ? undefined : { initialFetchSize });
  } catch (error) {
    throw new InputError(path, 0, `not a readable Parquet file (${(error as Error).message})`);
  }
  return { metadata, columns: parquetSchema(metadata).children };
}

/** Why a column cannot be the text (or id) column, or undefined when it can. */
function unusableColumn(column: SchemaTree | undefined, role: 'text' | 'id'): string | undefined {
  if (column === undefined) return undefined;
  const { element } = column;
  if (column.children.length > 0)
    return (
      `is nested (${element.logical_type?.type ?? element.converted_type ?? 'a group'}), not a ` +
      `${role === 'text' ? 'string' : 'scalar'}`
    );
  if (element.repetition_type === 'REPEATED') return 'is a repeated field, not a scalar';
  if (role === 'text' && element.type !== 'BYTE_ARRAY') return `has type ${element.type}, not a string (BYTE_ARRAY)`;
  if (role === 'id' && !['BYTE_ARRAY', 'INT32', 'INT64', 'FIXED_LEN_BYTE_ARRAY'].includes(element.type ?? ''))
    return `has type ${element.type}, not a string or integer`;
  return undefined;
}

export async function* readParquetDocuments(
  file: AsyncBuffer,
  path: string,
  qualifyIds: boolean,
  options: Pick<ReadOptions, 'textField' | 'idField' | 'skipInvalid' | 'onInvalid'>,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  const source = await openParquet(file, path);
  for (let group = 0; group < source.metadata.row_groups.length; group++)
    yield* readParquetRowGroup(file, path, group, qualifyIds, options, source);
}

/** Row group `group` of the file (the first pass's workers read one each); `source` saves reading the footer again. */
export async function* readParquetRowGroup(
  file: AsyncBuffer,
  path: string,
  group: number,
  qualifyIds: boolean,
  options: Pick<ReadOptions, 'textField' | 'idField' | 'skipInvalid' | 'onInvalid'>,
  source?: ParquetSource,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  const { metadata, columns } = source ?? (await openParquet(file, path));
  const { textColumn, idColumn } = chooseColumns(columns, path, options);
  const reading = { ...metadata, schema: readingSchema(metadata.schema) };
  const converters = recordConverters(columns, [textColumn, idColumn]);
  const { rowStart, rows } = await readRows(file, path, metadata, reading, group);
  for (let i = 0; i < rows.length; i++) {
    const row = rowStart + i + 1;
    const record = rows[i];
    for (const [name, convert] of converters) record[name] = convert(record[name]);
    const text = record[options.textField];
    let problem: string | undefined;
    if (typeof text !== 'string')
      problem = `text column "${options.textField}" is ${text === null || text === undefined ? 'null' : `a ${typeof text}`}, not a string`;
    const rawId = idColumn === undefined ? undefined : record[options.idField];
    let id: string;
    if (rawId === undefined || rawId === null) {
      id = qualifyIds ? `${path}:${row}` : String(row);
      if (idColumn !== undefined && idFieldRequired(options.idField))
        problem ??= `id column "${options.idField}" is null`;
    } else if (typeof rawId === 'string' || typeof rawId === 'number' || typeof rawId === 'bigint') id = String(rawId);
    else {
      id = '';
      problem ??= `id column "${options.idField}" is a ${typeof rawId}, not a string or integer`;
    }
    if (problem !== undefined) {
      const error = new InputError(path, row, `row group ${group}: ${problem}`);
      if (!options.skipInvalid) throw error;
      options.onInvalid?.(error.message);
      continue;
    }
    yield { id, text: text as string, source: { path, line: row }, record };
  }
}

/** The text and id columns `options` name, refused when missing (the id column only when required) or unusable. */
function chooseColumns(
  columns: readonly SchemaTree[],
  path: string,
  options: Pick<ReadOptions, 'textField' | 'idField'>,
): { textColumn: SchemaTree; idColumn: SchemaTree | undefined } {
  const byName = new Map(columns.map((c) => [c.element.name, c]));
  const textColumn = byName.get(options.textField);
  if (textColumn === undefined) {
    throw new InputError(
      path,
      0,
      `no text column "${options.textField}" (columns: ${columns.map((c) => c.element.name).join(', ')}); choose one ` +
        `with --text-field`,
    );
  }
  const textProblem = unusableColumn(textColumn, 'text');
  if (textProblem) throw new InputError(path, 0, `text column "${options.textField}" ${textProblem}`);
  const idColumn = byName.get(options.idField);
  if (idColumn === undefined && idFieldRequired(options.idField)) {
    throw new InputError(
      path,
      0,
      `no id column "${options.idField}" (columns: ${columns.map((c) => c.element.name).join(', ')}); choose one with --id-field`,
    );
  }
  const idProblem = unusableColumn(idColumn, 'id');
  if (idProblem) throw new InputError(path, 0, `id column "${options.idField}" ${idProblem}`);
  return { textColumn, idColumn };
}

/** Row group `group`'s rows (as objects) and the file row of its first. */
async function readRows(
  file: AsyncBuffer,
  path: string,
  metadata: FileMetaData,
  reading: FileMetaData,
  group: number,
): Promise<{ rowStart: number; rows: Record<string, unknown>[] }> {
  let rowStart = 0;
  for (let g = 0; g < group; g++) rowStart += Number(metadata.row_groups[g].num_rows);
  const rowEnd = rowStart + Number(metadata.row_groups[group].num_rows);
  let rows: Record<string, unknown>[];
  try {
    // utf8: false keeps binary columns as bytes (a string column is still read as text).
    rows = await parquetReadObjects({
      file,
      metadata: reading,
      rowStart,
      rowEnd,
      compressors,
      utf8: false,
      parsers: EXACT_PARSERS,
    });
  } catch (error) {
    throw new InputError(path, 0, `row group ${group}: ${(error as Error).message}`);
  }
  return { rowStart, rows };
}

const utf8 = new TextDecoder();

/**
 * Each column's conversion to its exact value (parquetValues.ts); the text and id columns, when bytes without a string
 * annotation, as text.
 */
function recordConverters(
  columns: readonly SchemaTree[],
  textual: readonly (SchemaTree | undefined)[],
): [string, Convert][] {
  const converters: [string, Convert][] = [];
  for (const column of columns) {
    const { type, converted_type, logical_type } = column.element;
    const plainBytes = type === 'BYTE_ARRAY' && converted_type === undefined && logical_type === undefined;
    const convert = plainBytes && textual.includes(column) ? asText : exactConverter(column);
    if (convert !== undefined) converters.push([column.element.name, convert]);
  }
  return converters;
}

function asText(value: unknown): unknown {
  return value instanceof Uint8Array ? utf8.decode(value) : value;
}
