/**
 * Numbers for pairs of 32-bit integers (the windows of tokenRepeats.ts): the
 * first distinct pair gets 0, the next 1, and an equal pair always the number
 * it got, compared on both halves, so the numbering is exact. Open addressing
 * with each slot's pair and number side by side (one cache line a probe, the
 * table being far larger than the caches), a full 32-bit mix of the pair, and
 * the table doubled past 70 % load, so it stays the size of the distinct pairs.
 */
const EMPTY = 0; // stored number + 1

export class PairNumbers {
  private table: Int32Array;
  private mask: number;
  private limit: number;
  size = 0;

  constructor(expected = 1 << 16) {
    let capacity = 1 << 4;
    while (capacity * 0.7 < expected) capacity *= 2;
    this.table = new Int32Array(capacity * 3);
    this.mask = capacity - 1;
    this.limit = Math.floor(capacity * 0.7);
  }

  /** The pair's number: the one it got before, or the next one. */
  number(lo: number, hi: number): number {
    const table = this.table;
    for (let slot = mix(lo, hi) & this.mask; ; slot = (slot + 1) & this.mask) {
      const at = slot * 3;
      const stored = table[at + 2];
      if (stored === EMPTY) {
        table[at] = lo;
        table[at + 1] = hi;
        table[at + 2] = ++this.size;
        if (this.size > this.limit) this.grow();
        return this.size - 1;
      }
      if (table[at] === lo && table[at + 1] === hi) return stored - 1;
    }
  }

  private grow(): void {
    const old = this.table;
    const capacity = (this.mask + 1) * 2;
    this.table = new Int32Array(capacity * 3);
    this.mask = capacity - 1;
    this.limit = Math.floor(capacity * 0.7);
    for (let at = 0; at < old.length; at += 3) {
      if (old[at + 2] === EMPTY) continue;
      let slot = mix(old[at], old[at + 1]) & this.mask;
      while (this.table[slot * 3 + 2] !== EMPTY) slot = (slot + 1) & this.mask;
      for (let k = 0; k < 3; k++) this.table[slot * 3 + k] = old[at + k];
    }
  }
}

/** murmur3's finalizer over the two halves. */
function mix(lo: number, hi: number): number {
  let h = Math.imul(lo, 0x9e3779b1) ^ hi;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
