/**
 * A set of unordered document pairs, so a pair that shares several bands is
 * verified once. Each pair (a < b) is the exact integer a·n + b in a float64
 * open-addressing table, which needs n² < 2^53: up to 94,906,265 documents.
 */

export const MAX_PAIR_DOCUMENTS = 94_906_265;

export interface PairList {
  /** Smaller document index of each pair, pairs sorted by (a, b). */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
}

const EMPTY = -1;

export class PairSet {
  private table: Float64Array;
  private used = 0;

  constructor(readonly documents: number) {
    if (documents > MAX_PAIR_DOCUMENTS) {
      throw new RangeError(`at most ${MAX_PAIR_DOCUMENTS} documents can be paired in one run, got ${documents}`);
    }
    this.table = new Float64Array(1024).fill(EMPTY);
  }

  get size(): number {
    return this.used;
  }

  /** Adds the pair {x, y} (x ≠ y); returns false when it was already there. */
  add(x: number, y: number): boolean {
    const a = Math.min(x, y);
    const b = Math.max(x, y);
    if (a === b) throw new RangeError(`a document cannot pair with itself (${a})`);
    if ((this.used + 1) * 2 > this.table.length) this.grow();
    return this.insert(a * this.documents + b, a, b);
  }

  private insert(key: number, a: number, b: number): boolean {
    const table = this.table;
    const mask = table.length - 1;
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
    for (;;) {
      const there = table[slot];
      if (there === EMPTY) {
        table[slot] = key;
        this.used++;
        return true;
      }
      if (there === key) return false;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Float64Array(old.length * 2).fill(EMPTY);
    this.used = 0;
    const n = this.documents;
    for (const key of old) {
      if (key === EMPTY) continue;
      const a = Math.floor(key / n);
      this.insert(key, a, key - a * n);
    }
  }

  /** The pairs, sorted by (a, b): a deterministic order whatever the insertion order. */
  toSortedList(): PairList {
    return pairsOfKeys(this.sortedKeys(), this.documents);
  }

  /** The pairs' keys (a · documents + b), sorted: what banding workers send back to be merged. */
  sortedKeys(): Float64Array {
    const keys = new Float64Array(this.used);
    let i = 0;
    for (const key of this.table) if (key !== EMPTY) keys[i++] = key;
    return keys.sort();
  }
}

/** Sorted pair keys (a · documents + b) as a PairList. */
export function pairsOfKeys(keys: Float64Array, documents: number): PairList {
  const a = new Uint32Array(keys.length);
  const b = new Uint32Array(keys.length);
  for (let j = 0; j < keys.length; j++) {
    a[j] = Math.floor(keys[j] / documents);
    b[j] = keys[j] - a[j] * documents;
  }
  return { a, b };
}

/** The union of sorted key lists, sorted, each key once. */
export function mergeSortedKeys(lists: readonly Float64Array[]): Float64Array {
  return lists.reduce((x, y) => {
    const out = new Float64Array(x.length + y.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < x.length && j < y.length) {
      if (x[i] < y[j]) out[n++] = x[i++];
      else if (x[i] > y[j]) out[n++] = y[j++];
      else {
        out[n++] = x[i++];
        j++;
      }
    }
    while (i < x.length) out[n++] = x[i++];
    while (j < y.length) out[n++] = y[j++];
    return out.subarray(0, n);
  }, new Float64Array(0));
}
