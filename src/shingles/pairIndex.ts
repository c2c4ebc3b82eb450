/**
 * An open-addressing hash index over (lo, hi) pairs stored in a Uint32Array:
 * the one hash table behind shingle-set deduplication and exact Jaccard.
 * Entries are indexes into `pairs`; the table never grows (size it up front).
 */
export class PairIndex {
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** `pairs` holds the entries' (lo, hi) words; room for up to `maxEntries` of them. */
  constructor(
    private readonly pairs: Uint32Array,
    maxEntries: number,
  ) {
    let capacity = 4;
    while (capacity < maxEntries * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(capacity).fill(-1);
  }

  /** The entry equal to (lo, hi), or −1. */
  find(lo: number, hi: number): number {
    const { slots, pairs, mask } = this;
    for (let slot = hashPair(lo, hi) & mask; ; slot = (slot + 1) & mask) {
      const j = slots[slot];
      if (j < 0 || (pairs[2 * j] === lo && pairs[2 * j + 1] === hi)) return j;
    }
  }

  /** Adds entry `i` (its pair already in `pairs`) unless an equal one is there: returns that one, else −1. */
  add(i: number): number {
    const { slots, pairs, mask } = this;
    const lo = pairs[2 * i];
    const hi = pairs[2 * i + 1];
    for (let slot = hashPair(lo, hi) & mask; ; slot = (slot + 1) & mask) {
      const j = slots[slot];
      if (j < 0) {
        slots[slot] = i;
        return -1;
      }
      if (pairs[2 * j] === lo && pairs[2 * j + 1] === hi) return j;
    }
  }
}

function hashPair(lo: number, hi: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 7;
}
