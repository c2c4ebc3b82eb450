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
