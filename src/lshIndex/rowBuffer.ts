/**
 * A growable array of row numbers kept from query to query (issue 39): a
 * top-K descent at 1 M documents meets tens of thousands of rows, and arrays
 * of that size made afresh each query (JS arrays grown push by push, typed
 * arrays of 100 KiB and more) cost the collector's threads and the system's
 * fresh pages more than the rows' own work. One per use, per thread (a
 * module's instance); not reentrant. Browser-safe.
 */
import { grown } from '../typedArrays.js';

export class RowBuffer {
  words = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.words.length) this.reserve(1);
    this.words[this.length++] = value;
  }

  /** Room for `more` values past the length. */
  reserve(more: number): void {
    if (this.length + more <= this.words.length) return;
    this.words = grown(this.words, Math.max(2 * this.words.length, this.length + more));
  }

  clear(): this {
    this.length = 0;
    return this;
  }

  /** The values, as a view of the buffer (valid until the next push or clear). */
  view(): Uint32Array {
    return this.words.subarray(0, this.length);
  }
}

/** No row: the end of a level's list. */
const NONE = 0xffffffff;
const EMPTY = new Uint32Array(0);

/**
 * Rows (0 … count − 1) by level (0 … top), each level a list linked through `next` (a row's successor), kept from use
 * to use as a RowBuffer is: no array a level. Not reentrant.
 */
export class LevelLists {
  private heads = new Uint32Array(0);
  private readonly next = new RowBuffer();
  private readonly rows = new RowBuffer();

  /** Every level of 0 … top empty, with room for rows 0 … count − 1. */
  reset(top: number, count: number): void {
    if (this.heads.length <= top) this.heads = new Uint32Array(top + 1);
    this.heads.fill(NONE);
    this.next.clear().reserve(count);
  }

  add(level: number, row: number): void {
    this.next.words[row] = this.heads[level];
    this.heads[level] = row;
  }

  /** The level's rows, ascending (a view, valid until the next call; no view where the level is empty, as most are). */
  ascending(level: number): Uint32Array {
    if (this.heads[level] === NONE) return EMPTY;
    const rows = this.rows.clear();
    for (let i = this.heads[level]; i !== NONE; i = this.next.words[i]) rows.push(i);
    return rows.view().sort();
  }
}
