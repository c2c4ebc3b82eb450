/**
 * The JSON lines of a byte range of a file, for `sign --shard` (shardInputs.ts): a piece [start, end) holds the lines
 * whose first byte lies in it, each document with the byte range of its text (`range`), which `cluster` reads again
 * for its exact pass on shards without shingle lists.
 */
import { open } from 'node:fs/promises';
import { InputError, type InputDocument, type ReadOptions, type TextRange } from './documents.js';
import { noIdMidFile, parseJsonLine } from './jsonLines.js';
import { rangedLines, type RangedLine } from './lines.js';
import { readOwnedLines } from './ownedLines.js';
import { readUpTo } from '../readUpTo.js';

/** Counts bytes read from disk (every read, footers read twice included). */
export type CountBytes = (bytes: number) => void;

/** Bytes a piece reads its lines in: each step the lines starting in it (ownedLines.ts), the last read to its end. */
const STEP = 1 << 20;
/** Read past a step's end at first: small, since a piece's last read past its end is read again by the next shard. */
const TAIL = 1 << 14;

/** The JSON lines whose first byte lies in [start, end) of the file. */
export async function* readLines(
  path: string,
  start: number,
  end: number,
  qualifyIds: boolean,
  read: ReadOptions,
  countBytes: CountBytes,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  let lineNumber = 0;
  for await (const ranged of rangedLinesIn(path, start, end, countBytes)) {
    lineNumber++;
    let line = ranged.text;
    let range: TextRange = { start: ranged.start, bytes: ranged.end - ranged.start };
    if (start === 0 && lineNumber === 1 && line.charCodeAt(0) === 0xfeff) {
      line = line.slice(1);
      range = { start: range.start + 3, bytes: range.bytes - 3 }; // U+FEFF is 3 bytes
    }
    if (line.trim() === '') continue;
    let parsed = parseJsonLine(line, path, lineNumber, qualifyIds, read);
    if (start > 0 && !(parsed instanceof InputError) && (parsed.record?.[read.idField] ?? null) === null) {
      parsed = new InputError(path, lineNumber, noIdMidFile(read.idField));
    }
    if (parsed instanceof InputError) {
      // Mid-file, line numbers count from the piece's first line: say so.
      const error =
        start === 0
          ? parsed
          : new InputError(
              path,
              0,
              `line ${lineNumber} from byte ${start}: ${parsed.message.slice(`${path}:${lineNumber}: `.length)}`,
            );
      if (!read.skipInvalid) throw error;
      read.onInvalid?.(error.message);
      continue;
    }
    yield start === 0 ? { ...parsed, range } : { ...parsed, source: { path, line: 0 }, range };
  }
}

/** The lines of [start, end) of the file, each with its byte range, read STEP bytes of lines at a time. */
async function* rangedLinesIn(
  path: string,
  start: number,
  end: number,
  countBytes: CountBytes,
): AsyncGenerator<RangedLine> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    // A step's first bytes are the last read's tail (ownedLines.ts reads past a range's end): taken from it, so that
    // every byte is read from the file once and `bytesRead` counts the piece's bytes once.
    let last = { at: 0, bytes: new Uint8Array(0) };
    const readAt = async (at: number, length: number): Promise<Uint8Array> => {
      const bytes = new Uint8Array(length);
      const kept = at >= last.at ? Math.max(0, Math.min(length, last.at + last.bytes.length - at)) : 0;
      bytes.set(last.bytes.subarray(at - last.at, at - last.at + kept));
      const done = kept + readUpTo(handle.fd, bytes.subarray(kept), at + kept);
      countBytes(done - kept);
      last = { at, bytes: bytes.subarray(0, done) };
      return last.bytes;
    };
    for (let at = start; at < Math.min(end, size); at += STEP) {
      const owned = await readOwnedLines(readAt, at, Math.min(end, size, at + STEP), size, TAIL);
      yield* rangedLines(owned.bytes, owned.offset);
    }
  } finally {
    await handle.close();
  }
}
