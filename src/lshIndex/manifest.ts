/**
 * manifest.json: the one file that says what the index is — its parameters
 * and its live segments and removed rows, each file with its byte length and
 * CRC-32. It carries its own CRC-32 over the rest of its text, and is only
 * ever replaced whole (write temporary, fsync, rename, fsync directory).
 */
import { IDF_TABLE, needsIdfTable, registerIndexIdf } from './idfFile.js';
import { existsSync, readFileSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptIndexError, IndexFormatError } from './errors.js';
import {
  checkManifestChecksum,
  checkManifestRecord,
  type FORMAT,
  MANIFEST,
  manifestParameters,
} from './manifestCheck.js';
import { crcOf, faultPoint, replaceAtomically, type FileEntry } from './files.js';
import type { IndexParameters } from './options.js';
import type { SegmentRecord } from './segmentFiles.js';

export { FORMAT, FORMAT_VERSION, MANIFEST } from './manifestCheck.js';

export interface Manifest {
  readonly format: typeof FORMAT;
  readonly version: number;
  /** Grows by one with every commit (add, remove, compact). */
  readonly generation: number;
  readonly parameters: IndexParameters;
  readonly segments: readonly SegmentRecord[];
  /** The removed rows of the live segments (removed-GEN.json), when any. */
  readonly removed?: FileEntry;
  /** Live documents, and removed ones still in segments. */
  readonly documents: number;
  readonly removedDocuments: number;
}

const body = (m: Manifest): string => JSON.stringify(m, null, 1);

export function manifestText(m: Manifest): string {
  const text = body(m);
  return `${JSON.stringify({ ...m, checksum: { crc32: crcOf(new TextEncoder().encode(text)) } }, null, 1)}\n`;
}

export function writeManifest(dir: string, m: Manifest): void {
  replaceAtomically(dir, join(dir, MANIFEST), manifestText(m));
}

/**
 * The manifest, its format, fields, checksum and parameters checked:
 * IndexFormatError for a directory that is not an index this gpudedup reads
 * (no manifest, another format or version, a field missing),
 * CorruptIndexError for one whose manifest failed (not JSON, checksum).
 */
export function readManifest(dir: string): Manifest {
  const path = join(dir, MANIFEST);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !existsSync(dir))
      throw new IndexFormatError(dir, `${dir} is not an index: it does not exist`);
    if (code === 'ENOENT')
      throw new IndexFormatError(
        dir,
        `${dir} is not an index (no ${MANIFEST}): create one with createIndex / gpudedup index create`,
      );
    if (code === 'ENOTDIR') throw new IndexFormatError(dir, `${dir} is not an index: it is a file, not a directory`);
    if (code === 'EISDIR') throw new IndexFormatError(dir, `${dir} is not an index: its ${MANIFEST} is a directory`);
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptIndexError(path, `not JSON (${(error as Error).message})`);
  }
  checkManifestRecord(parsed, dir, 'disk');
  const { checksum, ...rest } = parsed as unknown as Manifest & { checksum?: { crc32?: number } };
  checkManifestChecksum(path, checksum, crcOf(new TextEncoder().encode(body(rest))));
  const parameters = manifestParameters(rest.parameters as unknown as Record<string, unknown>, dir);
  // An idf-weighted index's table, for everything that signs with these parameters (once per process).
  if (needsIdfTable(parameters))
    registerIndexIdf(readIndexFile(join(dir, IDF_TABLE)), join(dir, IDF_TABLE), parameters);
  return { ...rest, parameters };
}

function readIndexFile(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (error) {
    throw new CorruptIndexError(
      path,
      `the index weighs by idf and its table cannot be read (${(error as Error).message})`,
    );
  }
}

/** Every file the manifest names. */
export function referencedFiles(m: Manifest): Set<string> {
  const names = new Set<string>([MANIFEST]);
  if (m.parameters.weights === 'idf') names.add(IDF_TABLE);
  for (const s of m.segments) for (const f of Object.values(s.files)) if (f) names.add(f.name);
  if (m.removed) names.add(m.removed.name);
  return names;
}

/** The index's own file names (segments, removed rows, manifest temporaries): only these are ever cleaned. */
const INDEX_FILE =
  /^(seg-\d+\.(ids|sig|bands|bands\.idx|sets|docs\.parquet|sig\.crc|sets\.crc|bits)|removed-\d+\.json|manifest\.json\.tmp-\d+)$/;

/** Removes the index's files that the manifest does not name: an interrupted writer's, or superseded ones. */
export function removeUnreferenced(dir: string, m: Manifest): string[] {
  const keep = referencedFiles(m);
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!INDEX_FILE.test(name) || keep.has(name)) continue;
    faultPoint(`clean ${name}`);
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // already gone
    }
  }
  return removed;
}

/** seg-000012 style names: the generation that wrote it. */
export const segmentName = (generation: number): string => `seg-${String(generation).padStart(6, '0')}`;
export const removedName = (generation: number): string => `removed-${String(generation).padStart(6, '0')}.json`;
