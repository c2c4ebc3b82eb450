/**
 * What makes manifest.json an index's manifest this gpudedup reads: its
 * format and version, then every field the index needs, each of the right
 * kind. Browser-safe: the on-disk index (manifest.ts) and a saved index
 * opened from its files (snapshot.ts) check the same way, so another format,
 * a newer version, a directory that is not an index or a manifest missing a
 * field fails with one line naming the directory and what was found, never a
 * TypeError from deep inside the open.
 */
import { CorruptIndexError, IndexFormatError } from './errors.js';
import { parametersFromRecord, type IndexParameters } from './options.js';

export const MANIFEST = 'manifest.json';
export const FORMAT = 'gpudedup-index';
export const FORMAT_VERSION = 1;

/** Every parameter the manifest must record (IndexParameters' keys). */
const PARAMETER_KEYS = [
  'scheme',
  'seed',
  'k',
  'shingle',
  'n',
  'nfkc',
  'stripPunctuation',
  'slotBits',
  'threshold',
  'bands',
  'rows',
  'verify',
  'estimateError',
  'maxBucketPairs',
  'storeSets',
] as const;

/** A value's kind in words, for "found …". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : typeof value} ${String(value)}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isEntry = (value: unknown): boolean =>
  isObject(value) && typeof value.name === 'string' && isCount(value.bytes) && isCount(value.crc32);

/**
 * The files of a segment every reader needs; the on-disk index reads these too (its block checksums and document
 * table).
 */
const SNAPSHOT_FILES = ['ids', 'signatures', 'bands'] as const;
const DISK_FILES = [...SNAPSHOT_FILES, 'bandIndex', 'documents', 'signatureBlocks'] as const;

/**
 * The first field that is missing or of the wrong kind, as `"path" is missing (expected …)` / `"path" is … (expected
 * …)`; undefined when all are there.
 */
function missingField(m: Record<string, unknown>, segmentFiles: readonly string[]): string | undefined {
  const wrong = (path: string, value: unknown, expected: string): string =>
    value === undefined
      ? `"${path}" is missing (expected ${expected})`
      : `"${path}" is ${kindOf(value)} (expected ${expected})`;
  for (const key of ['generation', 'documents', 'removedDocuments'] as const)
    if (!isCount(m[key])) return wrong(key, m[key], 'a count');
  if (!isObject(m.parameters)) return wrong('parameters', m.parameters, 'an object');
  for (const key of PARAMETER_KEYS)
    if (m.parameters[key] === undefined || m.parameters[key] === null)
      return wrong(`parameters.${key}`, m.parameters[key], 'a value');
  if (!Array.isArray(m.segments)) return wrong('segments', m.segments, 'an array');
  for (const [i, s] of m.segments.entries()) {
    if (!isObject(s)) return wrong(`segments[${i}]`, s, 'an object');
    if (typeof s.name !== 'string') return wrong(`segments[${i}].name`, s.name, 'a string');
    for (const key of ['count', 'banded'] as const)
      if (!isCount(s[key])) return wrong(`segments[${i}].${key}`, s[key], 'a count');
    if (!isObject(s.files)) return wrong(`segments[${i}].files`, s.files, 'an object');
    for (const key of segmentFiles)
      if (!isEntry(s.files[key]))
        return wrong(`segments[${i}].files.${key}`, s.files[key], 'a file entry { name, bytes, crc32 }');
    if (s.files.sets !== undefined && !isEntry(s.files.sets))
      return wrong(`segments[${i}].files.sets`, s.files.sets, 'a file entry { name, bytes, crc32 }');
  }
  if (m.removed !== undefined && !isEntry(m.removed))
    return wrong('removed', m.removed, 'a file entry { name, bytes, crc32 }');
  return undefined;
}

/**
 * Checks the parsed manifest of the index `dir` (a path, or a picked
 * folder's name): an object of this format and version with every field
 * (its checksum is the caller's, after): the segment files `reader` reads.
 * Throws IndexFormatError.
 */
export function checkManifestRecord(
  parsed: unknown,
  dir: string,
  reader: 'disk' | 'snapshot',
): asserts parsed is Record<string, unknown> {
  const file = `${dir}/${MANIFEST}`;
  if (!isObject(parsed))
    throw new IndexFormatError(
      dir,
      `${dir} is not a gpudedup index: its ${MANIFEST} holds ${kindOf(parsed)}, not a manifest object`,
    );
  if (parsed.format !== FORMAT) {
    const found =
      parsed.format === undefined ? 'no "format" field' : `format ${kindOf(parsed.format).replace(/^the string /, '')}`;
    throw new IndexFormatError(
      dir,
      `${dir} is not a gpudedup index: its ${MANIFEST} has ${found} (an index's is "${FORMAT}")`,
    );
  }
  if (parsed.version !== FORMAT_VERSION) {
    const found =
      parsed.version === undefined
        ? 'no "version" field'
        : `format version ${Number.isInteger(parsed.version) ? String(parsed.version) : kindOf(parsed.version)}`;
    throw new IndexFormatError(
      dir,
      `${dir} is a gpudedup index with ${found}: this gpudedup reads version ${FORMAT_VERSION}`,
    );
  }
  const missing = missingField(parsed, reader === 'disk' ? DISK_FILES : SNAPSHOT_FILES);
  if (missing !== undefined) throw new IndexFormatError(dir, `${file} is not a complete index manifest: ${missing}`);
}

/** The manifest's parameters, checked as options are (a hand-edited value cannot run); a bad one names the manifest. */
export function manifestParameters(record: Record<string, unknown>, dir: string): IndexParameters {
  try {
    return parametersFromRecord(record);
  } catch (error) {
    throw new IndexFormatError(dir, `${dir}/${MANIFEST}: parameters: ${(error as Error).message}`);
  }
}

/** A checksum in messages: 8 hex digits, as every message of the index prints one. */
export const hex8 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');

/**
 * The manifest's own CRC-32 (`checksum.crc32`, over the rest of its text) against `actual`; a missing one is said so.
 */
export function checkManifestChecksum(file: string, checksum: { crc32?: unknown } | undefined, actual: number): void {
  if (checksum === undefined || typeof checksum.crc32 !== 'number') {
    throw new CorruptIndexError(
      file,
      `it has no checksum ("checksum": { "crc32": … } is ${checksum === undefined ? 'missing' : 'not a number'}): it ` +
        `was edited by hand or written by something else; this gpudedup writes one`,
    );
  }
  if (checksum.crc32 !== actual)
    throw new CorruptIndexError(
      file,
      `checksum mismatch (CRC-32 ${hex8(actual)}, recorded ${hex8(checksum.crc32)}): the file changed after it was written`,
    );
}
