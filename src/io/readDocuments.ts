/**
 * Streams documents from JSONL files, Parquet files, plain-text files,
 * directories of them and standard input (`-`), gzip, zstd or not. Memory stays
 * at one line (one plain-text file, one Parquet row group) at a time.
 *
 * - `*.jsonl`, `*.ndjson`, `*.json` (optionally `.gz`, `.zst`) and `-` are JSON Lines:
 *   one object per line, text in `textField`, id in `idField`. Blank lines are
 *   ignored. Without an id the document is named by its line number (with one
 *   input) or `path:line` (with several).
 * - A file starting with `PAR1` is Parquet (see parquetDocuments.ts); one
 *   called `*.parquet` must be.
 * - Any other file is one plain-text document whose id is its path.
 * - A directory is walked recursively in sorted order, links followed (inputFiles.ts).
 * - gzip and zstd are recognized by their magic bytes, whatever the file is called.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { looksBinary } from './binaryText.js';
import { splitLinesWithBytes, type LineWithBytes } from './lines.js';
import { DEFAULT_READ, InputError, type InputDocument, type ReadOptions } from './documents.js';
import { isJsonName, parseJsonArray, parseJsonLine, startsJsonArray } from './jsonLines.js';
import { compressionOf, isParquetHead, MAGIC_BYTES } from './inputFormat.js';
import type { InputFile } from './inputFiles.js';
import { localParquetFile } from './localParquetFile.js';
import { readParquetDocuments } from './parquetDocuments.js';
import { zstdDecompressed } from './zstdChunks.js';
import { spooledInput } from './spooledInputs.js';

export { checkInputPaths, listInputFiles, readsOnce, totalInputBytes, type InputFile } from './inputFiles.js';

/**
 * All documents of all inputs, in order, with a running index; `qualifyIds`: name id-less documents `path:line` (a
 * shard reading some of several files passes true).
 */
export async function* readDocuments(
  files: readonly InputFile[],
  options: ReadOptions = DEFAULT_READ,
  qualifyIds = files.length > 1,
): AsyncGenerator<InputDocument> {
  let index = 0;
  let bytes = 0;
  const countBytes = (n: number): void => {
    bytes += n;
    options.onBytes?.(bytes);
  };
  for (const file of files) {
    if (file.format === 'parquet') {
      const parquet = await localParquetFile(file.path, countBytes);
      try {
        for await (const doc of readParquetDocuments(parquet.file, file.path, qualifyIds, options))
          yield { ...doc, index: index++ };
      } finally {
        await parquet.close();
      }
      continue;
    }
    const stream = await openDecompressed(file.path, countBytes);
    if (file.format === 'text') {
      const bytes = await readAll(stream);
      if (looksBinary(bytes)) {
        if (options.strict)
          throw new InputError(file.path, 0, 'a binary file (NUL bytes or mostly invalid UTF-8), not a text document');
        options.onBinary?.(file.path);
        continue;
      }
      yield { index: index++, id: file.path, text: textOf(bytes), source: { path: file.path, line: 0 } };
      continue;
    }
    for await (const doc of parseJsonLines(stream, file.path, qualifyIds, options)) {
      yield { ...doc, index: index++ };
    }
  }
}

async function* parseJsonLines(
  stream: Readable,
  path: string,
  qualifyIds: boolean,
  options: ReadOptions,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  const lines = splitLinesWithBytes(stream, options.lineBytes === true);
  let lineNumber = 0;
  let seenRecord = false;
  for await (let line of lines) {
    lineNumber++;
    if (lineNumber === 1 && line.text.charCodeAt(0) === 0xfeff) line = withoutBom(line);
    if (line.text.trim() === '') continue;
    if (!seenRecord && isJsonName(path) && startsJsonArray(line.text)) {
      // A JSON array (of objects), possibly over many lines: read it whole.
      const rest: string[] = [line.text];
      for await (const more of lines) rest.push(more.text);
      yield* parseJsonArray(rest.join('\n'), path, qualifyIds, options);
      return;
    }
    seenRecord = true;
    const parsed = parseJsonLine(line.text, path, lineNumber, qualifyIds, options);
    if (parsed instanceof InputError) {
      if (!options.skipInvalid) throw parsed;
      options.onInvalid?.(parsed.message);
      continue;
    }
    yield line.bytes === undefined ? parsed : { ...parsed, lineBytes: line.bytes };
  }
}

/** The first line without its byte order mark, in its text and its bytes (as dedup's kept lines are copied). */
function withoutBom(line: LineWithBytes): LineWithBytes {
  return { text: line.text.slice(1), bytes: line.bytes?.subarray(3) };
}

/**
 * Bytes per read, and per chunk gunzip gives back: lines of a few KB, so a chunk holds hundreds and the per-chunk costs
 * vanish.
 */
const READ_CHUNK_BYTES = 1 << 20;

/**
 * Opens a file (or stdin for `-`), counting raw bytes, and decompresses it when it starts with the gzip or zstd magic.
 */
export async function openDecompressed(path: string, countBytes: (n: number) => void): Promise<Readable> {
  const copy = spooledInput(path)?.file; // standard input or a pipe copied to a file, read as often as needed
  const raw: Readable =
    path === '-' && copy === undefined
      ? process.stdin
      : createReadStream(copy ?? path, { highWaterMark: READ_CHUNK_BYTES });
  const chunks = raw[Symbol.asyncIterator]();
  // A pipe may deliver fewer bytes than the magic at first.
  let head = Buffer.alloc(0);
  while (head.length < MAGIC_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    countBytes((next.value as Buffer).length);
    head = Buffer.concat([head, next.value as Buffer]);
  }
  const rest = Readable.from(
    (async function* () {
      if (head.length > 0) yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        countBytes((next.value as Buffer).length);
        yield next.value as Buffer;
      }
    })(),
    { objectMode: false },
  );
  const compression = compressionOf(head);
  // A Parquet file named on the command line is read by position (inputFiles.ts): here is standard input or a pipe.
  if (isParquetHead(head))
    throw new InputError(
      path,
      0,
      `Parquet cannot be read from ${path === '-' ? 'standard input' : 'a pipe'} (its index is at the end): give the file`,
    );
  if (compression === 'zstd') return Readable.from(zstdDecompressed(rest, path), { objectMode: false });
  if (compression === 'none') return rest;
  // zlib's default 16 KiB chunks cost the feeding thread 3–5× as much per MB
  const gunzip = createGunzip({ chunkSize: READ_CHUNK_BYTES });
  rest.on('error', (error) => gunzip.destroy(error));
  gunzip.on('error', (error) => {
    error.message = `${path}: not a valid gzip stream (${error.message})`;
  });
  return rest.pipe(gunzip);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A whole plain-text file, without a leading byte order mark (as JSONL lines are read). */
function textOf(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
