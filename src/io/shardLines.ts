/**
 * The JSON lines of a byte range of a file, for `sign --shard` (shardInputs.ts): a piece [start, end) holds the lines
 * whose first byte lies in it, each document with the byte range of its text (`range`), which `cluster` reads again
 * for its exact pass on shards without shingle lists.
 */
import { open } from 'node:fs/promises';
import { InputError, type InputDocument, type ReadOptions, type TextRange } from './documents.js';
import { parseJsonLine } from './jsonLines.js';
import { splitLinesWithRanges } from './lines.js';

/** Counts bytes read from disk (every read, footers read twice included). */
export type CountBytes = (bytes: number) => void;

/** Bytes per read of a piece; its last line is finished in reads of TAIL_CHUNK. */
const CHUNK = 1 << 20;
const TAIL_CHUNK = 1 << 14;
const LF = 0x0a;

/** The JSON lines whose first byte lies in [start, end) of the file. */
export async function* readLines(
  path: string,
  start: number,
  end: number,
  qualifyIds: boolean,
  read: ReadOptions,
  countBytes: CountBytes,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  let firstAt = start;
  const lines = splitLinesWithRanges(
    ownedBytes(path, start, end, countBytes, (at) => (firstAt = at)),
    () => firstAt,
  );
  let lineNumber = 0;
  for await (const ranged of lines) {
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
      parsed = new InputError(
        path,
        lineNumber,
        `no "${read.idField}": a shard reading from mid-file cannot name a document by its line number; give every ` +
          `document an id`,
      );
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

/**
 * The bytes of the lines starting in [start, end): from the first line end at or after start − 1 to the first at or
 * after end − 1.
 */
async function* ownedBytes(
  path: string,
  start: number,
  end: number,
  countBytes: CountBytes,
  onFirst: (at: number) => void,
): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    let at = start === 0 ? 0 : start - 1;
    let first = true;
    let skipping = start > 0; // inside the line an earlier piece owns
    let last = -1; // the last byte yielded
    while (at < end) {
      const bytes = await readAt(handle, at, Math.min(CHUNK, end - at), countBytes);
      if (bytes.length === 0) return;
      at += bytes.length;
      let from = 0;
      if (skipping) {
        const lf = bytes.indexOf(LF);
        if (lf < 0) continue;
        skipping = false;
        from = lf + 1;
      }
      if (from < bytes.length) {
        if (first) onFirst(at - bytes.length + from);
        first = false;
        last = bytes[bytes.length - 1];
        yield bytes.subarray(from);
      }
    }
    if (skipping || last === -1 || last === LF) return;
    // Finish the last line, which runs past end.
    for (;;) {
      const bytes = await readAt(handle, at, TAIL_CHUNK, countBytes);
      if (bytes.length === 0) return;
      at += bytes.length;
      const lf = bytes.indexOf(LF);
      if (lf >= 0) {
        yield bytes.subarray(0, lf + 1);
        return;
      }
      yield bytes;
    }
  } finally {
    await handle.close();
  }
}

async function readAt(
  handle: import('node:fs/promises').FileHandle,
  at: number,
  length: number,
  countBytes: CountBytes,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(bytes, done, length - done, at + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  countBytes(done);
  return bytes.subarray(0, done);
}
