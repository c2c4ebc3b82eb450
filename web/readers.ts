/**
 * Local files → documents, streamed (the worker runs this): every file is read
 * through Blob.stream(), gunzipped by DecompressionStream when it starts with
 * the gzip magic, and JSON Lines are split and parsed chunk by chunk, so no
 * file is ever one string (a plain-text file is one document, hence one string).
 * The rules are the CLI's (src/io/jsonLines.ts: names, fields, ids; InputError
 * messages naming file and line), plus what only a picked file can be: empty,
 * or binary (NUL bytes or mostly invalid UTF-8), both skipped and counted.
 *
 * Readers for other formats (Parquet row groups, zstd) plug in as another
 * `FileFormat` in FORMATS: they get the file and yield documents.
 */
import type { InMemoryDocument } from '../src/clusters/dedupDocuments.js';
import { looksBinary, BINARY_SNIFF_BYTES } from '../src/io/binaryText.js';
import { documentAsJson, InputError } from '../src/io/documents.js';
import { compressionOf, isParquetHead, isParquetName, MAGIC_BYTES, type Compression } from '../src/io/inputFormat.js';
import { readParquetDocuments } from '../src/io/parquetDocuments.js';
import { zstdDecompressed } from '../src/io/zstdChunks.js';
import { isJsonLinesName, parseJsonLine } from '../src/io/jsonLines.js';

/** A document read in the tab; JSONL input keeps its line, written back verbatim when the document is kept. */
export interface WebDocument extends InMemoryDocument {
  readonly rawLine?: string;
}

export interface ReadSettings {
  readonly textField: string;
  readonly idField: string;
  readonly skipInvalid: boolean;
}

export interface ReadHooks {
  /** Bytes of the files read so far (compressed size for gzip), over all files. */
  onBytes?(bytes: number): void;
  /** A malformed line skipped (skipInvalid), with the message an error would carry. */
  onInvalid?(message: string): void;
  /** A whole file skipped: empty or binary. */
  onSkippedFile?(message: string): void;
}

/** Bytes of one file after decompression, as a stream of chunks. */
export type ByteChunks = AsyncIterable<Uint8Array>;

/** One kind of input file. */
export interface FileFormat {
  readonly name: string;
  accepts(file: File): boolean;
  documents(file: File, bytes: ByteChunks, qualifyIds: boolean, settings: ReadSettings, hooks: ReadHooks): AsyncIterable<WebDocument>;
}

const JSON_LINES: FileFormat = { name: 'JSON Lines', accepts: (file) => isJsonLinesName(file.name), documents: jsonLines };
const PLAIN_TEXT: FileFormat = { name: 'plain text', accepts: () => true, documents: plainText };

/** Tried in order; the first that accepts a file reads it. */
export const FORMATS: FileFormat[] = [JSON_LINES, PLAIN_TEXT];

/** All documents of all files, in order. */
export async function* readDocuments(files: readonly File[], settings: ReadSettings, hooks: ReadHooks = {}): AsyncGenerator<WebDocument> {
  let before = 0;
  for (const file of files) {
    const onBytes = (bytes: number): void => hooks.onBytes?.(before + bytes);
    if (file.size === 0) {
      hooks.onSkippedFile?.(`${file.name}: empty file, skipped`);
      continue;
    }
    const magic = new Uint8Array(await file.slice(0, MAGIC_BYTES).arrayBuffer());
    if (isParquetHead(magic) || isParquetName(file.name)) {
      yield* parquetDocuments(file, files.length > 1, settings, hooks);
      before += file.size;
      hooks.onBytes?.(before);
      continue;
    }
    const opened = await openFile(file, onBytes, compressionOf(magic));
    if (looksBinary(opened.head)) {
      await opened.cancel();
      hooks.onSkippedFile?.(`${file.name}: looks binary (NUL bytes or mostly invalid UTF-8), skipped`);
    } else {
      const format = FORMATS.find((f) => f.accepts(file))!;
      yield* format.documents(file, opened.chunks, files.length > 1, settings, hooks);
    }
    before += file.size;
    hooks.onBytes?.(before);
  }
}

interface OpenedFile {
  /** The first bytes after decompression (up to BINARY_SNIFF_BYTES, or the whole file if shorter). */
  readonly head: Uint8Array;
  /** Every byte, the head included. */
  readonly chunks: ByteChunks;
  cancel(): Promise<void>;
}

/**
 * A Parquet file read as the CLI reads it (src/io/parquetDocuments.ts), a row
 * group at a time through File.slice: the file is never read whole. A row
 * kept is written back as the JSON object of its columns, as the CLI does.
 */
async function* parquetDocuments(file: File, qualifyIds: boolean, settings: ReadSettings, hooks: ReadHooks): AsyncGenerator<WebDocument> {
  const buffer = { byteLength: file.size, slice: (start: number, end?: number) => file.slice(start, end).arrayBuffer() };
  const options = { ...settings, onInvalid: (message: string) => hooks.onInvalid?.(message) };
  for await (const doc of readParquetDocuments(buffer, file.name, qualifyIds, options)) {
    yield { id: doc.id, text: doc.text, record: doc.record, rawLine: documentAsJson(doc) };
  }
}

async function openFile(file: File, onBytes: (bytes: number) => void, compression: Compression): Promise<OpenedFile> {
  const gzip = compression === 'gzip';
  let read = 0;
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        onBytes(read);
        controller.enqueue(chunk);
      },
    }),
  );
  const stream = gzip ? counted.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>) : counted;
  // zstd has no DecompressionStream: the CLI's streaming fzstd decoder.
  const reader = compression === 'zstd' ? iteratorReader(zstdDecompressed(streamChunks(stream), file.name)) : stream.getReader();
  const next = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    try {
      return await reader.read();
    } catch (error) {
      const reason = (error as Error).message;
      if (reason.startsWith(`${file.name}: `)) throw new InputError(file.name, 0, reason.slice(file.name.length + 2)); // the zstd decoder's own message
      throw new InputError(file.name, 0, gzip ? `not a valid gzip stream (${reason})` : `could not be read (${reason})`);
    }
  };
  const buffered: Uint8Array[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < BINARY_SNIFF_BYTES) {
    const result = await next();
    if (result.done) {
      done = true;
      break;
    }
    buffered.push(result.value);
    headBytes += result.value.byteLength;
  }
  const head = concat(buffered, Math.min(headBytes, BINARY_SNIFF_BYTES));
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield* buffered;
    if (done) return;
    for (let result = await next(); !result.done; result = await next()) yield result.value;
  }
  return { head, chunks: chunks(), cancel: () => reader.cancel() };
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  for (let result = await reader.read(); !result.done; result = await reader.read()) yield result.value;
}

/** An async iterator behind the stream reader interface openFile uses. */
function iteratorReader(chunks: AsyncGenerator<Uint8Array>): Pick<ReadableStreamDefaultReader<Uint8Array>, 'read' | 'cancel'> {
  return {
    read: async () => {
      const next = await chunks.next();
      return next.done ? { done: true, value: undefined } : { done: false, value: next.value };
    },
    cancel: async () => void (await chunks.return(undefined)),
  };
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    const part = chunk.subarray(0, length - at);
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** Lines as they arrive (LF or CRLF; a BOM at the start is dropped by the decoder), numbered from 1. */
async function* lines(bytes: ByteChunks): AsyncGenerator<{ line: string; number: number }> {
  const decoder = new TextDecoder('utf-8'); // invalid bytes become U+FFFD, as Node's toString('utf8') does
  let carry = '';
  let number = 0;
  const split = function* (text: string, final: boolean): Generator<{ line: string; number: number }> {
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      const line = text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
      yield { line, number: ++number };
      start = end + 1;
    }
    carry = text.slice(start);
    if (final && carry !== '') {
      yield { line: carry.endsWith('\r') ? carry.slice(0, -1) : carry, number: ++number };
      carry = '';
    }
  };
  for await (const chunk of bytes) yield* split(carry + decoder.decode(chunk, { stream: true }), false);
  yield* split(carry + decoder.decode(), true);
}

async function* jsonLines(file: File, bytes: ByteChunks, qualifyIds: boolean, settings: ReadSettings, hooks: ReadHooks): AsyncGenerator<WebDocument> {
  for await (const { line, number } of lines(bytes)) {
    if (line.trim() === '') continue;
    const parsed = parseJsonLine(line, file.name, number, qualifyIds, settings);
    if (parsed instanceof InputError) {
      const error = number === 1 && /^\s*\[/.test(line) ? jsonArrayError(file.name, parsed) : parsed;
      if (!settings.skipInvalid) throw error;
      hooks.onInvalid?.(error.message);
      continue;
    }
    yield { id: parsed.id, text: parsed.text, record: parsed.record, rawLine: parsed.rawLine };
  }
}

/** A .json file holding one JSON array (not JSON Lines): the CLI's message, and what to do about it. */
function jsonArrayError(name: string, error: InputError): InputError {
  const reason = error.message.slice(error.message.indexOf(': ', name.length) + 2);
  return new InputError(name, error.line, `${reason}; this looks like a JSON array, but JSON Lines need one object per line (e.g. jq -c '.[]' ${name} > ${name.replace(/\.json$/i, '.jsonl')})`);
}

async function* plainText(file: File, bytes: ByteChunks): AsyncGenerator<WebDocument> {
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  for await (const chunk of bytes) parts.push(decoder.decode(chunk, { stream: true }));
  parts.push(decoder.decode());
  yield { id: file.name, text: parts.join('') };
}
