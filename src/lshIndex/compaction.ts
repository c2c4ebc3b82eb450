/**
 * Compaction: every live document of every segment, in order, into one new
 * segment; removed documents are dropped. Rows, sets and ids are read from
 * the segments, lengths and exact keys from their document tables.
 */
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import type { IndexState } from './diskState.js';
import type { IndexParameters } from './options.js';
import { rowWidthOf } from './segment.js';
import { SegmentWriter, type SegmentRecord } from './segmentFiles.js';

export async function compactSegments(dir: string, name: string, parameters: IndexParameters, state: IndexState): Promise<SegmentRecord> {
  const writer = new SegmentWriter(dir, name, parameters, parameters.storeSets);
  const row = new Uint32Array(rowWidthOf(parameters));
  const key = new Uint32Array(4);
  try {
    for (let s = 0; s < state.views.length; s++) {
      const view = state.views[s];
      const record = state.manifest.segments[s];
      const table = await parquetReadObjects({ file: await asyncBufferFromFile(join(dir, record.files.documents.name)), columns: ['length', 'exact_key', 'empty'] });
      for (let r = 0; r < view.count; r++) {
        if (view.isRemoved(r)) continue;
        view.readRow(r, row, 0);
        const doc = table[r] as { length: bigint | number; exact_key: string; empty: boolean };
        const hex = doc.exact_key;
        for (let w = 0; w < 4; w++) key[3 - w] = Number.parseInt(hex.slice(8 * w, 8 * w + 8), 16);
        writer.add(view.id(r), Number(doc.length), row, 0, key, doc.empty, view.readSet(r));
      }
    }
  } catch (error) {
    writer.abandon();
    throw error;
  }
  return writer.finish();
}
