/**
 * The on-disk index's commits that move documents: a merge of a run of
 * segments — the next manifest (the run replaced by its merged segment, the
 * run's removed rows dropped, the others' kept) and the writer's id map moved
 * to the new places; compact() merges every segment, the merge policy
 * (mergePolicy.ts) smaller runs after an add — and the removed rows after a
 * remove.
 */
import { writeRemoved, type IndexState } from './diskState.js';
import type { Located } from './engine.js';
import { removedName, type Manifest } from './manifest.js';
import type { IndexSegment } from './segment.js';
import type { SegmentRecord } from './segmentFiles.js';

/**
 * The manifest after segments [from, to) of `state` became `record` (written already); writes a removed list if it
 * changed.
 */
export function mergedManifest(
  dir: string,
  state: IndexState,
  from: number,
  to: number,
  record: SegmentRecord,
  generation: number,
): Manifest {
  const { manifest } = state;
  const removed = new Map(state.removed);
  let dropped = 0;
  for (const s of manifest.segments.slice(from, to)) {
    dropped += removed.get(s.name)?.length ?? 0;
    removed.delete(s.name);
  }
  const segments = [
    ...manifest.segments.slice(0, from),
    ...(record.count > 0 ? [record] : []),
    ...manifest.segments.slice(to),
  ];
  let entry = manifest.removed;
  if (dropped > 0) {
    const left = [...removed.values()].some((rows) => rows.length > 0);
    entry = left ? writeRemoved(dir, removedName(generation), removed) : undefined;
  }
  return { ...manifest, generation, segments, removed: entry, removedDocuments: manifest.removedDocuments - dropped };
}

/**
 * The id map after segments [from, to) became `merged` (at `from`; none when
 * every document of the run had been removed): the run's ids at their new
 * rows, later segments moved down. Costs a pass over the map, no id decoded
 * but the merged segment's.
 */
export function relocate(live: Map<string, Located>, from: number, to: number, merged: IndexSegment | undefined): void {
  const shift = to - from - (merged === undefined ? 0 : 1);
  for (const [id, at] of live) if (at.segment >= to) live.set(id, { segment: at.segment - shift, row: at.row });
  if (merged === undefined) return;
  for (let row = 0; row < merged.count; row++) live.set(merged.id(row), { segment: from, row });
}

/** The removed rows after removing `ids` (those live in `live`), and how many of them were live. */
export function removedAfter(
  state: IndexState,
  live: ReadonlyMap<string, Located>,
  ids: readonly string[],
): { removed: Map<string, number[]>; count: number } {
  const removed = new Map([...state.removed].map(([name, rows]) => [name, [...rows]]));
  let count = 0;
  for (const id of new Set(ids)) {
    const at = live.get(id);
    if (at === undefined) continue;
    const name = state.manifest.segments[at.segment].name;
    const rows = removed.get(name);
    if (rows === undefined) removed.set(name, [at.row]);
    else rows.push(at.row);
    count++;
  }
  return { removed, count };
}
