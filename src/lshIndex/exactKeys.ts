/**
 * The exact keys of a committed segment's documents (Node), read from its
 * document table (NAME.docs.parquet: exact_key, 32 hex digits) for the
 * top-K's rescoring (rowScorer.ts): rows with equal keys have equal
 * normalized texts, hence equal stored sets (an add gives a text equal to an
 * earlier one of its call that one's set; engine.ts), so a family's identical
 * copies are read and scored once a query, not once each (issue 39: at 1 M
 * documents 40 % of the ~1,000 sets a family's top-10 query read were
 * copies). Read once a segment, its file checked whole first: 16 bytes a row
 * (16 MB at 1 M documents; reading a 500,000-row table, a row group at a
 * time, costs ~0.7 s and ~85 MiB of heap on a loaded machine). Nothing on
 * disk changes: an index of any age has the table.
 */
import { join } from 'node:path';
import { parquetMetadata, parquetRead } from 'hyparquet';
import { readChecked } from './checkedFile.js';
import type { DiskSegment } from './diskSegment.js';
import type { IndexState } from './diskState.js';
import { CorruptIndexError } from './errors.js';

const HEX_KEY = /^[0-9a-f]{32}$/;

/** A key's 32 hex digits (high word first, as exactKeyHex writes them) into out[at …] (4 words, low word first). */
export function keyOfHex(hex: string, out: Uint32Array, at: number): void {
  for (let w = 0; w < 4; w++) out[at + 3 - w] = Number.parseInt(hex.slice(8 * w, 8 * w + 8), 16);
}

/** Whether a document table's exact_key is a key (32 lowercase hex digits). */
export const isHexKey = (value: unknown): value is string => typeof value === 'string' && HEX_KEY.test(value);

/** The segment's exact keys, 4 words a row (zero for an empty document, as signing gives them). */
export async function readExactKeys(segment: DiskSegment, dir: string): Promise<Uint32Array> {
  const { record } = segment;
  const bytes = readChecked(dir, record.files.documents);
  const path = join(dir, record.files.documents.name);
  const keys = new Uint32Array(4 * record.count);
  let rows = 0;
  const onChunk = ({ columnData, rowStart }: { columnData: ArrayLike<unknown>; rowStart: number }): void => {
    for (let i = 0; i < columnData.length; i++) {
      const row = rowStart + i;
      if (row >= record.count || !isHexKey(columnData[i]))
        throw new CorruptIndexError(path, `row ${row}: exact_key ${JSON.stringify(columnData[i])} is not a key`);
      keyOfHex(columnData[i] as string, keys, 4 * row);
    }
    rows += columnData.length;
  };
  try {
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const metadata = parquetMetadata(file);
    // A row group at a time: all at once, their decoded strings lie in the heap together (+100 MiB at 500 k rows).
    for (let g = 0, start = 0; g < metadata.row_groups.length; g++) {
      const end = start + Number(metadata.row_groups[g].num_rows);
      await parquetRead({ file, metadata, columns: ['exact_key'], rowStart: start, rowEnd: end, onChunk });
      start = end;
    }
  } catch (error) {
    if (error instanceof CorruptIndexError) throw error;
    throw new CorruptIndexError(path, `not a document table (${(error as Error).message})`);
  }
  if (rows !== record.count) throw new CorruptIndexError(path, `${rows} documents, the segment has ${record.count}`);
  return keys;
}

/**
 * The exact keys of the state's segments that store sets on their views, each segment's read once (concurrent
 * queries share the read; a later state's views of the same segment get them too).
 */
export async function loadExactKeys(state: IndexState, dir: string): Promise<void> {
  await Promise.all(
    state.segments.map(async (segment, i) => {
      if (segment.record.files.sets === undefined) return;
      segment.keysLoaded ??= readExactKeys(segment, dir);
      state.views[i].exactKeys ??= await segment.keysLoaded;
    }),
  );
}
