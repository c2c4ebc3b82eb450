/**
 * The second pass over a JSON Lines file, for the CLI's writing
 * (pipeline/dedup/writeKept.ts) and the tab's downloads (web/keptDownload.ts):
 * the lines the first pass recorded (DocumentRecords.byteRange) cut from the
 * file's decompressed chunks by their byte ranges, without parsing the rest;
 * and one of those lines parsed again where its fields are needed.
 */
import { InputError, type InputDocument, type ReadOptions } from '../io/documents.js';
import { parseJsonLine } from '../io/jsonLines.js';
import type { DocumentRecords } from './documentRecords.js';

/** A file's run of documents, [first, end). */
export interface FileSpan {
  readonly first: number;
  readonly end: number;
}

/** Each file's run of documents, by the first pass's records, in input order. */
export function fileSpans(records: DocumentRecords): { readonly path: string; readonly span: FileSpan }[] {
  return records.files.map((f, i) => {
    const end = records.files[i + 1]?.firstDocument ?? records.documents;
    return { path: f.path, span: { first: f.firstDocument, end } };
  });
}

/** Whether the file's documents are lines with recorded byte ranges (JSON Lines), not whole files or Parquet rows. */
export function hasRecordedLines(records: DocumentRecords, span: FileSpan): boolean {
  return span.end > span.first && records.byteRange(span.first) !== undefined;
}

/**
 * The lines of the wanted documents of `span`, in order, each its bytes (line
 * end included; a view into the chunks, which are never changed). Stops
 * reading after the last wanted line. With `runs`, wanted lines that follow
 * each other in a chunk come as one (`document`: the first), as long as each
 * but the last ends in a line feed: a copier writes them at once, byte for
 * byte as it would one by one.
 */
export async function* recordedLines(
  chunks: AsyncIterable<Uint8Array>,
  path: string,
  records: DocumentRecords,
  span: FileSpan,
  wanted: (d: number) => boolean,
  runs = false,
): AsyncGenerator<{ readonly document: number; readonly bytes: Uint8Array }> {
  const next = (from: number): number => {
    let d = from;
    while (d < span.end && !wanted(d)) d++;
    return d;
  };
  let d = next(span.first);
  if (d >= span.end) {
    await chunks[Symbol.asyncIterator]().return?.(); // nothing wanted: the file is closed unread
    return;
  }
  // `held`: the bytes before this chunk from the next wanted line's start (a line cut by the chunks' edge), at `offset`
  // in the decompressed file. Lines inside a chunk are views of it; only a line across an edge is copied.
  let offset = 0;
  let held: Uint8Array = new Uint8Array(0);
  for await (const chunk of chunks) {
    const chunkStart = offset + held.length;
    while (d < span.end) {
      const [start, lineEnd] = rangeOf(records, d);
      if (lineEnd > chunkStart + chunk.length) break;
      const first = d;
      let end = lineEnd;
      if (runs && start >= chunkStart) [d, end] = runEnd(records, chunk, chunkStart, d, end, span, wanted);
      const bytes =
        start >= chunkStart
          ? chunk.subarray(start - chunkStart, end - chunkStart)
          : joined(held.subarray(start - offset), chunk.subarray(0, end - chunkStart));
      yield { document: first, bytes };
      d = next(d + 1);
    }
    if (d >= span.end) return;
    const [start] = rangeOf(records, d);
    if (start >= chunkStart) {
      const drop = Math.min(chunk.length, start - chunkStart);
      held = chunk.subarray(drop);
      offset = chunkStart + drop;
    } else {
      held = joined(held.subarray(start - offset), chunk);
      offset = start;
    }
  }
  throw new Error(`${path}: the file changed between passes (it ends before the line of document ${d + 1})`);
}

/**
 * The last document of the run that starts with document d (its line ending at `end`, in the chunk), and where the
 * run ends: the following documents while each is wanted, its line starts where the run ends, in the chunk, and the
 * run so far ends in a line feed.
 */
function runEnd(
  records: DocumentRecords,
  chunk: Uint8Array,
  chunkStart: number,
  d: number,
  end: number,
  span: FileSpan,
  wanted: (d: number) => boolean,
): [number, number] {
  let last = d;
  let runEnd = end;
  while (last + 1 < span.end && chunk[runEnd - 1 - chunkStart] === 0x0a && wanted(last + 1)) {
    const [start, lineEnd] = rangeOf(records, last + 1);
    if (start !== runEnd || lineEnd > chunkStart + chunk.length) break;
    last++;
    runEnd = lineEnd;
  }
  return [last, runEnd];
}

/**
 * A wanted document's recorded range; one without is a caller's mistake (hasRecordedLines says which files have them).
 */
function rangeOf(records: DocumentRecords, d: number): [number, number] {
  const range = records.byteRange(d);
  if (range === undefined) throw new Error(`document ${d + 1} has no recorded line`);
  return range;
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * A recorded line parsed again (its fields, for Parquet or the inspector's text); one that no longer parses means the
 * file changed.
 */
export function parseRecordedLine(
  bytes: Uint8Array,
  path: string,
  d: number,
  read: Pick<ReadOptions, 'textField' | 'idField'>,
): Omit<InputDocument, 'index'> {
  const line = new TextDecoder().decode(bytes).replace(/\r?\n$/, '');
  const parsed = parseJsonLine(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line, path, 0, false, read);
  if (parsed instanceof InputError) {
    throw new Error(`${path}: the file changed between passes (document ${d + 1} no longer parses)`);
  }
  return parsed;
}
