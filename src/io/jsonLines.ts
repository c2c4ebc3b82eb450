/**
 * One JSON Lines record → a document, with the rules the CLI and the browser
 * app share (no Node imports): an object per line, text in `textField` (a
 * string), id in `idField` (string or number; else the line number, or
 * `path:line` with several inputs). Integers beyond 2^53 are read as bigints,
 * every digit kept (exactJson.ts). A bad line comes back as an InputError
 * naming file and line, for the caller to throw or skip.
 */
import { namesOf } from '../format.js';
import { invalidIdReason } from '../text/wellFormed.js';
import { idFieldRequired, InputError, type InputDocument, type ReadOptions } from './documents.js';
import { jsonText, parseJsonExact } from './exactJson.js';

/**
 * `*.jsonl`, `*.ndjson`, `*.json`, each optionally `.gz` or `.zst`: JSON Lines; any other name is one plain-text
 * document.
 */
export function isJsonLinesName(name: string): boolean {
  return /\.(jsonl|ndjson|json)(\.gz|\.zst|\.zstd)?$/i.test(name);
}

/** Why a document without an id is refused in a shard's piece that starts mid-file (its line number names nothing). */
export function noIdMidFile(idField: string): string {
  return `no "${idField}": a shard reading from mid-file cannot name a document by its line number; give every document an id`;
}

export function parseJsonLine(
  line: string,
  path: string,
  lineNumber: number,
  qualifyIds: boolean,
  options: Pick<ReadOptions, 'textField' | 'idField'>,
): Omit<InputDocument, 'index'> | InputError {
  let record: unknown;
  try {
    record = parseJsonExact(line);
  } catch (error) {
    return new InputError(path, lineNumber, `malformed JSON (${(error as Error).message}; ${expectedLayout(path)})`);
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return new InputError(path, lineNumber, `expected a JSON object, not ${describeType(record)}`);
  }
  const fields = record as Record<string, unknown>;
  const text = fields[options.textField];
  if (text === undefined)
    return new InputError(path, lineNumber, `missing text field "${options.textField}" (${fieldsOf(fields)})`);
  if (typeof text !== 'string') {
    return new InputError(path, lineNumber, `text field "${options.textField}" is ${describeType(text)}, not a string`);
  }
  const rawId = fields[options.idField];
  let id: string;
  if (rawId === undefined || rawId === null) {
    if (idFieldRequired(options.idField))
      return new InputError(
        path,
        lineNumber,
        rawId === null
          ? `id field "${options.idField}" is null`
          : `missing id field "${options.idField}" (${fieldsOf(fields)})`,
      );
    id = qualifyIds ? `${path}:${lineNumber}` : String(lineNumber);
  } else if (typeof rawId === 'string' || typeof rawId === 'number' || typeof rawId === 'bigint') id = String(rawId);
  else
    return new InputError(
      path,
      lineNumber,
      `id field "${options.idField}" is ${describeType(rawId)}, not a string or number`,
    );
  const invalid = invalidIdReason(id);
  if (invalid !== undefined) return new InputError(path, lineNumber, `id field "${options.idField}" ${invalid}`);
  return { id, text, source: { path, line: lineNumber }, rawLine: line, record: fields };
}

/**
 * What a JSON Lines input must hold, for a line that is not JSON (an object over several lines, plain text on standard
 * input).
 */
function expectedLayout(path: string): string {
  return (
    `expected one JSON object per ` +
    `line${path === '-' ? ': standard input is read as JSON Lines, give plain text as a file' : ''}`
  );
}

/** The fields a record has, for a message about one it lacks. */
function fieldsOf(fields: Record<string, unknown>): string {
  const names = Object.keys(fields);
  return names.length === 0
    ? 'the object has no fields'
    : `its fields: ${namesOf(
        names.map((n) => JSON.stringify(n)),
        8,
      )}`;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * A `.json` file holding one JSON array of objects (not one object per line):
 * each element is a document, named in messages `path: element N` and, without
 * an id, by its element number. The whole array is parsed at once.
 */
export function* parseJsonArray(
  text: string,
  path: string,
  qualifyIds: boolean,
  options: Pick<ReadOptions, 'textField' | 'idField' | 'skipInvalid' | 'onInvalid'>,
): Generator<Omit<InputDocument, 'index'>> {
  let elements: unknown;
  try {
    elements = parseJsonExact(text);
  } catch (error) {
    throw new InputError(
      path,
      0,
      `malformed JSON array (${(error as Error).message}); JSON Lines files hold one object per line`,
    );
  }
  if (!Array.isArray(elements))
    throw new InputError(path, 0, 'expected a JSON array of objects, or one JSON object per line');
  for (let i = 0; i < elements.length; i++) {
    const parsed = parseJsonLine(jsonText(elements[i]), path, i + 1, qualifyIds, options);
    if (parsed instanceof InputError) {
      const error = new InputError(path, 0, `element ${i + 1}: ${parsed.message.slice(`${path}:${i + 1}: `.length)}`);
      if (!options.skipInvalid) throw error;
      options.onInvalid?.(error.message);
      continue;
    }
    yield { ...parsed, source: { path, line: 0 } };
  }
}

/** `*.json` (optionally compressed): JSON Lines, or one JSON array of objects. */
export function isJsonName(name: string): boolean {
  return /\.json(\.gz|\.zst|\.zstd)?$/i.test(name);
}

/** Whether a JSON file's first non-blank text opens an array rather than an object per line. */
export function startsJsonArray(firstLine: string): boolean {
  return firstLine.trimStart().startsWith('[');
}
