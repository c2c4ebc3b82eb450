/**
 * A committed segment opened for reading (segmentFiles.ts: the format), every
 * file the manifest names for it checked against its size and CRC-32 before
 * its bytes are used — whole, or block by block (checkedFile.ts).
 */
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { CheckedFile, readChecked, StoredFile, verifyFile } from './checkedFile.js';
import { hex8, MANIFEST } from './manifestCheck.js';
import { CorruptIndexError } from './errors.js';
import { bytesOf, type FileEntry } from './files.js';
import type { IndexParameters } from './options.js';
import { rowWidthOf, type IndexSegment } from './segment.js';
import { BAND_BLOCK, type SegmentRecord } from './segmentFormat.js';

const decoder = new TextDecoder();

/**
 * A segment whose signature, set and band files hold `smallSegmentBytes` or
 * fewer (tests lower it) is read whole into memory at open (checked) and holds no descriptor:
 * an index of many small segments (each add makes one) does not run out of
 * descriptors; large ones are few (the merge policy, diskMerge.ts). `bandCacheBytes`: the band-table
 * bytes a segment keeps after reading them (a 16-band table of 170 k documents).
 */
export const segmentTuning = { smallSegmentBytes: 2 ** 20, bandCacheBytes: 32 * 2 ** 20 };

/** The bytes of the files a reader reads by position (what decides held in memory or read through a descriptor). */
export const positionalBytes = (record: SegmentRecord): number =>
  record.files.signatures.bytes + (record.files.sets?.bytes ?? 0) + record.files.bands.bytes;

/**
 * A committed segment, opened for reading: the band tables' block index, ids
 * and set offsets in memory (their files checked whole as they are read);
 * band blocks, signature rows and shingle sets read by position when a
 * lookup or a candidate needs them, their blocks checked before open
 * returns (`open`) or on first read (`lazy`).
 */
export class DiskSegment {
  private readonly bands: StoredFile;
  private readonly fence: Uint32Array;
  private readonly blocks: number;
  private readonly bandChecked: Uint8Array;
  /** Band blocks read (and checked) so far, by band × blocks + i; `segmentTuning.bandCacheBytes` at most. */
  private readonly cache = new Map<number, Uint32Array>();
  /** The cached blocks' keys, oldest first from `cacheHead` (not the Map's order: its walk skips deleted entries). */
  private cacheOrder: number[] = [];
  private cacheHead = 0;
  private cachedBytes = 0;
  private readonly idOffsets: Uint32Array;
  private readonly idBytes: Uint8Array;
  private readonly setOffsets?: Float64Array;
  private readonly signatures: CheckedFile;
  private readonly sets?: CheckedFile;
  private readonly rowBytes: number;
  /** Its documents' exact keys, once read (exactKeys.ts: for top-K queries, which score identical copies once). */
  keysLoaded?: Promise<Uint32Array>;

  private constructor(
    private readonly dir: string,
    readonly record: SegmentRecord,
    parameters: IndexParameters,
    checksums: 'open' | 'lazy',
  ) {
    const { files, count } = record;
    const inMemory = positionalBytes(record) <= segmentTuning.smallSegmentBytes;
    this.rowBytes = rowWidthOf(parameters) * 4;
    expectSize(dir, files.signatures, count * this.rowBytes);
    expectSize(dir, files.bands, record.banded * parameters.bands * 12);
    this.blocks = Math.ceil(record.banded / BAND_BLOCK);
    this.fence = new Uint32Array(readChecked(dir, files.bandIndex).buffer);
    if (this.fence.length !== parameters.bands * this.blocks * 3)
      throw new CorruptIndexError(
        join(dir, files.bandIndex.name),
        `${this.fence.length / 3} blocks, ${parameters.bands * this.blocks} expected`,
      );
    this.bandChecked = new Uint8Array(parameters.bands * this.blocks);
    [this.idOffsets, this.idBytes] = readIds(dir, files.ids, count);
    const signatureBlocks = new Uint32Array(readChecked(dir, files.signatureBlocks).buffer);
    const setBlocks = files.setBlocks && new Uint32Array(readChecked(dir, files.setBlocks).buffer);
    // read by compaction only, checked there again
    if (checksums === 'open' || inMemory) verifyFile(dir, files.documents);
    if (checksums === 'open' && files.bitmaps !== undefined) verifyFile(dir, files.bitmaps);
    this.bands = new StoredFile(dir, files.bands, inMemory);
    try {
      this.signatures = new CheckedFile(dir, files.signatures, signatureBlocks, inMemory);
    } catch (error) {
      this.bands.close();
      throw error;
    }
    try {
      if (files.sets !== undefined) {
        if (setBlocks === undefined)
          throw new CorruptIndexError(join(dir, MANIFEST), `${record.name} has sets without their block checksums`);
        this.sets = new CheckedFile(dir, files.sets, setBlocks, inMemory);
        this.setOffsets = readSetOffsets(dir, files.sets, this.sets, count);
      }
      if (this.bands.verified) this.bandChecked.fill(1); // read whole and checked, hence each block
      if (checksums === 'open') {
        this.bands.verifyAll();
        this.bandChecked.fill(1); // the whole file matches, hence each block its recorded CRC
        this.signatures.verifyAll();
        this.sets?.verifyAll();
      }
    } catch (error) {
      this.close();
      throw error;
    }
  }

  static open(
    dir: string,
    record: SegmentRecord,
    parameters: IndexParameters,
    checksums: 'open' | 'lazy',
  ): DiskSegment {
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
      const block = this.readBandBlock(band, i);
      const entries = block.length / 3;
      // The first entry ≥ the key, by bisection; the run of equal keys from there.
      let a = 0;
      let z = entries;
      while (a < z) {
        const mid = (a + z) >>> 1;
        const h = block[3 * mid + 1];
        if (h < hi || (h === hi && block[3 * mid] < lo)) a = mid + 1;
        else z = mid;
      }
      let e = a;
      for (; e < entries && block[3 * e + 1] === hi && block[3 * e] === lo; e++) out.push(block[3 * e + 2]);
      if (e < entries) break; // an entry past the key: no later block holds it
    }
  }

  /**
   * Block i of band `band` (its entries' words), its CRC-32 checked on first
   * read. Kept while the cache has room (the oldest dropped first), so that
   * an add's many lookups read each block about once, not once per document.
   */
  private readBandBlock(band: number, i: number): Uint32Array {
    const at = band * this.blocks + i;
    const cached = this.cache.get(at);
    if (cached !== undefined) return cached;
    const n = this.record.banded;
    const entries = Math.min(BAND_BLOCK, n - i * BAND_BLOCK);
    const block = this.freeBlock(3 * entries);
    const view = bytesOf(block);
    this.bands.read(view, 12 * (band * n + i * BAND_BLOCK));
    if (this.bandChecked[at] === 0) {
      const actual = crc32(view) >>> 0;
      const recorded = this.fence[3 * at + 2];
      if (actual !== recorded)
        throw new CorruptIndexError(
          this.bands.path,
          `checksum mismatch in band ${band}, block ${i} (CRC-32 ${hex8(actual)}, recorded ${hex8(recorded)}): the ` +
            `file changed after it was written`,
        );
      this.bandChecked[at] = 1;
    }
    this.cache.set(at, block);
    this.cacheOrder.push(at);
    this.cachedBytes += view.length;
    return block;
  }

  /**
   * Room for a block of `words`: the oldest blocks dropped while the cache would outgrow its bytes, the last one
   * reused where it fits (an add whose lookups outgrow the cache reads a block per lookup: no garbage per read).
   */
  private freeBlock(words: number): Uint32Array {
    let reused: Uint32Array | undefined;
    while (this.cacheHead < this.cacheOrder.length && this.cachedBytes + 4 * words > segmentTuning.bandCacheBytes) {
      const oldest = this.cacheOrder[this.cacheHead++];
      reused = this.cache.get(oldest)!;
      this.cachedBytes -= reused.byteLength;
      this.cache.delete(oldest);
    }
    if (this.cacheHead >= 4096 && 2 * this.cacheHead >= this.cacheOrder.length) {
      this.cacheOrder = this.cacheOrder.slice(this.cacheHead); // the dropped keys' room back, now and then
      this.cacheHead = 0;
    }
    return reused?.length === words ? reused : new Uint32Array(words);
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

  setSize(row: number): number {
    return this.setOffsets === undefined ? 0 : this.setOffsets[row + 1] - this.setOffsets[row];
  }

  readSetInto(row: number, into: Uint32Array): void {
    if (this.sets !== undefined && into.length > 0) this.sets.read(bytesOf(into), this.setOffsets![row] * 8);
  }

  readSetsInto(from: number, _to: number, into: Uint32Array): void {
    this.readSetInto(from, into); // the sets lie one after another, in row order
  }

  /** The stored bitmaps (segmentFormat.ts: .bits) into `into`, their size and CRC-32 checked; false where none. */
  readBitmaps(into: Uint32Array): boolean {
    const entry = this.record.files.bitmaps;
    if (entry === undefined) return false;
    readChecked(this.dir, entry, bytesOf(into));
    return true;
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
      setSize: (row) => this.setSize(row),
      readSetInto: (row, into) => this.readSetInto(row, into),
      readSetsInto: (from, to, into) => this.readSetsInto(from, to, into),
      readBitmaps: (into) => this.readBitmaps(into),
    };
  }

  close(): void {
    this.bands.close();
    this.signatures?.close();
    this.sets?.close();
  }
}

function expectSize(dir: string, entry: FileEntry, bytes: number): void {
  if (entry.bytes !== bytes)
    throw new CorruptIndexError(
      join(dir, entry.name),
      `the manifest records ${entry.bytes} bytes, its segment needs ${bytes}`,
    );
}

/** The ids file: `count` + 1 offsets, then the ids' bytes. */
function readIds(dir: string, entry: FileEntry, count: number): [Uint32Array, Uint8Array] {
  const ids = readChecked(dir, entry);
  if (ids.length < 4 * (count + 1))
    throw new CorruptIndexError(join(dir, entry.name), `${ids.length} bytes cannot hold the offsets of ${count} ids`);
  return [new Uint32Array(ids.buffer, 0, count + 1), ids.subarray(4 * (count + 1))];
}

/** The set offsets at the end of the sets file (`count` + 1 doubles). */
function readSetOffsets(dir: string, entry: FileEntry, sets: CheckedFile, count: number): Float64Array {
  const offsets = new Float64Array(count + 1);
  const at = entry.bytes - offsets.byteLength;
  if (at < 0)
    throw new CorruptIndexError(join(dir, entry.name), `${entry.bytes} bytes cannot hold the offsets of ${count} sets`);
  sets.read(bytesOf(offsets), at);
  return offsets;
}
