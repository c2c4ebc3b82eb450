/**
 * A worker's half of the first pass, step 1: one input unit → its documents'
 * texts and records, parsed by the readers' own rules (src/io/jsonLines.ts,
 * parquetDocuments.ts, binaryText.ts). Line ends are readline's: \n, \r\n or
 * a lone \r; a line's byte range includes its end, so a kept line can be
 * copied out exactly as it came in.
 */
import { looksBinary } from '../io/binaryText.js';
import { InputError, type InputDocument } from '../io/documents.js';
import { noIdMidFile, parseJsonArray, parseJsonLine } from '../io/jsonLines.js';
import { readParquetRowGroup } from '../io/parquetDocuments.js';
import { decodeWithin } from '../io/stringLimit.js';
import type { InputUnit, UnitReadOptions } from './protocol.js';
import type { FirstPassSources } from './ports.js';

/** A parsed document, held by the worker until `finish`. */
export interface ParsedDocument {
  readonly id: string;
  readonly text: string;
  readonly record?: Record<string, unknown>;
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

export interface ParsedUnit {
  readonly documents: ParsedDocument[];
  readonly invalid: string[];
  readonly error?: string;
  readonly binary?: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
// ignoreBOM keeps a byte order mark in the text, so that the first line's byte range can leave it out too.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export async function parseUnit(
  unit: InputUnit,
  read: UnitReadOptions,
  sources: FirstPassSources,
): Promise<ParsedUnit> {
  try {
    return await parseUnitTexts(unit, read, sources);
  } catch (error) {
    // A text past the longest string (stringLimit.ts): refused, skipInvalid or not — it is not malformed.
    if (error instanceof InputError) return { documents: [], invalid: [], error: error.message };
    throw error;
  }
}

async function parseUnitTexts(unit: InputUnit, read: UnitReadOptions, sources: FirstPassSources): Promise<ParsedUnit> {
  switch (unit.kind) {
    case 'lines':
      return parseLines(unit, read);
    case 'range':
      throw new Error('first pass: a range is read as the lines it loaded');
    case 'json-array': {
      const options = withInvalid(read);
      const text = decodeWithin(decoder, unit.bytes, unit.path, 0);
      return collect(() => parseJsonArray(withoutBom(text), unit.path, unit.qualifyIds, options), options);
    }
    case 'text-file':
      return parseTextFile(unit.path, await sources.readWhole(unit.source), read);
    case 'parquet-group': {
      const file = await sources.openParquet(unit.source);
      const options = withInvalid(read);
      try {
        return await collectAsync(readParquetRowGroup(file, unit.path, unit.group, unit.qualifyIds, options), options);
      } finally {
        await file.close?.();
      }
    }
    case 'texts':
      return {
        documents: unit.texts.map((text, i) => ({
          id: unit.ids[i],
          text,
          record: unit.records?.[i],
          line: unit.first + i,
          start: -1,
          end: -1,
        })),
        invalid: [],
      };
  }
}

/** JSON Lines, a line at a time; blank lines are skipped but counted. */
function parseLines(unit: Extract<InputUnit, { kind: 'lines' }>, read: UnitReadOptions): ParsedUnit {
  const documents: ParsedDocument[] = [];
  const invalid: string[] = [];
  let lineNumber = unit.firstLine - 1;
  for (const line of splitUnitLines(unit.bytes, unit.path, unit.firstLine)) {
    lineNumber++;
    let { text, start } = line;
    if (lineNumber === 1 && unit.stripBom && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      start += 3; // a kept first line is copied without its byte order mark
    }
    const parsed = parseLine(unit, text, lineNumber, start, line.end, read);
    if (parsed === undefined) continue;
    if (typeof parsed === 'string') {
      if (!read.skipInvalid) return { documents, invalid, error: parsed };
      invalid.push(parsed);
      continue;
    }
    documents.push(parsed);
  }
  return { documents, invalid };
}

/**
 * One line's text (its end left out) at bytes [start, end) of the unit: its document, its message, or undefined when
 * blank.
 */
function parseLine(
  unit: Extract<InputUnit, { kind: 'lines' }>,
  text: string,
  lineNumber: number,
  start: number,
  end: number,
  read: UnitReadOptions,
): ParsedDocument | string | undefined {
  if (text.trim() === '') return undefined;
  const parsed = parseJsonLine(text, unit.path, lineNumber, unit.qualifyIds, read);
  if (parsed instanceof InputError) return parsed.message;
  // Mid-file, its line number (counted from the piece's first line) names nothing; said as io/shardLines.ts says it.
  const { midFile } = unit;
  if (midFile !== undefined && (parsed.record?.[read.idField] ?? null) === null)
    return new InputError(
      midFile.path,
      0,
      `line ${lineNumber} from byte ${midFile.start}: ${noIdMidFile(read.idField)}`,
    ).message;
  return {
    id: parsed.id,
    text: parsed.text,
    record: parsed.record,
    line: lineNumber,
    start: unit.offset + start,
    end: unit.offset + end,
  };
}

/**
 * One line the document kernel handed back, read as parseLines reads it:
 * `start` is past a byte order mark on line 1, `end` past the line's end.
 * Undefined for a blank line.
 */
export function parseJsonFallbackLine(
  unit: Extract<InputUnit, { kind: 'lines' }>,
  lineNumber: number,
  start: number,
  end: number,
  read: UnitReadOptions,
): ParsedUnit | undefined {
  let contentEnd = end;
  if (contentEnd > start && unit.bytes[contentEnd - 1] === LF) contentEnd--;
  if (contentEnd > start && unit.bytes[contentEnd - 1] === CR) contentEnd--;
  let text: string;
  try {
    text = decodeWithin(decoder, unit.bytes.subarray(start, contentEnd), unit.path, lineNumber);
  } catch (error) {
    return { documents: [], invalid: [], error: (error as Error).message };
  }
  const parsed = parseLine(unit, text, lineNumber, start, end, read);
  if (parsed === undefined) return undefined;
  if (typeof parsed !== 'string') return { documents: [parsed], invalid: [] };
  return read.skipInvalid ? { documents: [], invalid: [parsed] } : { documents: [], invalid: [], error: parsed };
}

/** A line's text (no end) and its bytes [start, end) in the unit, its end included. */
export interface UnitLine {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Lines as node:readline splits them (crlfDelay Infinity): at \n, \r\n or a
 * lone \r; a last line without an end is included, an empty last piece is not.
 * A \n or \r byte never occurs inside a UTF-8 sequence, so decoding the whole
 * unit once and splitting the text gives each line's text exactly.
 */
export function* splitUnitLines(bytes: Uint8Array, path = '', firstLine = 1): Generator<UnitLine> {
  const text = decodeWithin(decoder, bytes, path, firstLine);
  let from = 0; // in text
  let byte = 0; // in bytes
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    const piece = text.slice(from, nl < 0 ? text.length : nl);
    const end = nl < 0 ? bytes.length : bytes.indexOf(LF, byte) + 1;
    if (piece.indexOf('\r') < 0) yield { text: piece, start: byte, end };
    else yield* splitAtCarriageReturns(piece, bytes, byte, end);
    if (nl < 0) break;
    from = nl + 1;
    byte = end;
  }
}

/** A piece holding \r: a final \r is part of its line end (\r\n); any other \r ends a line of its own. */
function* splitAtCarriageReturns(piece: string, bytes: Uint8Array, start: number, end: number): Generator<UnitLine> {
  const parts = (piece.endsWith('\r') ? piece.slice(0, -1) : piece).split('\r');
  let byte = start;
  for (let i = 0; i < parts.length; i++) {
    const partEnd = i === parts.length - 1 ? end : bytes.indexOf(CR, byte) + 1;
    yield { text: parts[i], start: byte, end: partEnd };
    byte = partEnd;
  }
}

function parseTextFile(path: string, bytes: Uint8Array, read: UnitReadOptions): ParsedUnit {
  if (looksBinary(bytes)) {
    if (read.strict)
      return {
        documents: [],
        invalid: [],
        error: new InputError(path, 0, 'a binary file (NUL bytes or mostly invalid UTF-8), not a text document')
          .message,
      };
    return { documents: [], invalid: [], binary: true };
  }
  return {
    documents: [{ id: path, text: withoutBom(decodeWithin(decoder, bytes, path, 0)), line: 0, start: -1, end: -1 }],
    invalid: [],
  };
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The readers report skipped lines through onInvalid: collect them for the ordering thread. */
function withInvalid(read: UnitReadOptions): UnitReadOptions & { invalid: string[]; onInvalid: (m: string) => void } {
  const invalid: string[] = [];
  return { ...read, invalid, onInvalid: (message) => invalid.push(message) };
}

type Readerless = Omit<InputDocument, 'index'>;

function toParsed(doc: Readerless): ParsedDocument {
  return { id: doc.id, text: doc.text, record: doc.record, line: doc.source.line, start: -1, end: -1 };
}

function collect(documents: () => Iterable<Readerless>, options: ReturnType<typeof withInvalid>): ParsedUnit {
  const out: ParsedDocument[] = [];
  try {
    for (const doc of documents()) out.push(toParsed(doc));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { documents: out, invalid: options.invalid, error: error.message };
  }
  return { documents: out, invalid: options.invalid };
}

async function collectAsync(
  documents: AsyncIterable<Readerless>,
  options: ReturnType<typeof withInvalid>,
): Promise<ParsedUnit> {
  const out: ParsedDocument[] = [];
  try {
    for await (const doc of documents) out.push(toParsed(doc));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { documents: out, invalid: options.invalid, error: error.message };
  }
  return { documents: out, invalid: options.invalid };
}
