/**
 * A segment's files (Node), written once and never modified:
 *
 *   NAME.ids      (count + 1) uint32 byte offsets, then the ids' UTF-8
 *   NAME.sig      count rows of k slots (uint32 or uint64, little-endian)
 *   NAME.bands    per band, its `banded` entries (key lo, key hi, row) as
 *                 uint32 triples sorted by the 64-bit key (hi, lo): binary search
 *   NAME.sets     (optional) shingle sets as (lo, hi) uint32 pairs end to end,
 *                 then (count + 1) float64 offsets in shingles
 *   NAME.docs.parquet  the document table: id, row, length, exact_key, empty
 *   NAME.bands.idx  per band, per block of 256 entries of .bands: the block's
 *                 first key (lo, hi) and its CRC-32, as uint32 triples: a lookup
 *                 searches this in memory, then reads (and checks) one block
 *   NAME.sig.crc, NAME.sets.crc  CRC-32 of each 64 KiB block of .sig and .sets
 *                 (uint32 each), so a read can check just the blocks it touches
 *
 * Empty documents (no tokens) have a row but no band entries: never candidates.
 */
import { closeSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ParquetTableBuffer } from '../formats/parquetBuffer.js';
import { CorruptIndexError } from './errors.js';
import { bytesOf, checkCrc, crcOfFile, faultPoint, readFully, writeWhole, type FileEntry } from './files.js';
import type { IndexParameters } from './options.js';
import { bandKeysOfRow, rowWidthOf, type IndexSegment } from './segment.js';

/** A segment as the manifest records it. */
export interface SegmentRecord {
  readonly name: string;
  readonly count: number;
  /** Rows with band entries (the non-empty documents). */
  readonly banded: number;
  readonly files: {
    readonly ids: FileEntry;
    readonly signatures: FileEntry;
    readonly bands: FileEntry;
    /** The first key and CRC-32 of each block of BAND_BLOCK entries of .bands. */
    readonly bandIndex: FileEntry;
    readonly sets?: FileEntry;
    readonly documents: FileEntry;
    /** CRC-32 of each BLOCK bytes of .sig and .sets. */
    readonly signatureBlocks: FileEntry;
    readonly setBlocks?: FileEntry;
  };
}

/** Bytes per checksummed block of the signature and set files. */
export const BLOCK = 1 << 16;

/** Entries per block of a band table (3 KiB): one read per band per lookup. */
export const BAND_BLOCK = 256;

const WRITE_BUFFER = 1 << 22;

/** A file written front to back through a buffer, its CRC-32 kept as it goes. */
class AppendFile {
  private readonly fd: number;
  private readonly buffer = new Uint8Array(WRITE_BUFFER);
  private used = 0;
  private crc = 0;
  private blockCrc = 0;
  /** CRC-32 of each completed BLOCK bytes. */
  readonly blocks: number[] = [];
  bytes = 0;

  constructor(
    private readonly path: string,
    readonly name: string,
  ) {
    this.fd = openSync(path, 'w');
  }

  append(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buffer.length) this.flush();
    if (bytes.length > this.buffer.length) this.write(bytes);
    else {
      this.buffer.set(bytes, this.used);
      this.used += bytes.length;
    }
  }

  private flush(): void {
    if (this.used === 0) return;
    this.write(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private write(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done);
    this.crc = crc32(bytes, this.crc);
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(bytes.length - at, BLOCK - ((this.bytes + at) % BLOCK));
      this.blockCrc = crc32(bytes.subarray(at, at + take), this.blockCrc);
      at += take;
      if ((this.bytes + at) % BLOCK === 0) {
        this.blocks.push(this.blockCrc >>> 0);
        this.blockCrc = 0;
      }
    }
    this.bytes += bytes.length;
    faultPoint(`write ${this.name} @${this.bytes}`);
  }

  finish(): FileEntry {
    try {
      this.flush();
      if (this.bytes % BLOCK !== 0) this.blocks.push(this.blockCrc >>> 0);
      faultPoint(`fsync ${this.name}`);
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
    }
    return { name: this.name, bytes: this.bytes, crc32: this.crc >>> 0 };
  }

  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}

const encoder = new TextEncoder();
const hex32 = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
/** The exact key (4 words, as the first pass gives them) as 32 hex digits, high word first. */
export const exactKeyHex = (key: Uint32Array): string => hex32(key[3]) + hex32(key[2]) + hex32(key[1]) + hex32(key[0]);

/** Writes one segment, document by document; `finish` sorts the band tables and writes the rest. */
export class SegmentWriter {
  private readonly signatures: AppendFile;
  private readonly sets?: AppendFile;
  private readonly setOffsets: number[] = [0];
  private readonly ids: Uint8Array[] = [];
  private readonly table = new ParquetTableBuffer([['id', 'STRING'], ['row', 'INT64'], ['length', 'INT64'], ['exact_key', 'STRING'], ['empty', 'BOOLEAN']], 65_536);
  private keysLo: Uint32Array;
  private keysHi: Uint32Array;
  private keyRows: Uint32Array;
  private banded = 0;
  private count = 0;
  private readonly keys: Uint32Array;
  private readonly width: number;

  constructor(
    private readonly dir: string,
    readonly name: string,
    private readonly parameters: IndexParameters,
    readonly hasSets: boolean,
  ) {
    this.width = rowWidthOf(parameters);
    this.keys = new Uint32Array(2 * parameters.bands);
    const capacity = 1024 * parameters.bands;
    this.keysLo = new Uint32Array(capacity);
    this.keysHi = new Uint32Array(capacity);
    this.keyRows = new Uint32Array(capacity);
    this.signatures = new AppendFile(join(dir, `${name}.sig`), `${name}.sig`);
    if (hasSets) this.sets = new AppendFile(join(dir, `${name}.sets`), `${name}.sets`);
  }

  add(id: string, length: number, words: Uint32Array, at: number, exactKey: Uint32Array, empty: boolean, set: Uint32Array | undefined): void {
    const row = this.count++;
    this.signatures.append(bytesOf(words.subarray(at, at + this.width)));
    this.ids.push(encoder.encode(id));
    if (this.sets !== undefined) {
      const s = set ?? new Uint32Array(0);
      this.sets.append(bytesOf(s));
      this.setOffsets.push(this.setOffsets[this.setOffsets.length - 1] + s.length / 2);
    }
    this.table.row([id, row, length, exactKeyHex(exactKey), empty]);
    if (empty) return;
    bandKeysOfRow(this.parameters, words, at, this.keys);
    const { bands } = this.parameters;
    if ((this.banded + 1) * bands > this.keysLo.length) this.grow();
    for (let b = 0; b < bands; b++) {
      // Band-major after sorting; here row-major, band b of entry e at e·bands + b.
      const e = this.banded * bands + b;
      this.keysLo[e] = this.keys[2 * b];
      this.keysHi[e] = this.keys[2 * b + 1];
      this.keyRows[e] = row;
    }
    this.banded++;
  }

  private grow(): void {
    const grow = (a: Uint32Array): Uint32Array => {
      const b = new Uint32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.keysLo = grow(this.keysLo);
    this.keysHi = grow(this.keysHi);
    this.keyRows = grow(this.keyRows);
  }

  finish(): SegmentRecord {
    try {
      return this.finishFiles();
    } catch (error) {
      this.abandon();
      throw error;
    }
  }

  private finishFiles(): SegmentRecord {
    const { name, dir } = this;
    const signatures = this.signatures.finish();
    let sets: FileEntry | undefined;
    if (this.sets !== undefined) {
      this.sets.append(bytesOf(Float64Array.from(this.setOffsets)));
      sets = this.sets.finish();
    }
    const offsets = new Uint32Array(this.count + 1);
    this.ids.forEach((b, i) => (offsets[i + 1] = offsets[i] + b.length));
    const ids = writeWhole(join(dir, `${name}.ids`), `${name}.ids`, [bytesOf(offsets), ...this.ids]);
    const sorted = this.sortedBands();
    const bands = writeWhole(join(dir, `${name}.bands`), `${name}.bands`, [bytesOf(sorted)]);
    const bandIndex = writeWhole(join(dir, `${name}.bands.idx`), `${name}.bands.idx`, [bytesOf(bandFence(sorted, this.parameters.bands, this.banded))]);
    const documents = writeWhole(join(dir, `${name}.docs.parquet`), `${name}.docs.parquet`, this.table.finish());
    const signatureBlocks = writeWhole(join(dir, `${name}.sig.crc`), `${name}.sig.crc`, [bytesOf(Uint32Array.from(this.signatures.blocks))]);
    const setBlocks = this.sets && writeWhole(join(dir, `${name}.sets.crc`), `${name}.sets.crc`, [bytesOf(Uint32Array.from(this.sets.blocks))]);
    return { name, count: this.count, banded: this.banded, files: { ids, signatures, bands, bandIndex, ...(sets ? { sets } : {}), documents, signatureBlocks, ...(setBlocks ? { setBlocks } : {}) } };
  }

  /** Band tables, band-major, each sorted by key (radix sort: stable, so equal keys stay in row order). */
  private sortedBands(): Uint32Array {
    const { bands } = this.parameters;
    const n = this.banded;
    const out = new Uint32Array(bands * n * 3);
    const lo = new Uint32Array(n);
    const hi = new Uint32Array(n);
    const rows = new Uint32Array(n);
    for (let b = 0; b < bands; b++) {
      for (let e = 0; e < n; e++) {
        lo[e] = this.keysLo[e * bands + b];
        hi[e] = this.keysHi[e * bands + b];
        rows[e] = this.keyRows[e * bands + b];
      }
      radixSortByKey(lo, hi, rows);
      const base = b * n * 3;
      for (let e = 0; e < n; e++) {
        out[base + 3 * e] = lo[e];
        out[base + 3 * e + 1] = hi[e];
        out[base + 3 * e + 2] = rows[e];
      }
    }
    return out;
  }

  /** Closes the files of a segment that will not be committed (the caller removes them). */
  abandon(): void {
    this.signatures.abandon();
    this.sets?.abandon();
  }
}

/** Per band, per block of BAND_BLOCK entries: its first key (lo, hi) and CRC-32. */
function bandFence(sorted: Uint32Array, bands: number, n: number): Uint32Array {
  const blocks = Math.ceil(n / BAND_BLOCK);
  const fence = new Uint32Array(bands * blocks * 3);
  for (let b = 0; b < bands; b++) {
    for (let i = 0; i < blocks; i++) {
      const first = 3 * (b * n + i * BAND_BLOCK);
      const end = 3 * (b * n + Math.min(n, (i + 1) * BAND_BLOCK));
      const f = 3 * (b * blocks + i);
      fence[f] = sorted[first];
      fence[f + 1] = sorted[first + 1];
      fence[f + 2] = crc32(bytesOf(sorted.subarray(first, end))) >>> 0;
    }
  }
  return fence;
}

/** Sorts (lo, hi, row) triples by the 64-bit key hi·2³² + lo: LSD radix, four 16-bit digits, stable. */
export function radixSortByKey(lo: Uint32Array, hi: Uint32Array, rows: Uint32Array): void {
  const n = lo.length;
  let [sLo, sHi, sRows]: Uint32Array[] = [lo, hi, rows];
  let [tLo, tHi, tRows]: Uint32Array[] = [new Uint32Array(n), new Uint32Array(n), new Uint32Array(n)];
  const counts = new Uint32Array(65_537);
  for (let pass = 0; pass < 4; pass++) {
    const source = pass < 2 ? sLo : sHi;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[((source[i] >>> shift) & 0xffff) + 1]++;
    for (let d = 0; d < 65_536; d++) counts[d + 1] += counts[d];
    const key = pass < 2 ? sLo : sHi;
    for (let i = 0; i < n; i++) {
      const to = counts[(key[i] >>> shift) & 0xffff]++;
      tLo[to] = sLo[i];
      tHi[to] = sHi[i];
      tRows[to] = sRows[i];
    }
    [sLo, tLo] = [tLo, sLo];
    [sHi, tHi] = [tHi, sHi];
    [sRows, tRows] = [tRows, sRows];
  }
  // Four passes: the sorted triples are back in the caller's arrays.
}

const decoder = new TextDecoder();

/**
 * A signature or set file read by position. Its blocks' CRC-32 are checked
 * once each: all before the segment opens (`open`), or each block on the
 * first read that touches it (`lazy`).
 */
class CheckedFile {
  private readonly fd: number;
  private readonly checked: Uint8Array;
  private readonly block = new Uint8Array(BLOCK);

  constructor(
    private readonly path: string,
    private readonly entry: FileEntry,
    private readonly blocks: Uint32Array,
  ) {
    if (blocks.length !== Math.ceil(entry.bytes / BLOCK)) throw new CorruptIndexError(path, `${blocks.length} block checksums for ${entry.bytes} bytes`);
    this.fd = openSync(path, 'r');
    this.checked = new Uint8Array(blocks.length);
  }

  /** The whole file's CRC-32, streamed; every block counts as checked after it. */
  verifyAll(): void {
    checkCrc(this.entry, crcOfFile(this.fd, this.entry.bytes, this.path), this.path);
    this.checked.fill(1);
  }

  read(into: Uint8Array, position: number): void {
    if (position + into.length > this.entry.bytes) throw new CorruptIndexError(this.path, `a read of bytes ${position}–${position + into.length} past its ${this.entry.bytes} bytes`);
    const last = Math.floor((position + into.length - 1) / BLOCK);
    for (let b = Math.floor(position / BLOCK); b <= last; b++) if (this.checked[b] === 0) this.checkBlock(b);
    readFully(this.fd, into, position, this.path);
  }

  private checkBlock(b: number): void {
    const view = this.block.subarray(0, Math.min(BLOCK, this.entry.bytes - b * BLOCK));
    readFully(this.fd, view, b * BLOCK, this.path);
    const actual = crc32(view) >>> 0;
    if (actual !== this.blocks[b]) {
      throw new CorruptIndexError(this.path, `checksum mismatch in bytes ${b * BLOCK}–${b * BLOCK + view.length} (block CRC-32 ${actual.toString(16)}, recorded ${this.blocks[b].toString(16)}): the file changed after it was written`);
    }
    this.checked[b] = 1;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * A committed segment, opened for reading: the band tables' block index, ids
 * and set offsets in memory (their files checked whole as they are read);
 * band blocks, signature rows and shingle sets read by position when a
 * lookup or a candidate needs them, their blocks checked before open
 * returns (`open`) or on first read (`lazy`).
 */
export class DiskSegment {
  private readonly bandsFd: number;
  private readonly fence: Uint32Array;
  private readonly blocks: number;
  private readonly bandChecked: Uint8Array;
  private readonly block = new Uint32Array(3 * BAND_BLOCK);
  private readonly bandsPath: string;
  private readonly idOffsets: Uint32Array;
  private readonly idBytes: Uint8Array;
  private readonly setOffsets?: Float64Array;
  private readonly signatures: CheckedFile;
  private readonly sets?: CheckedFile;
  private readonly rowBytes: number;

  private constructor(
    dir: string,
    readonly record: SegmentRecord,
    parameters: IndexParameters,
    checksums: 'open' | 'lazy',
  ) {
    const { files, count } = record;
    this.rowBytes = rowWidthOf(parameters) * 4;
    expectSize(dir, files.signatures, count * this.rowBytes);
    expectSize(dir, files.bands, record.banded * parameters.bands * 12);
    this.blocks = Math.ceil(record.banded / BAND_BLOCK);
    this.fence = new Uint32Array(readChecked(dir, files.bandIndex).buffer);
    if (this.fence.length !== parameters.bands * this.blocks * 3) throw new CorruptIndexError(join(dir, files.bandIndex.name), `${this.fence.length / 3} blocks, ${parameters.bands * this.blocks} expected`);
    this.bandChecked = new Uint8Array(parameters.bands * this.blocks);
    this.bandsPath = join(dir, files.bands.name);
    const ids = readChecked(dir, files.ids);
    this.idOffsets = new Uint32Array(ids.buffer, 0, count + 1);
    this.idBytes = ids.subarray(4 * (count + 1));
    this.bandsFd = openSync(this.bandsPath, 'r');
    this.signatures = new CheckedFile(join(dir, files.signatures.name), files.signatures, new Uint32Array(readChecked(dir, files.signatureBlocks).buffer));
    try {
      if (files.sets !== undefined) {
        if (files.setBlocks === undefined) throw new CorruptIndexError(join(dir, MANIFEST_NAME), `${record.name} has sets without their block checksums`);
        this.sets = new CheckedFile(join(dir, files.sets.name), files.sets, new Uint32Array(readChecked(dir, files.setBlocks).buffer));
        const offsets = new Float64Array(count + 1);
        const at = files.sets.bytes - offsets.byteLength;
        if (at < 0) throw new CorruptIndexError(join(dir, files.sets.name), `${files.sets.bytes} bytes cannot hold the offsets of ${count} sets`);
        this.sets.read(bytesOf(offsets), at);
        this.setOffsets = offsets;
      }
      if (checksums === 'open') {
        checkCrc(files.bands, crcOfFile(this.bandsFd, files.bands.bytes, this.bandsPath), this.bandsPath);
        this.bandChecked.fill(1); // the whole file matches, hence each block its recorded CRC
        this.signatures.verifyAll();
        this.sets?.verifyAll();
      }
    } catch (error) {
      this.close();
      throw error;
    }
  }

  static open(dir: string, record: SegmentRecord, parameters: IndexParameters, checksums: 'open' | 'lazy'): DiskSegment {
    return new DiskSegment(dir, record, parameters, checksums);
  }

  get name(): string {
    return this.record.name;
  }

  /**
   * The rows whose key of `band` is (lo, hi): the first block whose first key
   * is ≥ the key is found in the in-memory fence; a run of equal keys may
   * start in the block before it, and may go on into the blocks after.
   */
  lookup(band: number, lo: number, hi: number, out: number[]): void {
    const { fence, blocks } = this;
    const base = band * blocks;
    let left = 0;
    let right = blocks;
    while (left < right) {
      const mid = (left + right) >>> 1;
      const f = 3 * (base + mid);
      const h = fence[f + 1];
      if (h < hi || (h === hi && fence[f] < lo)) left = mid + 1;
      else right = mid;
    }
    for (let i = Math.max(0, left - 1); i < blocks; i++) {
      // From block `left` on, a block holds the key only if it starts with it (blocks are sorted).
      if (i >= left && (fence[3 * (base + i) + 1] !== hi || fence[3 * (base + i)] !== lo)) break;
      const entries = this.readBandBlock(band, i);
      let past = false;
      for (let e = 0; e < entries; e++) {
        const h = this.block[3 * e + 1];
        const l = this.block[3 * e];
        if (h === hi && l === lo) out.push(this.block[3 * e + 2]);
        else if (h > hi || (h === hi && l > lo)) {
          past = true;
          break;
        }
      }
      if (past) break;
    }
  }

  /** Block i of band `band` into this.block, its CRC-32 checked on first read; returns its entries. */
  private readBandBlock(band: number, i: number): number {
    const n = this.record.banded;
    const entries = Math.min(BAND_BLOCK, n - i * BAND_BLOCK);
    const view = new Uint8Array(this.block.buffer, 0, entries * 12);
    readFully(this.bandsFd, view, 12 * (band * n + i * BAND_BLOCK), this.bandsPath);
    const at = band * this.blocks + i;
    if (this.bandChecked[at] === 0) {
      const actual = crc32(view) >>> 0;
      const recorded = this.fence[3 * at + 2];
      if (actual !== recorded) throw new CorruptIndexError(this.bandsPath, `checksum mismatch in band ${band}, block ${i} (CRC-32 ${actual.toString(16)}, recorded ${recorded.toString(16)}): the file changed after it was written`);
      this.bandChecked[at] = 1;
    }
    return entries;
  }

  id(row: number): string {
    return decoder.decode(this.idBytes.subarray(this.idOffsets[row], this.idOffsets[row + 1]));
  }

  readRow(row: number, out: Uint32Array, at: number): void {
    this.signatures.read(new Uint8Array(out.buffer, out.byteOffset + at * 4, this.rowBytes), row * this.rowBytes);
  }

  readSet(row: number): Uint32Array | undefined {
    if (this.sets === undefined || this.setOffsets === undefined) return undefined;
    const from = this.setOffsets[row];
    const to = this.setOffsets[row + 1];
    const set = new Uint32Array(2 * (to - from));
    if (set.length > 0) this.sets.read(bytesOf(set), from * 8);
    return set;
  }

  /** This segment with one generation's removed rows (flags, 1 = removed; undefined: none). */
  view(removed: Uint8Array | undefined): IndexSegment {
    return {
      name: this.name,
      count: this.record.count,
      hasSets: this.sets !== undefined,
      lookup: (band, lo, hi, out) => this.lookup(band, lo, hi, out),
      isRemoved: (row) => removed !== undefined && removed[row] === 1,
      id: (row) => this.id(row),
      readRow: (row, out, at) => this.readRow(row, out, at),
      readSet: (row) => this.readSet(row),
    };
  }

  close(): void {
    closeSync(this.bandsFd);
    this.signatures?.close();
    this.sets?.close();
  }
}

const MANIFEST_NAME = 'manifest.json';

function expectSize(dir: string, entry: FileEntry, bytes: number): void {
  if (entry.bytes !== bytes) throw new CorruptIndexError(join(dir, entry.name), `the manifest records ${entry.bytes} bytes, its segment needs ${bytes}`);
}

/** A whole file, its size and CRC-32 checked against the manifest's entry, in a fresh (aligned) buffer. */
export function readChecked(dir: string, entry: FileEntry): Uint8Array {
  const path = join(dir, entry.name);
  const fd = openSync(path, 'r');
  try {
    const bytes = new Uint8Array(new ArrayBuffer(entry.bytes));
    readFully(fd, bytes, 0, path);
    const extra = new Uint8Array(1);
    if (readSyncSafe(fd, extra, entry.bytes) > 0) throw new CorruptIndexError(path, `longer than the ${entry.bytes} bytes the manifest records`);
    checkCrc(entry, crc32(bytes) >>> 0, path);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

const readSyncSafe = (fd: number, into: Uint8Array, position: number): number => readSync(fd, into, 0, into.length, position);
