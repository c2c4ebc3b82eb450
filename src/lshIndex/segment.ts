/**
 * A segment: documents added together, each with its id, signature row,
 * per-band keys and (optionally) shingle set. On disk segments are immutable
 * files (diskSegment.ts); here is the face the engine reads and the
 * in-memory segment that the in-memory index, and an add in flight, build.
 * Browser-safe.
 */
import { signatureMatrix } from '../bands/signatureMatrix.js';
import { bandKey as keyOfBand } from '../bands/bandKeys.js';
import type { LshParams } from '../bands/lshParams.js';
import { simhashBands } from '../bands/simhashBands.js';
import type { IndexParameters } from './options.js';

export interface IndexSegment {
  readonly name: string;
  /** Rows, removed ones included. */
  readonly count: number;
  readonly hasSets: boolean;
  /** Appends to `out` the rows whose key of band `band` is (lo, hi). */
  lookup(band: number, lo: number, hi: number, out: number[]): void;
  /** Whether the row was removed (a tombstone). */
  isRemoved(row: number): boolean;
  id(row: number): string;
  /** Copies the row's signature words to out[at …]. */
  readRow(row: number, out: Uint32Array, at: number): void;
  /** The row's shingle set as (lo, hi) pairs; undefined when sets are not stored. */
  readSet(row: number): Uint32Array | undefined;
  /** The number of shingles of the row's stored set, without reading it (containment queries' partitions). */
  setSize?(row: number): number;
  /** The row's stored set into `into`, of exactly 2·setSize(row) words (no array allocated: a rescoring reads ~1,000). */
  readSetInto?(row: number, into: Uint32Array): void;
  /** The stored sets of rows [from, to), one after another, into `into` (exactly their words): one read, in order. */
  readSetsInto?(from: number, to: number, into: Uint32Array): void;
  /**
   * Every row's shingle bitmap as the segment stores it (shingleBitmaps.ts), into `into` (count · BITMAP_WORDS
   * words), checked; false where it stores none (written before issue 39's .bits files).
   */
  readBitmaps?(into: Uint32Array): boolean;
  /**
   * Its documents' exact keys, 4 words a row (zero for an empty document), where known: rows of equal keys have equal
   * normalized texts, hence equal stored sets (a disk segment's are read for top-K queries: exactKeys.ts).
   */
  exactKeys?: Uint32Array;
}

/** Words of one signature row. */
export const rowWidthOf = (p: Pick<IndexParameters, 'k' | 'slotBits'>): number => (p.slotBits === 64 ? 2 * p.k : p.k);

/** The `bands` keys of row `doc` of `words`, as (lo, hi) at out[2b], out[2b + 1]. */
export function bandKeysOfRow(p: IndexParameters, words: Uint32Array, at: number, out: Uint32Array): void {
  const width = rowWidthOf(p);
  const m = signatureMatrix(words.subarray(at, at + width), p.k, p.slotBits);
  const lsh = bandingOf(p);
  for (let b = 0; b < p.bands; b++) keyOfBand(m, 0, b, lsh, out, 2 * b);
}

/** The index's banding: bands × rows, or for SimHash the block tables of its maxHamming (their slots). */
export function bandingOf(p: Pick<IndexParameters, 'bands' | 'rows' | 'maxHamming'>): LshParams {
  return p.maxHamming === undefined ? { bands: p.bands, rows: p.rows } : simhashBands(p.maxHamming);
}

/** 30 bits of a band key: a small integer, which a Map hashes faster than a uint32 above 2^30. */
const smallKey = (lo: number, hi: number): number => (hi ^ lo) & 0x3fffffff;

/**
 * A growing segment in memory. Band tables are maps from 30 bits of a key to
 * its entries' (lo, hi, row) triples: exact 64-bit keys, as the disk's sorted tables.
 */
export class MemorySegment implements IndexSegment {
  readonly ids: string[] = [];
  readonly lengths: number[] = [];
  private words: Uint32Array;
  private exact: Uint32Array;
  readonly empty: number[] = [];
  readonly sets: Uint32Array[] = [];
  readonly removed: number[] = [];
  private readonly tables: Map<number, number[]>[];
  private readonly width: number;
  private readonly keys: Uint32Array;

  constructor(
    readonly name: string,
    readonly parameters: IndexParameters,
    readonly hasSets: boolean,
  ) {
    this.width = rowWidthOf(parameters);
    this.words = new Uint32Array(16 * this.width);
    this.exact = new Uint32Array(16 * 4);
    this.tables = Array.from({ length: parameters.bands }, () => new Map());
    this.keys = new Uint32Array(2 * parameters.bands);
  }

  get count(): number {
    return this.ids.length;
  }

  /** Appends a document: its row is words[at, at + width); an empty one is never banded (never a candidate). */
  append(
    id: string,
    length: number,
    words: Uint32Array,
    at: number,
    exactKey: Uint32Array,
    keyAt: number,
    empty: boolean,
    set: Uint32Array | undefined,
    bandKeys?: Uint32Array,
  ): number {
    const row = this.ids.length;
    if ((row + 1) * this.width > this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
      const exact = new Uint32Array(this.exact.length * 2);
      exact.set(this.exact);
      this.exact = exact;
    }
    this.words.set(words.subarray(at, at + this.width), row * this.width);
    this.exact.set(exactKey.subarray(keyAt, keyAt + 4), row * 4);
    this.ids.push(id);
    this.lengths.push(length);
    this.empty.push(empty ? 1 : 0);
    this.removed.push(0);
    if (this.hasSets) this.sets.push(set ?? new Uint32Array(0));
    if (!empty) {
      const keys = bandKeys ?? this.keys;
      if (bandKeys === undefined) bandKeysOfRow(this.parameters, words, at, keys);
      for (let b = 0; b < this.parameters.bands; b++) {
        const lo = keys[2 * b];
        const hi = keys[2 * b + 1];
        const slot = smallKey(lo, hi);
        const entries = this.tables[b].get(slot);
        if (entries === undefined) this.tables[b].set(slot, [lo, hi, row]);
        else entries.push(lo, hi, row);
      }
    }
    return row;
  }

  lookup(band: number, lo: number, hi: number, out: number[]): void {
    const entries = this.tables[band].get(smallKey(lo, hi));
    if (entries === undefined) return;
    for (let i = 0; i < entries.length; i += 3)
      if (entries[i] === lo && entries[i + 1] === hi) out.push(entries[i + 2]);
  }

  isRemoved(row: number): boolean {
    return this.removed[row] === 1;
  }

  id(row: number): string {
    return this.ids[row];
  }

  readRow(row: number, out: Uint32Array, at: number): void {
    out.set(this.words.subarray(row * this.width, (row + 1) * this.width), at);
  }

  readSet(row: number): Uint32Array | undefined {
    return this.hasSets ? this.sets[row] : undefined;
  }

  setSize(row: number): number {
    return this.hasSets ? this.sets[row].length / 2 : 0;
  }

  /** Every row's words, row-major (for writing). */
  rowWords(): Uint32Array {
    return this.words.subarray(0, this.count * this.width);
  }

  get exactKeys(): Uint32Array {
    return this.exact;
  }

  exactKey(row: number): Uint32Array {
    return this.exact.subarray(row * 4, row * 4 + 4);
  }
}
