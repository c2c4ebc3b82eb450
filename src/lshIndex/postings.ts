/**
 * Sampled shingle postings of one segment, for containment queries of short
 * items in long documents, where no signature can help: a 16-shingle item in
 * a 20,000-shingle document has Jaccard 0.0008, so the documents' MinHash
 * slots almost never hold one of its shingles. Each stored set's shingles
 * with a hash in the lowest quarter are posted (a consistent sample: the
 * same shingle is sampled in every set), so a document holding m of the
 * query's shingles shares a sampled one with probability 1 − (3/4)^m — at
 * least 0.95 for m ≥ 11, i.e. C·|Q| ≥ 11. Built in memory from the stored
 * sets on the first containment query that needs it (nothing on disk):
 * 8 bytes per sampled shingle (2 bytes per stored one), and 4 bytes per row.
 *
 * The commonest shingles are capped (issue 39): a sampled shingle posted
 * under more than POSTINGS_CAP rows (boilerplate: a licence clause in tens of
 * thousands of documents) keeps no posting list, only its key. A query skips
 * such keys, and a row needs `least − skipped` hits (at least one) among the
 * rest, so no row that had `least` is lost for want of a skipped one; what is
 * lost is the rows the query shares with only through the commonest
 * shingles. A query's cost so stays within (sampled keys) × POSTINGS_CAP
 * postings read, however large the index. Browser-safe.
 */
import type { IndexSegment } from './segment.js';

/** 1 in 2^SAMPLE_BITS shingles is posted. */
export const SAMPLE_BITS = 2;
export const SAMPLE_RATE = 1 / 2 ** SAMPLE_BITS;
/** C·q from which the postings find a document holding C·q of the query's q shingles with probability ≥ 0.95. */
export const POSTINGS_SURE = 11;
/** The most rows a sampled shingle's posting list keeps; a shingle posted under more is skipped by queries. */
export const POSTINGS_CAP = 2048;

/** A 32-bit mix of a shingle's (lo, hi) hash: its top SAMPLE_BITS decide the sample, all 32 its posting key. */
const mix = (lo: number, hi: number): number => Math.imul(lo ^ Math.imul(hi, 0xcc9e2d51), 0x1b873593) >>> 0;

/** The posting keys of a set's sampled shingles (sorted, distinct). */
export function sampledKeys(set: Uint32Array): Uint32Array {
  const keys: number[] = [];
  for (let i = 0; i < set.length; i += 2) {
    const key = mix(set[i], set[i + 1]);
    if (key >>> (32 - SAMPLE_BITS) === 0) keys.push(key);
  }
  return Uint32Array.from(new Set(keys)).sort();
}

export class ShinglePostings {
  /** Keys in ascending order, each with its row. */
  readonly keys: Uint32Array;
  readonly rows: Uint32Array;
  /** The keys posted under more than `cap` rows (ascending): their lists are not kept. */
  readonly common: Uint32Array;
  private readonly hits: Uint32Array;

  constructor(
    readonly segment: IndexSegment,
    readonly cap = POSTINGS_CAP,
  ) {
    this.hits = new Uint32Array(segment.count);
    const perRow: Uint32Array[] = [];
    let total = 0;
    for (let r = 0; r < segment.count; r++) {
      const keys = sampledKeys(segment.readSet(r) ?? new Uint32Array(0));
      perRow.push(keys);
      total += keys.length;
    }
    // Sorted by key with a two-pass radix sort (16 bits a pass), rows alongside.
    let keys = new Uint32Array(total);
    let rows = new Uint32Array(total);
    let at = 0;
    perRow.forEach((k, r) => {
      keys.set(k, at);
      rows.fill(r, at, at + k.length);
      at += k.length;
    });
    let nextKeys = new Uint32Array(total);
    let nextRows = new Uint32Array(total);
    const counts = new Uint32Array(65537);
    for (const shift of [0, 16]) {
      counts.fill(0);
      for (let i = 0; i < total; i++) counts[((keys[i] >>> shift) & 0xffff) + 1]++;
      for (let d = 1; d <= 65536; d++) counts[d] += counts[d - 1];
      for (let i = 0; i < total; i++) {
        const to = counts[(keys[i] >>> shift) & 0xffff]++;
        nextKeys[to] = keys[i];
        nextRows[to] = rows[i];
      }
      [keys, nextKeys] = [nextKeys, keys];
      [rows, nextRows] = [nextRows, rows];
    }
    [this.keys, this.rows, this.common] = dropCommon(keys, rows, cap);
  }

  /** The rows posted under at least `least` of `keys` (less the common ones skipped), each once. */
  rowsSharing(keys: Uint32Array, least: number): number[] {
    return this.hitsOf(keys, least).rows;
  }

  /**
   * The rows posted under at least max(1, `least` − skipped) of `keys`, each
   * once, with how many of them each is posted under; `skipped`: the keys
   * that are common (no list kept), which a row may hold unseen. A typed
   * counter: posting lists can be long.
   */
  hitsOf(keys: Uint32Array, least: number): { rows: number[]; hits: number[]; skipped: number } {
    const touched: number[] = [];
    let skipped = 0;
    for (const key of keys) {
      if (isIn(this.common, key)) {
        skipped++;
        continue;
      }
      for (let i = firstOf(this.keys, key); i < this.keys.length && this.keys[i] === key; i++) {
        const row = this.rows[i];
        if (this.hits[row]++ === 0) touched.push(row);
      }
    }
    const need = Math.max(1, least - skipped);
    const rows = touched.filter((row) => this.hits[row] >= need);
    const hits = rows.map((row) => this.hits[row]);
    for (const row of touched) this.hits[row] = 0;
    return { rows, hits, skipped };
  }
}

/** The first position of `key` in ascending `keys` (binary search; the length where none). */
function firstOf(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const isIn = (sorted: Uint32Array, key: number): boolean => {
  const at = firstOf(sorted, key);
  return at < sorted.length && sorted[at] === key;
};

/** Sorted postings without the runs of keys posted more than `cap` times; those keys apart. */
function dropCommon(keys: Uint32Array, rows: Uint32Array, cap: number): [Uint32Array, Uint32Array, Uint32Array] {
  const common: number[] = [];
  let kept = 0;
  for (let i = 0; i < keys.length; ) {
    let end = i + 1;
    while (end < keys.length && keys[end] === keys[i]) end++;
    if (end - i > cap) common.push(keys[i]);
    else {
      keys.copyWithin(kept, i, end);
      rows.copyWithin(kept, i, end);
      kept += end - i;
    }
    i = end;
  }
  if (common.length === 0) return [keys, rows, new Uint32Array(0)];
  return [keys.slice(0, kept), rows.slice(0, kept), Uint32Array.from(common)];
}

/**
 * The fewest sampled shingles a document holding C·q of the query's q
 * shingles shares among the query's s sampled ones, short of three standard
 * deviations (hypergeometric): fewer is not a candidate. At least 1.
 */
export function leastHits(c: number, q: number, s: number): number {
  const sd = q > 1 ? Math.sqrt((s * c * (1 - c) * (q - s)) / (q - 1)) : 0;
  return Math.max(1, Math.floor(c * s - 3 * sd));
}
