/**
 * The lines of a byte stream as strings, as node:readline splits them
 * (`crlfDelay: Infinity`): ends at \n, \r\n or a lone \r, no terminator kept,
 * a last line without one included. Several times faster than readline: it
 * finds the \n bytes in the Buffers and decodes each line once, where
 * readline decodes the stream and then splits the text with a regular
 * expression. A \n byte never occurs inside a UTF-8 sequence, so decoding
 * line by line gives the same text, invalid bytes included (U+FFFD).
 */
import type { Readable } from 'node:stream';

const LF = 0x0a;

export async function* splitLines(stream: Readable): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(LF, start); end >= 0; end = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (pending.length === 0) yield* linesOf(piece.toString('utf8'));
      else {
        pending.push(piece);
        const whole = Buffer.concat(pending);
        pending = [];
        yield* linesOf(whole.toString('utf8'));
      }
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    const last = Buffer.concat(pending).toString('utf8');
    if (last.length > 0) yield* linesOf(last);
  }
}

/** One \n-terminated line: its \r\n end dropped, and split at any lone \r (readline's line ends). */
function linesOf(line: string): string[] {
  if (line.indexOf('\r') < 0) return [line];
  return (line.endsWith('\r') ? line.slice(0, -1) : line).split('\r');
}

/** A line as splitLinesWithBytes gives it: its text, and its bytes as read when the line can be cut out alone. */
export interface LineWithBytes {
  readonly text: string;
  /**
   * The line's bytes, its end (\n or \r\n) included, invalid UTF-8 as it was; undefined for the lines of a piece split
   * at lone \r, which share one \n (written from their text instead).
   */
  readonly bytes?: Uint8Array;
}

/**
 * splitLines' lines, each with its bytes when `keepBytes`: for writers that copy a line exactly as it came in
 * (substrings -o), where the text alone has turned invalid UTF-8 into U+FFFD.
 */
export async function* splitLinesWithBytes(stream: Readable, keepBytes: boolean): AsyncGenerator<LineWithBytes> {
  let pending: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(LF, start); end >= 0; end = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, end + 1);
      start = end + 1;
      yield* withBytes(pending.length === 0 ? piece : Buffer.concat([...pending, piece]), keepBytes);
      pending = [];
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    const last = Buffer.concat(pending);
    if (last.length > 0) yield* withBytes(last, keepBytes);
  }
}

/** One piece (\n-terminated, or the last bytes): its lines as linesOf splits them, with bytes where it is one line. */
function withBytes(piece: Buffer, keepBytes: boolean): LineWithBytes[] {
  let end = piece.length;
  if (end > 0 && piece[end - 1] === LF) end--;
  const text = piece.toString('utf8', 0, end);
  const lines = linesOf(text);
  return keepBytes && lines.length === 1 ? [{ text: lines[0], bytes: piece }] : lines.map((line) => ({ text: line }));
}

/** A line as rangedLines gives it: its text and where its bytes lie in the file, [start, end), end excluded. */
export interface RangedLine {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const CR = 0x0d;

/**
 * splitLines' lines of whole lines' bytes (as ownedLines.ts reads them) lying at `offset` in a file, each with the
 * byte range its text was decoded from: a line's text is exactly its range decoded, since \r and \n never occur
 * inside a UTF-8 sequence nor end a replaced one. `sign --shard` records the ranges, and `cluster` reads a text again
 * by its range.
 */
export function rangedLines(bytes: Uint8Array, offset: number): RangedLine[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lines: RangedLine[] = [];
  let start = 0;
  for (let end = buffer.indexOf(LF, start); end >= 0; end = buffer.indexOf(LF, start)) {
    lines.push(...rangedLinesOf(buffer.subarray(start, end), offset + start));
    start = end + 1;
  }
  if (start < buffer.length) lines.push(...rangedLinesOf(buffer.subarray(start), offset + start));
  return lines;
}

/** linesOf in bytes: a \r\n end dropped, split at every other \r. */
function rangedLinesOf(piece: Buffer, pieceAt: number): RangedLine[] {
  let end = piece.length;
  if (piece.indexOf(CR) < 0) return [{ text: piece.toString('utf8'), start: pieceAt, end: pieceAt + end }];
  if (piece[end - 1] === CR) end--;
  const lines: RangedLine[] = [];
  let from = 0;
  for (let cr = piece.indexOf(CR, from); cr >= 0 && cr < end; cr = piece.indexOf(CR, from)) {
    lines.push({ text: piece.toString('utf8', from, cr), start: pieceAt + from, end: pieceAt + cr });
    from = cr + 1;
  }
  lines.push({ text: piece.toString('utf8', from, end), start: pieceAt + from, end: pieceAt + end });
  return lines;
}
