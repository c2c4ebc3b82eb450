/** What the readers yield: one input document with enough provenance to name it in errors and to write it back. */
import { jsonText } from './exactJson.js';

export interface InputDocument {
  /** Position in the whole input, 0-based, across all files in order. */
  readonly index: number;
  /** The id field's value (as a string), else the file path (plain text) or `path:line` (JSONL without an id). */
  readonly id: string;
  readonly text: string;
  /** Where it came from: the file path (`-` for standard input) and 1-based line (JSONL) or 0 (whole file). */
  readonly source: { readonly path: string; readonly line: number };
  /** For JSONL input: the original line, written back verbatim when the document is kept. */
  readonly rawLine?: string;
  /** For JSONL input read with `lineBytes`: the line's bytes as read, its end included (invalid UTF-8 as it was). */
  readonly lineBytes?: Uint8Array;
  /** For JSONL input: the parsed object, for fields such as a quality score. */
  readonly record?: Record<string, unknown>;
  /** For a JSON line a shard read by byte range (src/io/shardInputs.ts): where the line's text lies in its file. */
  readonly range?: TextRange;
}

/** Bytes [start, start + bytes) of a file: one JSON line's text, its end and a leading byte order mark left out. */
export interface TextRange {
  readonly start: number;
  readonly bytes: number;
  /** The file's index among the inputs, set by the shard's source (src/pipeline/sign/shardSources.ts). */
  readonly file?: number;
}

export interface ReadOptions {
  /** JSONL field holding the text. Default `text`. */
  readonly textField: string;
  /**
   * JSONL field holding the id. Default `id`: documents without it are named by file and line; any other field must be
   * in every document (idFieldRequired).
   */
  readonly idField: string;
  /** Skip (and count) malformed lines instead of failing. Default false. */
  readonly skipInvalid: boolean;
  /** Called once per skipped line, with the same message an error would carry. */
  readonly onInvalid?: (message: string) => void;
  /** Refuse a binary file (NUL bytes, mostly invalid UTF-8) instead of skipping it. Default false. */
  readonly strict?: boolean;
  /** Called once per binary file skipped (never a document). */
  readonly onBinary?: (path: string) => void;
  /** Called with the number of input bytes read so far (before decompression), for progress bars. */
  readonly onBytes?: (bytes: number) => void;
  /** Give each JSONL document its line's bytes (`lineBytes`), for writers that copy lines as they came in. */
  readonly lineBytes?: boolean;
}

export const DEFAULT_READ: ReadOptions = { textField: 'text', idField: 'id', skipInvalid: false };

/**
 * Whether a document without the id field is refused (as one without the text
 * field is) rather than named by its line or row: for any field but the
 * default `id`, which stays optional so that corpora without ids read as they are.
 */
export function idFieldRequired(idField: string): boolean {
  return idField !== DEFAULT_READ.idField;
}

/** `path:line` for a JSONL document, the path for a whole-file one: how messages name a document. */
export function locationOf(document: InputDocument): string {
  return document.source.line > 0 ? `${document.source.path}:${document.source.line}` : document.source.path;
}

/** A malformed input line: the message names the file and line. */
export class InputError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    reason: string,
  ) {
    super(line > 0 ? `${path}:${line}: ${reason}` : `${path}: ${reason}`);
    this.name = 'InputError';
  }
}

/**
 * A document as one JSON Lines record: a JSONL line verbatim, a Parquet row's columns (exactJson.ts's mapping), else
 * {id, text}.
 */
export function documentAsJson(document: Pick<InputDocument, 'id' | 'text' | 'rawLine' | 'record'>): string {
  return document.rawLine ?? jsonText(document.record ?? { id: document.id, text: document.text });
}
