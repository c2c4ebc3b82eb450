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
