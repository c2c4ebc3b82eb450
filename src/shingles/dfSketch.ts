/**
 * Bounded-memory document frequencies for large corpora (idfPass.ts): a count-min sketch with conservative update,
 * 4 rows of 2^22 uint32 counters (64 MiB), never below a shingle's true df. Only shingles the sketch puts above
 * N / 2^(W_MAX − 1) can weigh less than W_MAX (idfWeights.ts), so a second pass counts exactly those candidates
 * (DfCounter with a filter) and the table is the same, entry for entry, as exact counting gives; a false candidate
 * costs a map entry, never a wrong weight.
 */
import { IDF_W_MAX } from './idfWeights.js';

const ROWS = 4;
const SEEDS = [0x9e3779b1, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f];

export class DfSketch {
  private readonly counters: Uint32Array;
  private readonly mask: number;
  private readonly at = new Int32Array(ROWS);

  /** 2^`widthBits` counters a row. */
  constructor(private readonly widthBits = 22) {
    this.mask = (1 << widthBits) - 1;
    this.counters = new Uint32Array(ROWS << widthBits);
  }

  /** One document's set ((lo, hi) pairs, each shingle once). */
  addSet(set: Uint32Array): void {
    for (let i = 0; i < set.length; i += 2) this.add(set[i], set[i + 1]);
  }

  /** The sketch's df of (lo, hi): at least its true df. */
  estimate(lo: number, hi: number): number {
    this.slots(lo, hi);
    let min = 0xffffffff;
    for (let r = 0; r < ROWS; r++) min = Math.min(min, this.counters[this.at[r]]);
    return min;
  }

  /** Whether (lo, hi) may weigh less than W_MAX among `documents`: its estimate above N / 2^(W_MAX − 1). */
  candidate(lo: number, hi: number, documents: number): boolean {
    return this.estimate(lo, hi) * 2 ** (IDF_W_MAX - 1) > documents;
  }

  private add(lo: number, hi: number): void {
    const min = this.estimate(lo, hi);
    // Conservative update: only the counters at the minimum grow, which keeps every estimate ≥ the true count.
    for (let r = 0; r < ROWS; r++) if (this.counters[this.at[r]] === min) this.counters[this.at[r]] = min + 1;
  }

  private slots(lo: number, hi: number): void {
    for (let r = 0; r < ROWS; r++) {
      let h = Math.imul(lo ^ SEEDS[r], 0xcc9e2d51) ^ Math.imul(hi + SEEDS[r], 0x1b873593);
      h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
      h ^= h >>> 13;
      this.at[r] = (r << this.widthBits) + (h & this.mask);
    }
  }
}
