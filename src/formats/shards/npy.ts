/**
 * NumPy .npy files (format version 1.0) of unsigned integers, shape (rows, cols),
 * written as a stream: the row count is unknown until the end, so the header is
 * written with room to spare and rewritten in place when the file is committed.
 * https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */
import { open, stat } from 'node:fs/promises';
import { AtomicFile, partialPath } from '../files/atomicFile.js';
import { NPY_HEADER_BYTES, NPY_MAGIC, npyHeader, type NpyDtype } from './npyHeader.js';

export type { NpyDtype } from './npyHeader.js';

function rowBytes(dtype: NpyDtype, cols: number): number {
  return cols * (dtype === '<u8' ? 8 : 4);
}

export class NpyWriter {
  private rows = 0;

  private constructor(
    private readonly file: AtomicFile,
    readonly dtype: NpyDtype,
    readonly cols: number,
  ) {}

  static async create(path: string, dtype: NpyDtype, cols: number): Promise<NpyWriter> {
    const file = await AtomicFile.createResumable(path);
    await file.write(npyHeader(dtype, 0, cols));
    return new NpyWriter(file, dtype, cols);
  }

  /** Rows wholly written to the `.partial` of an interrupted run (0 if there is none). */
  static async partialRows(path: string, dtype: NpyDtype, cols: number): Promise<number> {
    const info = await stat(partialPath(path)).catch(() => undefined);
    if (!info) return 0;
    return Math.max(0, Math.floor((info.size - NPY_HEADER_BYTES) / rowBytes(dtype, cols)));
  }

  /** Continues an interrupted run's `.partial` after its first `rows` rows (anything later is cut). */
  static async resume(path: string, dtype: NpyDtype, cols: number, rows: number): Promise<NpyWriter> {
    const file = await AtomicFile.reopen(path, NPY_HEADER_BYTES + rows * rowBytes(dtype, cols));
    const writer = new NpyWriter(file, dtype, cols);
    writer.rows = rows;
    return writer;
  }

  /** Reads rows [0, rows) of an interrupted run's `.partial`, in chunks, as little-endian words. */
  static async *readPartialRows(
    path: string,
    dtype: NpyDtype,
    cols: number,
    rows: number,
  ): AsyncGenerator<Uint32Array> {
    const handle = await open(partialPath(path), 'r');
    try {
      const bytesPerRow = rowBytes(dtype, cols);
      const chunkRows = Math.max(1, Math.floor((1 << 22) / bytesPerRow));
      for (let row = 0; row < rows; row += chunkRows) {
        const count = Math.min(chunkRows, rows - row);
        const words = new Uint32Array((count * bytesPerRow) / 4);
        await handle.read(new Uint8Array(words.buffer), 0, count * bytesPerRow, NPY_HEADER_BYTES + row * bytesPerRow);
        yield words;
      }
    } finally {
      await handle.close();
    }
  }

  /** Appends whole rows; `words` holds little-endian 32-bit words (two per `<u8` element). */
  async appendRows(words: Uint32Array): Promise<void> {
    const wordsPerRow = this.cols * (this.dtype === '<u8' ? 2 : 1);
    if (words.length % wordsPerRow !== 0) throw new Error(`npy: ${words.length} words is not a whole number of rows`);
    this.rows += words.length / wordsPerRow;
    await this.file.write(new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  }

  async commit(): Promise<void> {
    await this.file.writeAt(npyHeader(this.dtype, this.rows, this.cols), 0);
    await this.file.commit();
  }

  async abort(): Promise<void> {
    await this.file.abort();
  }
}

export interface NpyArray {
  readonly dtype: NpyDtype;
  readonly rows: number;
  readonly cols: number;
  /** Little-endian 32-bit words: two per element for `<u8`. */
  readonly words: Uint32Array;
}

/** Bytes per read: one read(2) call takes at most 2 GiB − 1, and so does fs.readFile for a whole file. */
const READ_CHUNK_BYTES = 1 << 30;

/**
 * Reads a 2-D `<u4`/`<u8` C-order .npy file (written by us or by NumPy). The
 * data is read straight into the returned words, in chunks, so files of 2 GiB
 * and more load too (fs.readFile refuses them) without a second copy.
 */
export async function readNpy(path: string): Promise<NpyArray> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const prefix = Buffer.alloc(12);
    await handle.read(prefix, 0, 12, 0);
    if (size < 10 || !NPY_MAGIC.every((b, i) => prefix[i] === b)) throw new Error(`${path}: not a .npy file`);
    const major = prefix[6];
    const headerStart = major === 1 ? 10 : 12;
    const headerLength = major === 1 ? prefix.readUInt16LE(8) : prefix.readUInt32LE(8);
    const dataStart = headerStart + headerLength;
    const head = Buffer.alloc(headerLength);
    await handle.read(head, 0, headerLength, headerStart);
    const text = head.toString('latin1');
    const dtype = /'descr':\s*'([^']+)'/.exec(text)?.[1];
    const shape = /'shape':\s*\((\d+),\s*(\d+)\)/.exec(text);
    if (dtype !== '<u4' && dtype !== '<u8') throw new Error(`${path}: expected dtype <u4 or <u8, found ${dtype}`);
    if (!shape) throw new Error(`${path}: expected a 2-D array`);
    if (/'fortran_order':\s*True/.test(text)) throw new Error(`${path}: Fortran-ordered arrays are not supported`);
    const rows = Number(shape[1]);
    const cols = Number(shape[2]);
    const byteLength = rows * cols * (dtype === '<u8' ? 8 : 4);
    const truncated = (): Error =>
      new Error(
        `${path}: truncated (header says ${rows}×${cols}, file holds ${Math.max(0, size - dataStart)} data bytes)`,
      );
    if (size - dataStart < byteLength) throw truncated();
    // A fresh buffer keeps the words 4-byte aligned whatever the header length.
    const words = new Uint32Array(byteLength / 4);
    const bytes = new Uint8Array(words.buffer);
    for (let done = 0; done < byteLength; ) {
      const { bytesRead } = await handle.read(
        bytes,
        done,
        Math.min(byteLength - done, READ_CHUNK_BYTES),
        dataStart + done,
      );
      if (bytesRead === 0) throw truncated();
      done += bytesRead;
    }
    return { dtype, rows, cols, words };
  } finally {
    await handle.close();
  }
}
