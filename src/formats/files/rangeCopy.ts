/**
 * Byte ranges of one file copied into another at a given offset, on a worker thread: dedup's kept JSON lines
 * (src/pipeline/dedup/copyKept.ts) go straight from the input to their place in the output's temporary file, so the
 * writing thread neither reads the corpus again nor joins the lines. Each request is one piece of the input: read
 * from the first range's start to the last one's end in one read, the ranges moved together, written in one write.
 */
import { closeSync, openSync } from 'node:fs';
import { systemReason } from '../../errors.js';
import { readUpTo } from '../../readUpTo.js';
import { writeAll } from '../../writeAll.js';

export interface RangeCopyRequest {
  readonly type: 'copy ranges';
  readonly input: string;
  /** The output file, opened for writing at `at` (it exists: the writer made it). */
  readonly output: string;
  /** [start, end) pairs of byte offsets in the input, ascending; each ends in a line feed, but see `lineEnd`. */
  readonly ranges: Float64Array;
  readonly at: number;
  /** The last range ends the input without a line feed: one is written after it (as a copied last line gets one). */
  readonly lineEnd: boolean;
}

export interface RangeCopyResponse {
  /** Bytes written. */
  readonly copied?: number;
}

/** Bytes the ranges of a request take in the output. */
export function copiedBytes(ranges: Float64Array, lineEnd: boolean): number {
  let bytes = lineEnd ? 1 : 0;
  for (let i = 0; i < ranges.length; i += 2) bytes += ranges[i + 1] - ranges[i];
  return bytes;
}

/** The handler a worker thread serves: one buffer, grown to the largest piece. */
export function rangeCopyHandler() {
  let buffer = Buffer.alloc(0);
  return (request: RangeCopyRequest): { response: RangeCopyResponse; transfer: ArrayBuffer[] } => {
    const { ranges } = request;
    const from = ranges[0];
    const span = ranges[ranges.length - 1] - from;
    if (buffer.length < span + 1) buffer = Buffer.allocUnsafe(Math.max(span + 1, 2 * buffer.length));
    readFully(request.input, buffer, span, from);
    let length = 0;
    for (let i = 0; i < ranges.length; i += 2) {
      const start = ranges[i] - from;
      const end = ranges[i + 1] - from;
      const last = i + 2 === ranges.length;
      if ((buffer[end - 1] === 0x0a) === (last && request.lineEnd))
        throw new Error(`${request.input}: the file changed between passes (a line no longer ends where it did)`);
      buffer.copyWithin(length, start, end);
      length += end - start;
    }
    if (request.lineEnd) buffer[length++] = 0x0a;
    writeFully(request.output, buffer, length, request.at);
    return { response: { copied: length }, transfer: [] };
  };
}

function readFully(path: string, buffer: Buffer, length: number, position: number): void {
  const fd = openSync(path, 'r');
  try {
    if (readUpTo(fd, buffer, position, length) < length)
      throw new Error(`${path}: the file changed between passes (it ends before a recorded line)`);
  } finally {
    closeSync(fd);
  }
}

/** `buffer[0, length)` written at `position` of the file at `path` (writeAll), which errors name. */
function writeFully(path: string, buffer: Buffer, length: number, position: number): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r+');
    writeAll(fd, buffer.subarray(0, length), position);
  } catch (error) {
    throw new Error(`${path}: ${systemReason(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
