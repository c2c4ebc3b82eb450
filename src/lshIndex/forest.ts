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
 * (trees·depth ≤ 128) plus 4 bytes per tree, 384 bytes per document at the
 * default k = 128, plus 8 for its set size. The fingerprints also score
 * candidates without reading their rows (a false slot agreement 2^−16).
 */
import { EMPTY_SLOT_WORD } from '../signatures/backend.js';
import type { IndexParameters } from './options.js';
import { ShinglePostings } from './postings.js';
import { bucketBounds, buildDirectory } from './prefixDirectory.js';
import { rowWidthOf, type IndexSegment } from './segment.js';

/** Slots per tree (the longest prefix) and the most trees. */
const MAX_DEPTH = 4;
const MAX_TREES = 32;

export interface ForestShape {
  readonly trees: number;
  readonly depth: number;
}

/** 32 trees of 4 slots for k ≥ 128; fewer trees for smaller k. */
export function forestShape(k: number): ForestShape {
  const depth = Math.min(MAX_DEPTH, k);
  return { trees: Math.min(MAX_TREES, Math.floor(k / depth)), depth };
}

/** 16 bits of a slot (lo, hi): a multiplicative hash, so that nearby values spread. */
const fingerprint = (lo: number, hi: number): number => Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 16;

/** The fingerprints of the forest's slots of row words[at …], into out (trees·depth of them). */
export function fingerprintsOf(p: IndexParameters, words: Uint32Array, at: number, out: Uint16Array): void {
  for (let s = 0; s < out.length; s++)
    out[s] = p.slotBits === 64 ? fingerprint(words[at + 2 * s], words[at + 2 * s + 1]) : fingerprint(words[at + s], 0);
}

/**
 * The set size from a classic 64-bit signature: each slot is the least of the
 * set's |X| hash values, uniform below P = 2^61 − 1, so −ln(1 − slot/P) is
 * exponential with rate |X| and (k − 1)/Σ is unbiased (relative error ≈ 1/√k).
 */
export function estimatedSetSize(words: Uint32Array, at: number, k: number): number {
  let sum = 0;
  for (let i = 0; i < k; i++)
    sum -= Math.log1p(-((words[at + 2 * i + 1] * 2 ** 32 + words[at + 2 * i]) / (2 ** 61 - 1)));
  return sum > 0 ? (k - 1) / sum : 0;
}

/** The size partition of a set of `size` shingles: ⌊log2 size⌋. */
const partitionOf = (size: number): number => (size < 1 ? 0 : Math.floor(Math.log2(size)));

export class PrefixForest {
  /** Rows fingerprinted: row r's at fingerprints[r·slots …]. */
  readonly fingerprints: Uint16Array;
  readonly sizes: Float64Array;
  /** Per tree, the indexed (non-empty) rows sorted by (partition, prefix): tree t at [t·banded, (t+1)·banded). */
  readonly sorted: Uint32Array;
  /** Partition i holds positions [starts[i], starts[i+1]) of every tree; its sizes reach up to largest[i]. */
  readonly starts: number[] = [0];
  readonly largest: number[] = [];
  readonly banded: number;
  readonly slots: number;
  private readonly seen: Uint32Array;
  /** The fingerprints two to a word (even slots only), and the last query's so. */
  private readonly pairs?: Uint32Array;
  private queryPairs: { source?: Uint16Array; pairs: Uint32Array } = { pairs: new Uint32Array(0) };
  private readonly partOfRow: Uint8Array;
  /** Where each first-fingerprint bucket begins, by tree and partition (prefixDirectory.ts). */
  private readonly directory: Uint32Array;
  private stamp = 0;

  constructor(
    /** The segment it was built from (a later state's view of it may flag more rows removed). */
    readonly segment: IndexSegment,
    parameters: IndexParameters,
    readonly shape: ForestShape,
  ) {
    this.slots = shape.trees * shape.depth;
    const { count } = segment;
    const width = rowWidthOf(parameters);
    this.fingerprints = new Uint16Array(count * this.slots);
    this.sizes = new Float64Array(count);
    const row = new Uint32Array(width);
    const indexed: number[] = [];
    const bySets = segment.hasSets && segment.setSize !== undefined;
    for (let r = 0; r < count; r++) {
      segment.readRow(r, row, 0);
      if (row.every((w) => w === EMPTY_SLOT_WORD)) continue; // no tokens: never a candidate, as in the band tables
      fingerprintsOf(parameters, row, 0, this.fingerprints.subarray(r * this.slots, (r + 1) * this.slots));
      this.sizes[r] = bySets
        ? segment.setSize!(r)
        : parameters.scheme === 'classic' && parameters.slotBits === 64
          ? estimatedSetSize(row, 0, parameters.k)
          : 0;
      indexed.push(r);
    }
    if (this.slots % 2 === 0) this.pairs = new Uint32Array(this.fingerprints.buffer, 0, this.fingerprints.length >>> 1);
    this.banded = indexed.length;
    this.seen = new Uint32Array(count);
    const parts = indexed.map((r) => partitionOf(this.sizes[r]));
    const order = sortByPartition(indexed, parts);
    for (let i = 0; i < order.length; i++) {
      const part = partitionOf(this.sizes[order[i]]);
      if (i > 0 && part !== partitionOf(this.sizes[order[i - 1]])) this.starts.push(i);
      const at = this.starts.length - 1;
      this.largest[at] = Math.max(this.largest[at] ?? 0, this.sizes[order[i]]);
    }
    if (order.length > 0) this.starts.push(order.length);
    this.partOfRow = new Uint8Array(count);
    for (let p = 0; p < this.partitions; p++)
      for (let i = this.starts[p]; i < this.starts[p + 1]; i++) this.partOfRow[order[i]] = p;
    this.sorted = new Uint32Array(shape.trees * this.banded);
    for (let t = 0; t < shape.trees; t++) this.sortTree(t, order);
    this.directory = buildDirectory(this);
  }

  get partitions(): number {
    return this.largest.length;
  }

  /** Tree t: within each partition, rows by their fingerprints of slots [t·depth, (t+1)·depth), LSD radix. */
  private sortTree(t: number, byPartition: readonly number[]): void {
    const { depth } = this.shape;
    let rows = Uint32Array.from(byPartition);
    let next = new Uint32Array(rows.length);
    const counts = new Uint32Array(65537);
    for (let j = depth - 1; j >= 0; j--) {
      const slot = t * depth + j;
      counts.fill(0);
      for (const r of rows) counts[this.fingerprints[r * this.slots + slot] + 1]++;
      for (let d = 1; d <= 65536; d++) counts[d] += counts[d - 1];
      for (const r of rows) next[counts[this.fingerprints[r * this.slots + slot]]++] = r;
      [rows, next] = [next, rows];
    }
    // A stable pass by partition last: partition first, prefix order within it.
    const out = this.sorted.subarray(t * this.banded, (t + 1) * this.banded);
    const cursor = this.starts.slice(0, -1);
    for (const r of rows) out[cursor[this.partOfRow[r]]++] = r;
  }

  /**
   * Positions [lo, hi) of tree t within partition `part` whose first r ≥ 1 fingerprints are the query's: in its first
   * fingerprint's bucket (prefixDirectory.ts), a binary search for the first, a galloping one for the end.
   */
  range(t: number, part: number, query: Uint16Array, r: number): [number, number] {
    const base = t * this.banded;
    const [from, to] = bucketBounds(this.directory, this.partitions, t, part, query[t * this.shape.depth]);
    let [lo, hi] = [from, to];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareAt(base + mid, t, query, r) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo === to || this.compareAt(base + lo, t, query, r) !== 0) return [lo, lo];
    // Positions [lo, last] agree; the end is past last and at most last + step.
    let last = lo;
    let step = 1;
    while (last + step < to && this.compareAt(base + last + step, t, query, r) === 0) {
      last += step;
      step *= 2;
    }
    let end = last + 1;
    hi = Math.min(last + step, to);
    while (end < hi) {
      const mid = (end + hi) >>> 1;
      if (this.compareAt(base + mid, t, query, r) === 0) end = mid + 1;
      else hi = mid;
    }
    return [lo, end];
  }

  /** The row at sorted[position] against the query, by tree t's first r fingerprints: < 0, 0 or > 0. */
  private compareAt(position: number, t: number, query: Uint16Array, r: number): number {
    const depth = this.shape.depth;
    const at = this.sorted[position] * this.slots + t * depth;
    for (let j = 0; j < r; j++) {
      const d = this.fingerprints[at + j] - query[t * depth + j];
      if (d !== 0) return d;
    }
    return 0;
  }

  /** Starts a query: every row counts as unseen again. */
  beginQuery(): void {
    this.queryPairs = { pairs: this.queryPairs.pairs }; // a caller may refill the same fingerprints for its next query
    if (++this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
  }

  /**
   * Live rows (by `segment`, this state's view) of tree t's positions [lo, hi) not seen yet in the query: marked,
   * appended.
   */
  collect(segment: IndexSegment, t: number, lo: number, hi: number, out: number[]): void {
    const base = t * this.banded;
    for (let i = lo; i < hi; i++) {
      const row = this.sorted[base + i];
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
    for (let s = 0; s < this.slots; s++) if (this.fingerprints[at + s] === query[s]) equal++;
    return equal / this.slots;
  }
}

/** A query's fingerprints two to a 32-bit word, as the forest's pairs view lays them out (an aligned copy). */
const pairsOf = (query: Uint16Array): Uint32Array => new Uint32Array(Uint16Array.from(query).buffer);

/** Rows stably ordered by partition (counting sort over the few partitions). */
function sortByPartition(rows: readonly number[], parts: readonly number[]): number[] {
  const buckets: number[][] = [];
  rows.forEach((r, i) => {
    buckets[parts[i]] ??= [];
    buckets[parts[i]].push(r);
  });
  return buckets.flatMap((b) => b ?? []);
}

/**
 * Forests (and sampled postings, postings.ts) of an index's segments, built
 * on the first top-K or containment query that needs each and kept while the
 * segment is in the index (by name: segments are immutable, a removal only
 * flags rows, read at query time).
 */
export class ForestCache {
  private readonly forests = new Map<string, PrefixForest>();
  private readonly postings = new Map<string, ShinglePostings>();

  constructor(private readonly parameters: IndexParameters) {}

  /** The segment's sampled shingle postings; undefined where it stores no sets. */
  postingsOf(segment: IndexSegment): ShinglePostings | undefined {
    if (!segment.hasSets) return undefined;
    let found = this.postings.get(segment.name);
    if (found === undefined || found.segment.count !== segment.count) {
      found = new ShinglePostings(segment);
      this.postings.set(segment.name, found);
    }
    return found;
  }

  forestsOf(segments: readonly IndexSegment[]): PrefixForest[] {
    const names = new Set(segments.map((s) => s.name));
    for (const name of this.forests.keys()) if (!names.has(name)) this.forests.delete(name);
    for (const name of this.postings.keys()) if (!names.has(name)) this.postings.delete(name);
    return segments.map((segment) => {
      let forest = this.forests.get(segment.name);
      if (forest === undefined || forest.segment.count !== segment.count) {
        forest = new PrefixForest(segment, this.parameters, forestShape(this.parameters.k));
        this.forests.set(segment.name, forest);
      }
      return forest;
    });
  }
}
