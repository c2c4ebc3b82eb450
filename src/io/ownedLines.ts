/**
 * The lines a byte range of a file owns: those whose first byte lies in [start, end). The first begins just after the
 * first \n at or after start − 1 (or at 0), the last is read through the first \n at or after end − 1 (or the file's
 * end). Ranges cut end to end, whatever their sizes, so hold every line once, in order, each whole: a cut falls after
 * a \n, never inside a line, a \r\n or a UTF-8 character. The first pass's workers read their units so
 * (firstPass/rangeUnits.ts), and `sign --shard` its pieces (shardLines.ts). No Node imports: the tab's code loads it.
 */
import { searchable } from './searchable.js';

/** Bytes [position, position + length) of the file, fewer only at its end. */
export type ReadBytesAt = (position: number, length: number) => Promise<Uint8Array>;

export interface OwnedLines {
  /** The lines' bytes, each line's end included; empty where no line starts in the range. */
  readonly bytes: Uint8Array;
  /** Where `bytes` begin in the file (the range's end where they are empty). */
  readonly offset: number;
  /** Whether they run to the file's end, where the last line may have no \n. */
  readonly atEnd: boolean;
}

const LF = 0x0a;

/**
 * The lines [start, end) owns in a file of `size` bytes, read through `readAt`: at first through `tailBytes` past
 * `end`, for the last line's end, then twice as much again each time while none is found.
 */
export async function readOwnedLines(
  readAt: ReadBytesAt,
  start: number,
  end: number,
  size: number,
  tailBytes = 1 << 16,
): Promise<OwnedLines> {
  const from = start === 0 ? 0 : start - 1;
  let bytes = await readAt(from, Math.min(size, end + tailBytes) - from);
  const first = start === 0 ? 0 : indexOfLf(bytes, 0) + 1; // 0: no \n at all
  const begin = from + first;
  if ((first === 0 && start > 0) || begin >= end) return { bytes: new Uint8Array(0), offset: end, atEnd: false };
  // Through the first \n at or after end − 1, reading on until there is one or the file ends.
  for (let at = end - 1 - from, ask = tailBytes; ; ask *= 2) {
    const lf = indexOfLf(bytes, at);
    if (lf >= 0) return { bytes: bytes.subarray(first, lf + 1), offset: begin, atEnd: from + lf + 1 >= size };
    const more = from + bytes.length < size ? await readAt(from + bytes.length, ask) : NONE;
    if (more.length === 0) return { bytes: bytes.subarray(first), offset: begin, atEnd: true };
    at = bytes.length;
    bytes = joined(bytes, more);
  }
}

const NONE = new Uint8Array(0);

function indexOfLf(bytes: Uint8Array, from: number): number {
  return searchable(bytes).indexOf(LF, from);
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
