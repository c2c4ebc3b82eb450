/**
 * Signature rows spilled to a temporary file once they pass their share of
 * `--memory-limit` (memoryPlan below), then read back twice: once for every
 * band's keys (kept in memory when they fit their share, else one file per
 * band) and once for the rows of the candidate documents only. RSS then holds
 * the band keys or one band of them, and the candidates' rows, instead of
 * every row. The files live in `--temp-directory` and are removed at the end of the
 * run, or at exit if it fails, signals included (formats/files/temporaries.ts).
 */
import { WordFile } from './wordFile.js';
import { isShared, sharedMemoryAvailable, sharedWords } from '../../bands/sharedMemory.js';
import { totalmem } from 'node:os';
import { copyRows, rangeKeys, rangesOn, type RowFile } from '../../bands/rowWorkers.js';
import type { BandKeySource } from '../../bands/bandKeySource.js';
import type { BandLayout } from '../../bands/bBitSlots.js';
import type { LshParams } from '../../bands/lshParams.js';
import type { RowSink } from '../../bands/rowStore.js';
import {
  rowWords,
  signatureMatrix,
  sparseMatrix,
  type SignatureMatrix,
  type SlotBits,
} from '../../bands/signatureMatrix.js';
import type { RowReading, SpilledSignatures } from '../../bands/spilledSignatures.js';

/** 1 GiB: the default `--memory-limit` (a quarter of the machine's memory where that is less). */
export const DEFAULT_MEMORY_LIMIT = 2 ** 30;

/**
 * The default `--memory-limit`: 1 GiB, or a quarter of the machine's memory
 * if less. A million documents then peak near 1.3 GiB (bench/RESULTS.md); a
 * larger limit holds more in memory (faster, never different results).
 */
export function defaultMemoryLimit(): number {
  return Math.min(DEFAULT_MEMORY_LIMIT, Math.floor(totalmem() / 4));
}

/**
 * How the limit is shared.
 *
 * The first pass: the signed rows stay in memory while they total an eighth
 * of it (joining them after signing briefly doubles that). Its per-document
 * tables (the exact pre-pass, the id check and the records for writing:
 * about 140 bytes a document at 1 M, counted as they grow) and the shingle
 * sets kept for exact Jaccard share a quarter: the sets go to a temporary
 * file as the two fill it (setSpill.ts).
 *
 * After it: band keys while they total a quarter; exact Jaccard reads each
 * set where it lies when a comparison needs it (from the file, through an
 * 8 MiB ring, once the sets spilled: those held then go there too; all in
 * memory when they fitted), or with presigned rows loads them
 * within a quarter less the tables kept for writing; the rest is for the
 * bucket table, the candidate pairs and the candidates' rows. The candidates'
 * rows are held whatever their size (docs/how-it-works.md, "Known limitations").
 *
 * Outside the limit, each with a bound: the Node runtime and this thread's
 * V8 heap (about 150 MiB); per first-pass worker thread (options.ts's
 * defaultThreads: one per core, at most one per MiB of input; ended with
 * the pass) its V8 heap, its document kernel's memory (36–52 times its
 * largest unit, unitKernel.ts: 72–104 MiB for the 2 MiB ranges a JSON Lines
 * file is read in (corpusPass.ts's DEDUP_UNIT_BYTES), 18–26 MiB for the
 * 512 KiB units of a stream (lineUnits.ts), a unit being one line where a
 * line is longer; an instance past 256 MiB is dropped after its unit) and its signing
 * kernel's (at most 32 MiB a chunk); and the units in flight, three per worker
 * (firstPass.ts's readAhead), each its input and its answer, a few MiB.
 */
export function memoryPlan(limitBytes: number) {
  return { rowsInMemory: limitBytes / 8, bandKeysInMemory: limitBytes / 4, shingleSets: limitBytes / 4 };
}

/** 64 MiB of rows a range: what one request to a worker reads (its keys bound for disk are a fraction of it). */
const RANGE_BYTES = 64 * 2 ** 20;

/** 1.5 GiB, 768 MiB, 32 KiB: how the notes name sizes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  return bytes >= 2 ** 20 ? `${Math.round(bytes / 2 ** 20)} MiB` : `${Math.round(bytes / 2 ** 10)} KiB`;
}
export interface SpillOptions {
  readonly dir: string;
  readonly memoryLimitBytes: number;
  /** Told when the band keys go to disk too. */
  readonly note?: (message: string) => void;
}

/** A sink for RowStore: rows appended to a temporary file, then read back as SpilledSignatures. */
export function rowSpill(options: SpillOptions, k: number, slotBits: SlotBits, bands?: BandLayout): RowSink {
  const file = new WordFile(options.dir, 'rows');
  const width = rowWords(k, slotBits, bands);
  let words = 0;
  return {
    append(rows, given) {
      file.appendOwned(rows, given);
      words += rows.length;
    },
    room: () => file.room(),
    finish: () => new SpilledRows(file, { k, slotBits, bands, width, count: words / width }, options),
  };
}

interface RowShape {
  readonly k: number;
  readonly slotBits: SlotBits;
  readonly bands?: BandLayout;
  readonly width: number;
  readonly count: number;
}

class SpilledRows implements SpilledSignatures {
  readonly spilled = true;
  readonly count: number;
  readonly k: number;
  readonly slotBits: SlotBits;
  readonly bands?: BandLayout;
  private readonly files: WordFile[];

  constructor(
    private readonly file: WordFile,
    private readonly shape: RowShape,
    private readonly options: SpillOptions,
  ) {
    this.files = [file];
    this.count = shape.count;
    this.k = shape.k;
    this.slotBits = shape.slotBits;
    if (shape.bands) this.bands = shape.bands;
  }

  private rowFile(): RowFile {
    const { k, slotBits, bands, width } = this.shape;
    return { path: this.file.path, k, slotBits, bands, width };
  }

  /** Rows [first, first + count) of range `range` (about 64 MiB of rows each). */
  private ranges(): { readonly ranges: number; readonly range: (i: number) => { first: number; count: number } } {
    const rowsPerRange = Math.max(1, Math.floor(RANGE_BYTES / 4 / this.shape.width));
    const range = (i: number) => ({
      first: i * rowsPerRange,
      count: Math.min(rowsPerRange, this.count - i * rowsPerRange),
    });
    return { ranges: Math.ceil(this.count / rowsPerRange), range };
  }

  /** Every band's keys, computed range by range: on the workers where given (each reads its rows itself). */
  async bandKeys(lsh: LshParams, { pool, onRows }: RowReading = {}): Promise<BandKeySource> {
    const { count } = this;
    const keyBytes = lsh.bands * 8 * count;
    const share = memoryPlan(this.options.memoryLimitBytes).bandKeysInMemory;
    const inMemory = keyBytes <= share;
    if (!inMemory)
      this.options.note?.(
        `band keys (${formatBytes(keyBytes)}) passed their share of the memory limit (${formatBytes(share)}): one ` +
          `file per band in ${this.options.dir}`,
      );
    const columns = inMemory ? Array.from({ length: lsh.bands }, () => sharedWords(2 * count)) : undefined;
    const onWorkers = pool !== undefined && sharedMemoryAvailable() && (columns === undefined || isShared(columns[0]));
    const nonEmpty = onWorkers ? new Uint8Array(new SharedArrayBuffer(count)) : new Uint8Array(count);
    const bandFiles = inMemory
      ? []
      : Array.from({ length: lsh.bands }, () => new WordFile(this.options.dir, 'bandkeys'));
    this.files.push(...bandFiles);
    const file = this.rowFile();
    const { ranges, range } = this.ranges();
    const make = (i: number) => ({ type: 'row keys', file, ...range(i), lsh, nonEmpty, columns }) as const;
    const take = (i: number, keys: Uint32Array[] | undefined) => {
      keys?.forEach((bandKeys, band) => bandFiles[band].append(bandKeys));
      onRows?.(range(i).first + range(i).count);
    };
    if (onWorkers) {
      await this.file.drain(); // the workers read the file itself
      await rangesOn(pool, ranges, make, (i, response) => take(i, response.keys));
    } else for (let i = 0; i < ranges; i++) take(i, rangeKeys(this.file, make(i)));
    const reused = inMemory ? undefined : new Uint32Array(2 * count);
    const keysOf = (band: number): Uint32Array => {
      if (reused === undefined) return columns![band];
      bandFiles[band].read(reused, 0);
      return reused;
    };
    return { count, k: this.k, lsh, nonEmpty, keysOf };
  }

  /** The rows flagged in `needed`, range by range: on the workers where given. */
  async load(needed: Uint8Array, { pool, onRows }: RowReading = {}): Promise<SignatureMatrix> {
    const { width } = this.shape;
    const rowAt = new Int32Array(this.count).fill(-1);
    let held = 0;
    for (let d = 0; d < this.count; d++) if (needed[d] === 1) rowAt[d] = held++;
    const words = sharedWords(held * width); // shared: the verification workers read the rows where they lie
    const file = this.rowFile();
    const { ranges, range } = this.ranges();
    const make = (i: number) => {
      const { first, count } = range(i);
      // A copy of the range's places: a view would post the whole array to the worker each time.
      return { type: 'row copy', file, first, count, rowAt: rowAt.slice(first, first + count), words } as const;
    };
    const done = (i: number) => onRows?.(range(i).first + range(i).count);
    if (pool !== undefined && isShared(words)) {
      await this.file.drain();
      await rangesOn(pool, ranges, make, done);
    } else
      for (let i = 0; i < ranges; i++) {
        copyRows(this.file, make(i));
        done(i);
      }
    return sparseMatrix(signatureMatrix(words, this.k, this.slotBits, this.bands), rowAt);
  }

  /** Removes the temporary files. */
  async release(): Promise<void> {
    const files = this.files.splice(0);
    await Promise.all(files.map((file) => file.remove()));
  }
}

/** Removes a spill's files; a no-op for rows in memory. */
export async function releaseSpill(signatures: object): Promise<void> {
  if (signatures instanceof SpilledRows) await signatures.release();
}
