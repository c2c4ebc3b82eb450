/**
 * JSON Lines by range (protocol.ts's `range` unit): a worker reads its own bytes of the file, so that they never pass
 * through the thread that orders the units. A range [start, end) holds the lines that start in it — the first just
 * after the first \n at or after start − 1 (or at 0), the last read through the first \n at or after end − 1 (or the
 * file's end) — so that ranges cut end to end hold every line once, in order, whatever their sizes, as lineUnits.ts
 * cuts a stream: after a \n, never inside a line, a \r\n or a UTF-8 character. No Node imports.
 */
import type { InputUnit, SourceHandle } from './protocol.js';
import { countLines, searchable } from './lineUnits.js';

export type RangeUnit = Extract<InputUnit, { kind: 'range' }>;

/** Bytes [position, position + length) of the file, fewer only at its end. */
export type ReadAt = (source: SourceHandle, position: number, length: number) => Promise<Uint8Array>;

/** The range's lines: their bytes (at `offset` in the file) and how many lines countLines finds there. */
export interface LoadedRange {
  readonly bytes: Uint8Array;
  readonly offset: number;
  readonly lines: number;
}

const LF = 0x0a;
/** Read past the range's end at first, for its last line's end (more is read while none is found). */
const TAIL_BYTES = 1 << 16;

export async function loadRange(range: RangeUnit, readAt: ReadAt): Promise<LoadedRange> {
  const { start, end, size } = range;
  const from = start === 0 ? 0 : start - 1;
  let bytes = await readAt(range.source, from, Math.min(size, end + TAIL_BYTES) - from);
  const first = start === 0 ? 0 : indexOfLf(bytes, 0) + 1; // 0: no \n at all
  const begin = from + first;
  if (first === 0 && start > 0) return { bytes: new Uint8Array(0), offset: end, lines: 0 };
  if (begin >= end) return { bytes: new Uint8Array(0), offset: end, lines: 0 };
  let finish = size;
  if (end < size) {
    // The first \n at or after end − 1, reading on until there is one or the file ends.
    for (let at = end - 1 - from; ; ) {
      const lf = indexOfLf(bytes, at);
      if (lf >= 0) {
        finish = from + lf + 1;
        break;
      }
      if (from + bytes.length >= size) break;
      at = bytes.length;
      bytes = joined(bytes, await readAt(range.source, from + bytes.length, Math.max(TAIL_BYTES, bytes.length)));
    }
  }
  const own = bytes.subarray(first, finish - from);
  return { bytes: own, offset: begin, lines: countLines(own, finish === size) };
}

/** The 'lines' unit a loaded range reads as, once its first line's number is known. */
export function rangeLines(
  range: RangeUnit,
  loaded: LoadedRange,
  firstLine: number,
): Extract<InputUnit, { kind: 'lines' }> {
  return {
    kind: 'lines',
    path: range.path,
    bytes: loaded.bytes,
    firstLine,
    offset: loaded.offset,
    qualifyIds: range.qualifyIds,
    stripBom: loaded.offset === 0,
  };
}

function indexOfLf(bytes: Uint8Array, from: number): number {
  return searchable(bytes).indexOf(LF, from);
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
