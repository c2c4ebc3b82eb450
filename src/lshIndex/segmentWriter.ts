/**
 * Writes a segment's files (segmentFiles.ts: the format), document by
 * document: signature rows and sets stream to their files with their CRC-32
 * (whole and per block), and each set's shingle bitmap with them (so a query's
 * forest reads them, not every set: issue 39); ids, band entries and the
 * document table are held until finish(), which sorts the band tables (radix)
 * and writes the rest.
 */
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ParquetTableBuffer } from '../formats/parquet/parquetBuffer.js';
import { AppendFile } from './appendFile.js';
import { bytesOf, writeWhole, type FileEntry } from './files.js';
import type { IndexParameters } from './options.js';
import { bandKeysOfRow, rowWidthOf, type MemorySegment } from './segment.js';
import { BAND_BLOCK, type SegmentRecord } from './segmentFormat.js';
import { hex8 } from './manifestCheck.js';
import { radixSortByKey } from './bandSort.js';
import { BITMAP_WORDS, setBits } from './shingleBitmaps.js';

const encoder = new TextEncoder();
/** The exact key (4 words, as the first pass gives them) as 32 hex digits, high word first. */
export const exactKeyHex = (key: Uint32Array): string => hex8(key[3]) + hex8(key[2]) + hex8(key[1]) + hex8(key[0]);

/** Writes one segment, document by document; `finish` sorts the band tables and writes the rest. */
export class SegmentWriter {
  private readonly signatures: AppendFile;
  private readonly sets?: AppendFile;
  private readonly setOffsets: number[] = [0];
  /** Where sets are stored and scored by Jaccard (a simhash index measures the angle): each row's shingle bitmap. */
  private readonly bitmaps?: AppendFile;
  private readonly bitmap = new Uint32Array(BITMAP_WORDS);
  private readonly ids: Uint8Array[] = [];
  private readonly table = new ParquetTableBuffer(
    [
      ['id', 'STRING'],
      ['row', 'INT64'],
      ['length', 'INT64'],
      ['exact_key', 'STRING'],
      ['empty', 'BOOLEAN'],
    ],
    65_536,
  );
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
    if (hasSets && parameters.scheme !== 'simhash')
      this.bitmaps = new AppendFile(join(dir, `${name}.bits`), `${name}.bits`);
  }

  add(
    id: string,
    length: number,
    words: Uint32Array,
    at: number,
    exactKey: Uint32Array,
    empty: boolean,
    set: Uint32Array | undefined,
  ): void {
    const row = this.count++;
    this.signatures.append(bytesOf(words.subarray(at, at + this.width)));
    this.ids.push(encoder.encode(id));
    if (this.sets !== undefined) {
      const s = set ?? new Uint32Array(0);
      this.sets.append(bytesOf(s));
      this.setOffsets.push(this.setOffsets[this.setOffsets.length - 1] + s.length / 2);
      this.appendBitmap(s);
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

  private appendBitmap(set: Uint32Array): void {
    if (this.bitmaps === undefined) return;
    this.bitmap.fill(0);
    setBits(set, 0, set.length, this.bitmap, 0);
    this.bitmaps.append(bytesOf(this.bitmap));
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
    const bitmaps = this.bitmaps?.finish();
    const offsets = new Uint32Array(this.count + 1);
    this.ids.forEach((b, i) => (offsets[i + 1] = offsets[i] + b.length));
    const ids = writeWhole(join(dir, `${name}.ids`), `${name}.ids`, [bytesOf(offsets), ...this.ids]);
    const sorted = this.sortedBands();
    const bands = writeWhole(join(dir, `${name}.bands`), `${name}.bands`, [bytesOf(sorted)]);
    const bandIndex = writeWhole(join(dir, `${name}.bands.idx`), `${name}.bands.idx`, [
      bytesOf(bandFence(sorted, this.parameters.bands, this.banded)),
    ]);
    const documents = writeWhole(join(dir, `${name}.docs.parquet`), `${name}.docs.parquet`, this.table.finish());
    const signatureBlocks = writeWhole(join(dir, `${name}.sig.crc`), `${name}.sig.crc`, [
      bytesOf(Uint32Array.from(this.signatures.blocks)),
    ]);
    const setBlocks =
      this.sets &&
      writeWhole(join(dir, `${name}.sets.crc`), `${name}.sets.crc`, [bytesOf(Uint32Array.from(this.sets.blocks))]);
    return {
      name,
      count: this.count,
      banded: this.banded,
      files: {
        ids,
        signatures,
        bands,
        bandIndex,
        ...(sets ? { sets } : {}),
        documents,
        signatureBlocks,
        ...(setBlocks ? { setBlocks } : {}),
        ...(bitmaps ? { bitmaps } : {}),
      },
    };
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
    this.bitmaps?.abandon();
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

/** An add's segment, built in memory, written as the segment `name` of `dir`. */
export function writeMemorySegment(dir: string, name: string, pending: MemorySegment): SegmentRecord {
  const writer = new SegmentWriter(dir, name, pending.parameters, pending.hasSets);
  try {
    const words = pending.rowWords();
    const width = words.length / pending.count;
    for (let row = 0; row < pending.count; row++) {
      writer.add(
        pending.ids[row],
        pending.lengths[row],
        words,
        row * width,
        pending.exactKey(row),
        pending.empty[row] === 1,
        pending.readSet(row),
      );
    }
  } catch (error) {
    writer.abandon();
    throw error;
  }
  return writer.finish();
}
