/**
 * JSON Lines by range (protocol.ts's `range` unit): a worker reads its own bytes of the file, so that they never pass
 * through the thread that orders the units. A range holds the lines that start in it (io/ownedLines.ts), so that
 * ranges cut end to end hold every line once, in order, as lineUnits.ts cuts a stream. No Node imports.
 */
import type { InputUnit, SourceHandle } from './protocol.js';
import { countLines } from './lineUnits.js';
import { readOwnedLines } from '../io/ownedLines.js';

export type RangeUnit = Extract<InputUnit, { kind: 'range' }>;

/** Bytes [position, position + length) of the file, fewer only at its end. */
export type ReadAt = (source: SourceHandle, position: number, length: number) => Promise<Uint8Array>;

/** The range's lines: their bytes (at `offset` in the file) and how many lines countLines finds there. */
export interface LoadedRange {
  readonly bytes: Uint8Array;
  readonly offset: number;
  readonly lines: number;
}

export async function loadRange(range: RangeUnit, readAt: ReadAt): Promise<LoadedRange> {
  const owned = await readOwnedLines(
    (at, length) => readAt(range.source, at, length),
    range.start,
    range.end,
    range.size,
  );
  return { bytes: owned.bytes, offset: owned.offset, lines: countLines(owned.bytes, owned.atEnd) };
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
    ...(range.midFile === undefined ? {} : { midFile: range.midFile }),
  };
}
