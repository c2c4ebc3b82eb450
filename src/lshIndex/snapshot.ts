/**
 * A saved index opened from its files' bytes, without node: (the browser:
 * files from a directory picker or fetched): the manifest and every file it
 * names are checked against their CRC-32, then queried by the same engine as
 * the on-disk index. Read-only: add and remove are the writer's (Node).
 */
import type { FirstPassSigner } from '../firstPass/signedUnits.js';
import { crc32 } from './crc32.js';
import { IDF_TABLE, needsIdfTable, registerIndexIdf } from './idfFile.js';
import { IndexEngine } from './engine.js';
import { CorruptIndexError, IndexFormatError } from './errors.js';
import { checkManifestChecksum, checkManifestRecord, hex8, MANIFEST, manifestParameters } from './manifestCheck.js';
import { checkQuery } from './memoryIndex.js';
import { resolveQuery, type IndexParameters } from './options.js';
import { rowWidthOf, type IndexSegment } from './segment.js';
import { signTexts } from './signing.js';
import type { AddResult, DedupIndex, IndexStats, QueryOptions, QueryResult, RemoveResult } from './types.js';

/** A file of the index by name (e.g. 'manifest.json', 'seg-000001.sig'). */
export type ReadIndexFile = (name: string) => Promise<Uint8Array>;

interface Entry {
  readonly name: string;
  readonly bytes: number;
  readonly crc32: number;
}

interface SegmentRecord {
  readonly name: string;
  readonly count: number;
  readonly banded: number;
  readonly files: { readonly ids: Entry; readonly signatures: Entry; readonly bands: Entry; readonly sets?: Entry };
}

async function checked(read: ReadIndexFile, entry: Entry, named: (file: string) => string): Promise<Uint8Array> {
  const bytes = await read(entry.name);
  if (bytes.length !== entry.bytes)
    throw new CorruptIndexError(named(entry.name), `${bytes.length} bytes, the manifest records ${entry.bytes}`);
  const actual = crc32(bytes);
  if (actual !== entry.crc32)
    throw new CorruptIndexError(
      named(entry.name),
      `checksum mismatch (CRC-32 ${hex8(actual)}, the manifest records ${hex8(entry.crc32)}): the file changed after ` +
        `it was written`,
    );
  // A fresh, aligned copy: typed-array views need 4-byte alignment.
  return new Uint8Array(bytes);
}

/** A segment held whole in memory. */
class BufferSegment implements IndexSegment {
  private readonly bands: Uint32Array;
  private readonly sig: Uint32Array;
  private readonly idOffsets: Uint32Array;
  private readonly idBytes: Uint8Array;
  private readonly decoder = new TextDecoder();
  private readonly width: number;

  constructor(
    private readonly record: SegmentRecord,
    parameters: IndexParameters,
    files: { ids: Uint8Array; sig: Uint8Array; bands: Uint8Array; sets?: Uint8Array },
    private readonly removed: Uint8Array | undefined,
  ) {
    this.width = rowWidthOf(parameters);
    this.bands = new Uint32Array(files.bands.buffer);
    this.sig = new Uint32Array(files.sig.buffer);
    this.idOffsets = new Uint32Array(files.ids.buffer, 0, record.count + 1);
    this.idBytes = files.ids.subarray(4 * (record.count + 1));
    if (files.sets) {
      const offsetBytes = 8 * (record.count + 1);
      this.setOffsets = new Float64Array(files.sets.buffer.slice(files.sets.length - offsetBytes));
      this.setWords = new Uint32Array(files.sets.buffer, 0, (files.sets.length - offsetBytes) / 4);
    }
  }

  private readonly setOffsets?: Float64Array;
  private readonly setWords?: Uint32Array;

  get name(): string {
    return this.record.name;
  }

  get count(): number {
    return this.record.count;
  }

  get hasSets(): boolean {
    return this.setWords !== undefined;
  }

  lookup(band: number, lo: number, hi: number, out: number[]): void {
    const n = this.record.banded;
    const t = this.bands;
    let left = 0;
    let right = n;
    while (left < right) {
      const mid = (left + right) >>> 1;
      const e = 3 * (band * n + mid);
      if (t[e + 1] < hi || (t[e + 1] === hi && t[e] < lo)) left = mid + 1;
      else right = mid;
    }
    for (let i = left; i < n; i++) {
      const e = 3 * (band * n + i);
      if (t[e + 1] !== hi || t[e] !== lo) break;
      out.push(t[e + 2]);
    }
  }

  isRemoved(row: number): boolean {
    return this.removed !== undefined && this.removed[row] === 1;
  }

  id(row: number): string {
    return this.decoder.decode(this.idBytes.subarray(this.idOffsets[row], this.idOffsets[row + 1]));
  }

  readRow(row: number, out: Uint32Array, at: number): void {
    out.set(this.sig.subarray(row * this.width, (row + 1) * this.width), at);
  }

  readSet(row: number): Uint32Array | undefined {
    if (this.setWords === undefined || this.setOffsets === undefined) return undefined;
    return this.setWords.subarray(2 * this.setOffsets[row], 2 * this.setOffsets[row + 1]);
  }

  setSize(row: number): number {
    return this.setOffsets === undefined ? 0 : this.setOffsets[row + 1] - this.setOffsets[row];
  }
}

export interface SnapshotOptions {
  /**
   * The index's name in messages (its directory's name or path); files are named `NAME/file`. Default: none (bare file
   * names).
   */
  readonly name?: string;
}

/** A saved index opened from its files: read-only, with its parameters (from its manifest). */
export type IndexSnapshot = DedupIndex & { readonly parameters: IndexParameters };

/**
 * Opens a saved index from its files (read-only). `signer` signs the
 * queries: a signer (its k must be the index's), or a function that makes
 * one from the index's parameters, read from its manifest (the tab does
 * this, so that what it checks is signed as the index was).
 */
export async function openIndexSnapshot(
  read: ReadIndexFile,
  signer: FirstPassSigner | ((parameters: IndexParameters) => FirstPassSigner),
  options: SnapshotOptions = {},
): Promise<IndexSnapshot> {
  const dir = options.name ?? 'the saved index';
  const named = (file: string): string => (options.name === undefined ? file : `${options.name}/${file}`);
  const rest = await readSnapshotManifest(read, dir, named);
  const parameters = manifestParameters(rest.parameters as Record<string, unknown>, dir);
  if (needsIdfTable(parameters)) registerIndexIdf(await read(IDF_TABLE), named(IDF_TABLE), parameters);
  const sign = typeof signer === 'function' ? signer(parameters) : signer;
  if (sign.backend.k !== parameters.k)
    throw new RangeError(`the signer signs k = ${sign.backend.k} slots, the index has k = ${parameters.k}`);
  const segments = await readSegments(read, rest, parameters, named);
  const engine = new IndexEngine(parameters);
  const readOnly = (what: string) =>
    Promise.reject(
      new Error(`a saved index opened from its files is read-only: ${what} with the writer (openIndex in Node)`),
    );
  return {
    parameters,
    async query(texts: readonly string[], options: QueryOptions = {}): Promise<readonly QueryResult[]> {
      checkQuery(texts, options); // the call's shape, as the other calls are checked
      const query = resolveQuery(texts, options, parameters);
      return engine.query(segments, await signTexts(texts, sign, parameters, query.keepSets), query.options);
    },
    add: (): Promise<AddResult> => readOnly('add'),
    remove: (): Promise<RemoveResult> => readOnly('remove'),
    async stats(): Promise<IndexStats> {
      return {
        documents: rest.documents as number,
        removed: rest.removedDocuments as number,
        segments: segments.length,
        bytesOnDisk: 0,
        parameters: { ...parameters },
      };
    },
    async close(): Promise<void> {},
  };
}

/** The manifest, parsed and checked (its checksum too), without its checksum. */
async function readSnapshotManifest(
  read: ReadIndexFile,
  dir: string,
  named: (file: string) => string,
): Promise<Record<string, unknown>> {
  let bytes: Uint8Array;
  try {
    bytes = await read(MANIFEST);
  } catch (error) {
    throw new IndexFormatError(
      dir,
      `${dir} is not an index: no ${MANIFEST} could be read ` +
        `(${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const text = new TextDecoder().decode(bytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptIndexError(named(MANIFEST), `not JSON (${(error as Error).message})`);
  }
  checkManifestRecord(parsed, dir, 'snapshot');
  const { checksum, ...rest } = parsed as Record<string, unknown> & { checksum?: { crc32?: number } };
  checkManifestChecksum(named(MANIFEST), checksum, crc32(new TextEncoder().encode(JSON.stringify(rest, null, 1))));
  return rest;
}

/** The manifest's segments, their files read and checked, removed rows flagged. */
async function readSegments(
  read: ReadIndexFile,
  rest: Record<string, unknown>,
  parameters: IndexParameters,
  named: (file: string) => string,
): Promise<IndexSegment[]> {
  const removedEntry = rest.removed as Entry | undefined;
  const removed: Record<string, number[]> = removedEntry
    ? JSON.parse(new TextDecoder().decode(await checked(read, removedEntry, named))).segments
    : {};
  const segments: IndexSegment[] = [];
  for (const record of rest.segments as SegmentRecord[]) {
    const { files } = record;
    const flags = removed[record.name] && new Uint8Array(record.count);
    for (const row of removed[record.name] ?? []) flags![row] = 1;
    const sets = files.sets && (await checked(read, files.sets, named));
    segments.push(
      new BufferSegment(
        record,
        parameters,
        {
          ids: await checked(read, files.ids, named),
          sig: await checked(read, files.signatures, named),
          bands: await checked(read, files.bands, named),
          sets,
        },
        flags,
      ),
    );
  }
  return segments;
}
