/**
 * What a reader sees: one manifest's segments, opened, with that
 * generation's removed rows. A state is never changed, only replaced (a
 * commit, or refresh() after another process's), so a query always runs on
 * one consistent generation.
 */
import { join } from 'node:path';
import { MissingIndexFileError } from './checkedFile.js';
import { CorruptIndexError } from './errors.js';
import { writeWhole, type FileEntry } from './files.js';
import { readManifest, type Manifest } from './manifest.js';
import type { OpenOptions } from './options.js';
import { positionalBytes } from './diskSegment.js';
import { DiskSegment, readChecked } from './segmentFiles.js';
import type { IndexSegment } from './segment.js';

export interface IndexState {
  readonly manifest: Manifest;
  /** The live segments in manifest order, each seen with this generation's removed rows. */
  readonly views: readonly IndexSegment[];
  readonly segments: readonly DiskSegment[];
  /** Per segment name, its removed rows. */
  readonly removed: ReadonlyMap<string, readonly number[]>;
}

/** removed-GEN.json: { "segments": { "seg-000003": [rows…] } }. */
export function readRemoved(dir: string, entry: FileEntry | undefined): Map<string, number[]> {
  const removed = new Map<string, number[]>();
  if (entry === undefined) return removed;
  const path = join(dir, entry.name);
  const bytes = readChecked(dir, entry);
  let parsed: { segments?: Record<string, number[]> };
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new CorruptIndexError(path, `not JSON (${(error as Error).message})`);
  }
  for (const [name, rows] of Object.entries(parsed.segments ?? {})) removed.set(name, rows);
  return removed;
}

export function writeRemoved(dir: string, name: string, removed: ReadonlyMap<string, readonly number[]>): FileEntry {
  const segments = Object.fromEntries(
    [...removed].filter(([, rows]) => rows.length > 0).map(([n, rows]) => [n, [...rows].sort((a, b) => a - b)]),
  );
  return writeWhole(join(dir, name), name, [new TextEncoder().encode(`${JSON.stringify({ segments })}\n`)]);
}

/** Opens a manifest's state, reusing the already open segments of `previous` (segments never change). */
export function openState(
  dir: string,
  manifest: Manifest,
  checksums: 'open' | 'lazy',
  previous?: IndexState,
): IndexState {
  const reuse = new Map((previous?.segments ?? []).map((s) => [s.name, s]));
  const opened: DiskSegment[] = [];
  try {
    const segments = manifest.segments.map((record) => {
      const existing = reuse.get(record.name);
      if (existing !== undefined) return existing;
      const segment = DiskSegment.open(dir, record, manifest.parameters, checksums);
      opened.push(segment);
      return segment;
    });
    const removed = readRemoved(dir, manifest.removed);
    const views = segments.map((s) => {
      const rows = removed.get(s.name);
      if (rows === undefined) return s.view(undefined);
      const flags = new Uint8Array(s.record.count);
      for (const row of rows) {
        if (!(Number.isInteger(row) && row >= 0 && row < s.record.count))
          throw new CorruptIndexError(
            join(dir, manifest.removed!.name),
            `row ${row} is not a row of ${s.name} (${s.record.count} rows)`,
          );
        flags[row] = 1;
      }
      return s.view(flags);
    });
    return { manifest, views, segments, removed };
  } catch (error) {
    for (const s of opened) s.close();
    throw error;
  }
}

/** Closes the segments of `old` that `current` no longer uses. */
export function closeDropped(old: IndexState, current: IndexState | undefined): void {
  const kept = new Set(current?.segments ?? []);
  for (const s of old.segments) if (!kept.has(s)) s.close();
}

/**
 * A reader may meet files a writer removed right after its next commit: then
 * it reads the newer manifest. A file missing from the manifest it just read
 * is a damaged index (MissingIndexFileError names the file).
 */
export function openWithRetry(
  dir: string,
  manifest: Manifest,
  checksums: OpenOptions['checksums'],
  previous?: IndexState,
): IndexState {
  for (let attempt = 0; ; attempt++) {
    try {
      return openState(dir, manifest, checksumMode(manifest, checksums), previous);
    } catch (error) {
      if (!(error instanceof MissingIndexFileError) || attempt >= 5) throw error;
      const newer = readManifest(dir);
      if (newer.generation === manifest.generation) throw error;
      manifest = newer;
    }
  }
}

/** Bytes of the files read by position (and document tables) up to which `auto` checks every file whole at open. */
const OPEN_CHECK_BYTES = 256 * 2 ** 20;

function checksumMode(manifest: Manifest, option: OpenOptions['checksums'] = 'auto'): 'open' | 'lazy' {
  if (option !== 'auto') return option;
  let bytes = 0;
  for (const s of manifest.segments) bytes += positionalBytes(s) + s.files.documents.bytes;
  return bytes <= OPEN_CHECK_BYTES ? 'open' : 'lazy';
}
