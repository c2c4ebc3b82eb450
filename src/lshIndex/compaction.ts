/**
 * Compaction: every live document of a run of segments, in order, into one
 * new segment; removed documents are dropped. Rows, sets and ids are read
 * from the segments (checked as they are read), lengths and exact keys from
 * their document tables, each read whole and checked against the manifest's
 * CRC-32 before a value of it is copied.
 */
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { readChecked } from './checkedFile.js';
import type { IndexState } from './diskState.js';
import { CorruptIndexError } from './errors.js';
import { isHexKey, keyOfHex } from './exactKeys.js';
import type { IndexParameters } from './options.js';
import { rowWidthOf } from './segment.js';
import { SegmentWriter, type SegmentRecord } from './segmentFiles.js';

interface DocumentRow {
  readonly length: bigint | number;
  readonly exact_key: string;
  readonly empty: boolean;
}

/** Merges segments [from, to) of `state` (default: all) into the new segment `name`. */
export async function compactSegments(
  dir: string,
  name: string,
  parameters: IndexParameters,
  state: IndexState,
  from = 0,
  to = state.views.length,
): Promise<SegmentRecord> {
  const writer = new SegmentWriter(dir, name, parameters, parameters.storeSets);
  const row = new Uint32Array(rowWidthOf(parameters));
  const key = new Uint32Array(4);
  try {
    for (let s = from; s < to; s++) {
      const view = state.views[s];
      const table = await documentTable(dir, state.manifest.segments[s]);
      for (let r = 0; r < view.count; r++) {
        if (view.isRemoved(r)) continue;
        view.readRow(r, row, 0);
        const doc = table[r];
        keyOfHex(doc.exact_key, key, 0);
        writer.add(view.id(r), Number(doc.length), row, 0, key, doc.empty, view.readSet(r));
      }
    }
  } catch (error) {
    writer.abandon();
    throw error;
  }
  return writer.finish();
}

/** A segment's document table, its file checked whole first; one row per segment row. */
async function documentTable(dir: string, record: SegmentRecord): Promise<DocumentRow[]> {
  const entry = record.files.documents;
  const bytes = readChecked(dir, entry);
  const path = join(dir, entry.name);
  let table: DocumentRow[];
  try {
    table = (await parquetReadObjects({
      file: bytes.buffer as ArrayBuffer,
      columns: ['length', 'exact_key', 'empty'],
    })) as unknown as DocumentRow[];
  } catch (error) {
    throw new CorruptIndexError(path, `not a document table (${(error as Error).message})`);
  }
  if (table.length !== record.count)
    throw new CorruptIndexError(path, `${table.length} documents, the segment has ${record.count}`);
  for (const [r, doc] of table.entries()) {
    if (!isHexKey(doc.exact_key))
      throw new CorruptIndexError(path, `row ${r}: exact_key ${JSON.stringify(doc.exact_key)} is not 32 hex digits`);
  }
  return table;
}
