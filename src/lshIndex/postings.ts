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
import { sharedBytes } from './forestBuild.js';
import type { IndexSegment } from './segment.js';
import { grown } from '../typedArrays.js';

/** 1 in 2^SAMPLE_BITS shingles is posted. */
export const SAMPLE_BITS = 2;
export const SAMPLE_RATE = 1 / 2 ** SAMPLE_BITS;
/** C·q from which the postings find a document holding C·q of the query's q shingles with probability ≥ 0.95. */
export const POSTINGS_SURE = 11;
/** The most rows a sampled shingle's posting list keeps; a shingle posted under more is skipped by queries. */
export const POSTINGS_CAP = 2048;

/** A 32-bit mix of a shingle's (lo, hi) hash: its top SAMPLE_BITS decide the sample, all 32 its posting key. */
const mix = (lo: number, hi: number): number => Math.imul(lo ^ Math.imul(hi, 0xcc9e2d51), 0x1b873593) >>> 0;

/** The posting keys of set's sampled shingles into out[0 …] (sorted, distinct); how many. */
function sampledInto(set: Uint32Array, out: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < set.length; i += 2) {
    const key = mix(set[i], set[i + 1]);
    if (key >>> (32 - SAMPLE_BITS) === 0) out[n++] = key;
  }
  out.subarray(0, n).sort();
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || out[i] !== out[i - 1]) out[distinct++] = out[i];
  return distinct;
}

/** The posting keys of a set's sampled shingles (sorted, distinct). */
export function sampledKeys(set: Uint32Array): Uint32Array {
  const out = new Uint32Array(set.length >>> 1);
  return out.slice(0, sampledInto(set, out));
}

/** A segment's postings as data (its arrays shared between threads where the platform allows: forestCache.ts). */
export interface PostingsData {
  /** The segment's rows when they were built. */
  readonly count: number;
  /** Keys in ascending order, each with its row. */
  readonly keys: Uint32Array;
  readonly rows: Uint32Array;
  /** The keys posted under more than the cap's rows (ascending): their lists are not kept. */
  readonly common: Uint32Array;
}

export class ShinglePostings {
  readonly keys: Uint32Array;
  readonly rows: Uint32Array;
  readonly common: Uint32Array;
  readonly data: PostingsData;
  private readonly hits: Uint32Array;

  constructor(
    readonly segment: IndexSegment,
    readonly cap = POSTINGS_CAP,
    /** Built already (by another thread) from the same segment; else built here. */
    data?: PostingsData,
  ) {
    this.hits = new Uint32Array(segment.count);
    this.data = data ?? buildPostings(segment, cap);
    ({ keys: this.keys, rows: this.rows, common: this.common } = this.data);
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

/** Every row's sampled keys (ascending) with their rows, the commonest keys apart (posted under more than `cap`). */
function buildPostings(segment: IndexSegment, cap: number): PostingsData {
  let keys: Uint32Array = new Uint32Array(1024);
  let rows: Uint32Array = new Uint32Array(1024);
  let total = 0;
  let scratch = new Uint32Array(1024);
  for (let r = 0; r < segment.count; r++) {
    const set = segment.readSet(r) ?? new Uint32Array(0);
    if (scratch.length < set.length >>> 1) scratch = new Uint32Array(set.length);
    const n = sampledInto(set, scratch);
    if (total + n > keys.length) {
      const size = Math.max(2 * keys.length, total + n);
      [keys, rows] = [grown(keys, size), grown(rows, size)];
    }
    keys.set(scratch.subarray(0, n), total);
    rows.fill(r, total, total + n);
    total += n;
  }
  const [sortedKeys, sortedRows] = sortByKey(keys.subarray(0, total), rows.subarray(0, total));
  return { count: segment.count, ...dropCommon(sortedKeys, sortedRows, cap) };
}

/** Keys ascending with their rows alongside: a two-pass radix sort, 16 bits a pass (stable: rows ascending per key). */
function sortByKey(keys: Uint32Array, rows: Uint32Array): [Uint32Array, Uint32Array] {
  const total = keys.length;
  let nextKeys: Uint32Array = new Uint32Array(total);
  let nextRows: Uint32Array = new Uint32Array(total);
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
  return [keys, rows];
}

/** Sorted postings without the runs of keys posted more than `cap` times (shared copies); those keys apart. */
function dropCommon(keys: Uint32Array, rows: Uint32Array, cap: number): Omit<PostingsData, 'count'> {
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
  const shared = (a: Uint32Array): Uint32Array => {
    const out = new Uint32Array(sharedBytes(4 * kept));
    out.set(a.subarray(0, kept));
    return out;
  };
  return { keys: shared(keys), rows: shared(rows), common: Uint32Array.from(common) };
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
