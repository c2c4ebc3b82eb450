/**
 * An LSH Forest over one segment (Bawa et al. 2005; datasketch's
 * MinHashLSHForest): `trees` prefix trees of `depth` slots each, every tree a
 * sorted array of the segment's rows by the 16-bit fingerprints of its slots,
 * so the rows sharing a query's first r slots of a tree are one range found
 * by binary search, for any r ≤ depth. Rows are also partitioned by set size
 * (powers of two, as LSH Ensemble's partitions, Zhu et al. 2016): each tree
 * is sorted by (partition, prefix), so a containment query picks a depth per
 * partition. Browser-safe.
 *
 * Derived in memory from the segment's signatures (nothing new on disk, so
 * the index's crash safety is untouched): 2 bytes per slot fingerprinted
 * (trees·depth ≤ 128), 1 per slot for its sketch (forestBuild.ts) plus 6
 * bytes per tree (its sorted row and that row's prefix key:
 * prefixDirectory.ts), 576 bytes per document at the default k = 128, plus 8 for
 * its set size, and 128 for its shingle bitmap where sets are stored
 * (shingleBitmaps.ts). The fingerprints also score candidates without reading their
 * rows (a false slot agreement 2^−16).
 */
import { buildForest, sketchBound, sketchOf, sketchWords, type ForestData, type ForestShape } from './forestBuild.js';
import type { IndexParameters } from './options.js';
import { bucketAt, DIRECTORY_BITS, prefixKey } from './prefixDirectory.js';
import type { RowBuffer } from './rowBuffer.js';
import type { IndexSegment } from './segment.js';
import { sketchKernel, type SketchKernel } from './sketchKernel.js';

export { estimatedSetSize, fingerprintsOf, type ForestData, type ForestShape } from './forestBuild.js';

/** Slots per tree (the longest prefix) and the most trees. */
const MAX_DEPTH = 4;
const MAX_TREES = 32;

/** 32 trees of 4 slots for k ≥ 128; fewer trees for smaller k. */
export function forestShape(k: number): ForestShape {
  const depth = Math.min(MAX_DEPTH, k);
  return { trees: Math.min(MAX_TREES, Math.floor(k / depth)), depth };
}

export class PrefixForest {
  readonly slots: number;
  /** Its rows' fingerprints, sizes, sorted trees and directory (shared with other threads that adopt it: forestCache.ts). */
  readonly data: ForestData;
  /** data's sorted trees, fingerprints and rows banded, held here for the search's inner loops. */
  private readonly rows: Uint32Array;
  private readonly keys: Uint16Array;
  private readonly prints: Uint16Array;
  private readonly banded: number;
  private readonly seen: Uint32Array;
  /** The fingerprints two to a word (even slots only), and the last query's so. */
  private readonly pairs?: Uint32Array;
  private queryPairs: { source?: Uint16Array; pairs: Uint32Array } = { pairs: new Uint32Array(0) };
  /** The last query's sketch (forestBuild.ts: sketchOf). */
  private querySketch: { source?: Uint16Array; sketch: Uint32Array };
  /** Where each first-fingerprint bucket begins, by tree and partition (prefixDirectory.ts). */
  private readonly directory: Uint32Array;
  /** The sketch bound's WebAssembly kernel over data.sketchMemory, this thread's instance; else undefined. */
  private readonly kernel?: SketchKernel;
  private stamp = 0;
  /** The prefixKey of the tree range() searches, and the positions it found. */
  private queryKey = 0;
  private lo = 0;
  private hi = 0;
  /** The ranges this query found (range): [lo, hi, r] by (tree, partition); r = 0 where none yet. */
  private readonly found: { query?: Uint16Array; stamp: number; at: Int32Array };

  constructor(
    /** The segment it was built from (a later state's view of it may flag more rows removed). */
    readonly segment: IndexSegment,
    parameters: IndexParameters,
    readonly shape: ForestShape,
    /** Built already (by another thread) from the same segment; else built here. */
    data?: ForestData,
  ) {
    this.slots = shape.trees * shape.depth;
    this.data = data ?? buildForest(segment, parameters, shape);
    ({
      directory: this.directory,
      sorted: this.rows,
      keys: this.keys,
      fingerprints: this.prints,
      banded: this.banded,
    } = this.data);
    if (this.slots % 2 === 0)
      this.pairs = new Uint32Array(
        this.data.fingerprints.buffer,
        this.data.fingerprints.byteOffset,
        this.data.fingerprints.length >>> 1,
      );
    this.seen = new Uint32Array(segment.count);
    this.found = { stamp: -1, at: new Int32Array(3 * shape.trees * this.data.largest.length) };
    this.querySketch = { sketch: new Uint32Array(sketchWords(this.slots)) };
    this.kernel = sketchKernel(this.data.sketchMemory, this.data.count);
  }

  get partitions(): number {
    return this.data.largest.length;
  }

  /**
   * Positions [lo, hi) of tree t within partition `part` whose first r ≥ 1 fingerprints are the query's: in its first
   * fingerprint's bucket (prefixDirectory.ts), a binary search for the first, a galloping one for the end. Where this
   * query found (t, part)'s range at a longer prefix already, it is widened from there (galloping both ways): a
   * descent asks each tree at 4, 3 and 2 slots, and each search's probes are cache misses at 1 M rows (issue 39).
   */
  range(t: number, part: number, query: Uint16Array, r: number): [number, number] {
    this.search(t, part, query, r);
    return [this.lo, this.hi];
  }

  /** collect() of range(t, part, query, r), no array a search (issue 39: a sixth of a query's garbage, range's). */
  collectRange(segment: IndexSegment, t: number, part: number, query: Uint16Array, r: number, out: RowBuffer): void {
    this.search(t, part, query, r);
    this.collect(segment, t, this.lo, this.hi, out);
  }

  /** range's positions into this.lo, this.hi. */
  private search(t: number, part: number, query: Uint16Array, r: number): void {
    if (this.found.query !== query || this.found.stamp !== this.stamp) {
      this.found.at.fill(0);
      this.found.query = query;
      this.found.stamp = this.stamp;
    }
    const at = 3 * (t * this.partitions + part);
    const known = this.found.at;
    const first = t * this.shape.depth;
    const bucket = bucketAt(this.partitions, t, part, query[first]);
    const from = this.directory[bucket];
    const to = this.directory[bucket + 1];
    this.queryKey = prefixKey(query[first], this.shape.depth > 1 ? query[first + 1] : 0);
    if (known[at + 2] >= r) this.widened(t, query, r, from, to, known[at], known[at + 1]);
    else this.searched(t, query, r, from, to);
    known[at] = this.lo;
    known[at + 1] = this.hi;
    known[at + 2] = r;
  }

  /** range's search of positions [from, to) (a bucket). */
  private searched(t: number, query: Uint16Array, r: number, from: number, to: number): void {
    const base = t * this.banded;
    let lo = from;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareAt(base + mid, t, query, r) < 0) lo = mid + 1;
      else hi = mid;
    }
    this.lo = lo;
    this.hi = lo === to || this.compareAt(base + lo, t, query, r) !== 0 ? lo : this.endOf(t, query, r, lo + 1, to);
  }

  /**
   * The range at r from [lo, hi), the range at r' ≥ r (empty: where the r' prefix would go). The positions at and
   * past lo are at or past the query by r' fingerprints, so by r: the first that shares r lies at or before lo,
   * galloped to; those between it and hi share r (before the query by r', not by r), and the end is galloped to.
   */
  private widened(t: number, query: Uint16Array, r: number, from: number, to: number, lo: number, hi: number): void {
    const base = t * this.banded;
    let first = lo; // at or past the query by r (or `to`)
    let step = 1;
    while (first - step >= from && this.compareAt(base + first - step, t, query, r) >= 0) {
      first -= step;
      step *= 2;
    }
    let before = Math.max(from - 1, first - step); // before the query by r (or from − 1)
    while (before + 1 < first) {
      const mid = (before + first) >>> 1;
      if (this.compareAt(base + mid, t, query, r) >= 0) first = mid;
      else before = mid;
    }
    this.lo = first;
    this.hi =
      first === to || (first === lo && this.compareAt(base + first, t, query, r) !== 0)
        ? first
        : this.endOf(t, query, r, Math.max(hi, first + 1), to);
  }

  /** The end of the positions that share the first r fingerprints, position `next` − 1 being one: galloped to. */
  private endOf(t: number, query: Uint16Array, r: number, next: number, to: number): number {
    const base = t * this.banded;
    let last = next - 1;
    let step = 1;
    while (last + step < to && this.compareAt(base + last + step, t, query, r) === 0) {
      last += step;
      step *= 2;
    }
    let end = last + 1;
    let hi = Math.min(last + step, to);
    while (end < hi) {
      const mid = (end + hi) >>> 1;
      if (this.compareAt(base + mid, t, query, r) === 0) end = mid + 1;
      else hi = mid;
    }
    return end;
  }

  /**
   * The row at sorted[position] (in the query's first fingerprint's bucket) against the query, by tree t's first r
   * fingerprints: < 0, 0 or > 0. Decided by the position's key where it differs from the query's; the row's
   * fingerprints are read only past it.
   */
  private compareAt(position: number, t: number, query: Uint16Array, r: number): number {
    const key = this.keys[position];
    if (r === 1) return (key >>> DIRECTORY_BITS) - (this.queryKey >>> DIRECTORY_BITS);
    if (key !== this.queryKey) return key - this.queryKey;
    const depth = this.shape.depth;
    const at = this.rows[position] * this.slots + t * depth;
    for (let j = 1; j < r; j++) {
      const d = this.prints[at + j] - query[t * depth + j];
      if (d !== 0) return d;
    }
    return 0;
  }

  /** Starts a query: every row counts as unseen again. */
  beginQuery(): void {
    this.queryPairs = { pairs: this.queryPairs.pairs }; // a caller may refill the same fingerprints for its next query
    this.querySketch = { sketch: this.querySketch.sketch };
    if (++this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
  }

  /**
   * Live rows (by `segment`, this state's view) of tree t's positions [lo, hi) not seen yet in the query: marked,
   * appended.
   */
  collect(segment: IndexSegment, t: number, lo: number, hi: number, out: { push(row: number): void }): void {
    const base = t * this.banded;
    for (let i = lo; i < hi; i++) {
      const row = this.rows[base + i];
      if (this.seen[row] === this.stamp) continue;
      this.seen[row] = this.stamp;
      if (!segment.isRemoved(row)) out.push(row);
    }
  }

  /** Whether the row is met for the first time in this query (it is marked met). */
  firstMeeting(row: number): boolean {
    if (this.seen[row] === this.stamp) return false;
    this.seen[row] = this.stamp;
    return true;
  }

  /**
   * Fingerprint agreement of a row with the query: the Jaccard estimate over
   * the forest's slots. Two fingerprints a 32-bit word where the slots are
   * even (a descent at 1 M documents scores tens of thousands of rows).
   */
  agreement(row: number, query: Uint16Array): number {
    if (this.kernel !== undefined) {
      this.setSketchQuery(query);
      return this.kernel.equalPrints(row) / this.slots;
    }
    let equal = 0;
    if (this.pairs !== undefined) {
      if (this.queryPairs.source !== query) this.queryPairs = { source: query, pairs: pairsOf(query) };
      const q = this.queryPairs.pairs;
      const at = (row * this.slots) >>> 1;
      for (let s = 0; s < q.length; s++) {
        const x = this.pairs[at + s] ^ q[s];
        equal += ((x & 0xffff) === 0 ? 1 : 0) + (x >>> 16 === 0 ? 1 : 0);
      }
      return equal / this.slots;
    }
    const at = row * this.slots;
    for (let s = 0; s < this.slots; s++) if (this.prints[at + s] === query[s]) equal++;
    return equal / this.slots;
  }

  /**
   * The most slots the row's fingerprints can agree on with the query's: the slots whose sketch bytes
   * (forestBuild.ts) agree. Reads 128 bytes of the row at k = 128, not the fingerprints' 256.
   */
  sketchAgreement(row: number, query: Uint16Array): number {
    this.setSketchQuery(query);
    if (this.kernel !== undefined) return this.kernel.equalBytes(row); // 128 slots, no padding bytes
    return sketchBound(this.data.sketch, row, this.querySketch.sketch, this.slots);
  }

  /** sketchAgreement of each of `rows`, appended to `out`: by the kernel a page of rows a call where it loaded. */
  sketchAgreements(rows: ArrayLike<number>, query: Uint16Array, out: RowBuffer): void {
    this.setSketchQuery(query);
    out.reserve(rows.length);
    if (this.kernel !== undefined) this.kernel.boundsOf(rows, out.words, out.length);
    else for (let i = 0; i < rows.length; i++) out.words[out.length + i] = this.sketchAgreement(rows[i], query);
    out.length += rows.length;
  }

  private setSketchQuery(query: Uint16Array): void {
    if (this.querySketch.source === query) return;
    sketchOf(query, 0, this.slots, this.querySketch.sketch, 0);
    this.querySketch.source = query;
    this.kernel?.setQuery(query);
  }
}

/** A query's fingerprints two to a 32-bit word, as the forest's pairs view lays them out (an aligned copy). */
const pairsOf = (query: Uint16Array): Uint32Array => new Uint32Array(Uint16Array.from(query).buffer);
