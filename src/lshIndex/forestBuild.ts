/**
 * What an LSH Forest (forest.ts) holds, built from a segment's signatures:
 * the rows' slot fingerprints and set sizes, each tree's rows sorted by
 * (size partition, prefix), and the directory over them (prefixDirectory.ts).
 * Its typed arrays lie on SharedArrayBuffers where the platform has them, so
 * that one thread builds a forest and the server's other query threads read
 * the same memory (queryPool.ts). Browser-safe.
 *
 * Issue 39: at 1 M documents the sort read each row's 256 bytes of
 * fingerprints at random, four passes a tree (two thirds of a 45 s build);
 * a tree's prefix is copied out once, by row, and the passes read that.
 */
import { EMPTY_SLOT_WORD } from '../signatures/backend.js';
import type { IndexParameters } from './options.js';
import { directoryLength, fillDirectory, prefixKey } from './prefixDirectory.js';
import { rowWidthOf, type IndexSegment } from './segment.js';
import { BITMAP_WORDS, fillBitmaps } from './shingleBitmaps.js';
import { forestMemory } from './sketchKernel.js';

export interface ForestShape {
  readonly trees: number;
  readonly depth: number;
}

/** A forest's data: plain values and typed arrays, which postMessage shares (SharedArrayBuffer) or copies. */
export interface ForestData {
  /** The segment's rows (removed ones included) when it was built. */
  readonly count: number;
  /** Rows fingerprinted: row r's at fingerprints[r·slots …]. */
  readonly fingerprints: Uint16Array;
  readonly sizes: Float64Array;
  /** Per tree, the indexed (non-empty) rows sorted by (partition, prefix): tree t at [t·banded, (t+1)·banded). */
  readonly sorted: Uint32Array;
  /** Beside `sorted`, each position's row's prefixKey (prefixDirectory.ts): a search's probe reads it, not the row. */
  readonly keys: Uint16Array;
  /** Partition i holds positions [starts[i], starts[i+1]) of every tree; its sizes reach up to largest[i]. */
  readonly starts: readonly number[];
  readonly largest: readonly number[];
  readonly banded: number;
  /** Where each first-fingerprint bucket begins, by tree and partition (prefixDirectory.ts). */
  readonly directory: Uint32Array;
  /** Each row's fingerprints' low 8 bits, four to a word (sketchOf): row r's at sketch[r·sketchWords(slots) …]. */
  readonly sketch: Uint32Array;
  /** The memory `sketch` and `fingerprints` lie in where the kernel reads them (sketchKernel.ts); else undefined. */
  readonly sketchMemory?: WebAssembly.Memory;
  /** Each row's shingle bitmap (shingleBitmaps.ts) where the segment stores sets: row r's at bitmaps[r·BITMAP_WORDS …]. */
  readonly bitmaps?: Uint32Array;
}

/** A zeroed typed array's memory: shared between threads where the platform allows it. */
export const sharedBytes = (bytes: number): ArrayBufferLike =>
  typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);

/** 16 bits of a slot (lo, hi): a multiplicative hash, so that nearby values spread. */
const fingerprint = (lo: number, hi: number): number => Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 16;

/** The fingerprints of the forest's slots of row words[at …], into out (trees·depth of them). */
export function fingerprintsOf(p: IndexParameters, words: Uint32Array, at: number, out: Uint16Array): void {
  for (let s = 0; s < out.length; s++)
    out[s] = p.slotBits === 64 ? fingerprint(words[at + 2 * s], words[at + 2 * s + 1]) : fingerprint(words[at + s], 0);
}

/** Words of a row's sketch: a byte a slot. */
export const sketchWords = (slots: number): number => Math.ceil(slots / 4);

/**
 * The low 8 bits of fingerprints[at …] (`slots` of them), four to a word, into out[to …]; padding bytes are 0.
 * Slots whose fingerprints agree agree here too, so the bytes that agree bound the agreement from above, and
 * only 1/256 of the others agree (issue 39: 128 bytes a row to read, not 256, for each of the ~30,000 rows a descent
 * to two slots meets at 1 M).
 */
export function sketchOf(fingerprints: Uint16Array, at: number, slots: number, out: Uint32Array, to: number): void {
  for (let w = 0; w < sketchWords(slots); w++) {
    let word = 0;
    for (let j = 0; j < 4 && 4 * w + j < slots; j++) word |= (fingerprints[at + 4 * w + j] & 255) << (8 * j);
    out[to + w] = word >>> 0;
  }
}

/**
 * The slots whose sketch bytes agree between row `row` of `sketch` and the query's sketch `q` (as many words a row):
 * bytes that differ are counted in each word's top byte, and padding bytes (0 in both) never differ.
 */
export function sketchBound(sketch: Uint32Array, row: number, q: Uint32Array, slots: number): number {
  let differ = 0;
  for (let w = 0, at = row * q.length; w < q.length; w++) {
    let x = sketch[at + w] ^ q[w];
    x |= x >>> 4;
    x |= x >>> 2;
    x |= x >>> 1;
    differ += Math.imul(x & 0x01010101, 0x01010101) >>> 24;
  }
  return slots - differ;
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

/** Fingerprints and sizes of every row; the indexed (non-empty) rows. */
function fingerprintRows(
  segment: IndexSegment,
  parameters: IndexParameters,
  slots: number,
  fingerprints: Uint16Array,
): { sizes: Float64Array; indexed: number[] } {
  const { count } = segment;
  const sizes = new Float64Array(sharedBytes(8 * count));
  const row = new Uint32Array(rowWidthOf(parameters));
  const indexed: number[] = [];
  const bySets = segment.hasSets && segment.setSize !== undefined;
  for (let r = 0; r < count; r++) {
    segment.readRow(r, row, 0);
    if (row.every((w) => w === EMPTY_SLOT_WORD)) continue; // no tokens: never a candidate, as in the band tables
    fingerprintsOf(parameters, row, 0, fingerprints.subarray(r * slots, (r + 1) * slots));
    sizes[r] = bySets
      ? segment.setSize!(r)
      : parameters.scheme === 'classic' && parameters.slotBits === 64
        ? estimatedSetSize(row, 0, parameters.k)
        : 0;
    indexed.push(r);
  }
  return { sizes, indexed };
}

/** The forest of a segment. */
export function buildForest(segment: IndexSegment, parameters: IndexParameters, shape: ForestShape): ForestData {
  const slots = shape.trees * shape.depth;
  const words = sketchWords(slots);
  const held = forestMemory(slots, segment.count);
  const fingerprints = held?.fingerprints ?? new Uint16Array(sharedBytes(2 * segment.count * slots));
  const sketch = held?.sketch ?? new Uint32Array(sharedBytes(4 * words * segment.count));
  const { sizes, indexed } = fingerprintRows(segment, parameters, slots, fingerprints);
  const banded = indexed.length;
  const order = sortByPartition(
    indexed,
    indexed.map((r) => partitionOf(sizes[r])),
  );
  const starts = [0];
  const largest: number[] = [];
  for (let i = 0; i < order.length; i++) {
    const part = partitionOf(sizes[order[i]]);
    if (i > 0 && part !== partitionOf(sizes[order[i - 1]])) starts.push(i);
    const at = starts.length - 1;
    largest[at] = Math.max(largest[at] ?? 0, sizes[order[i]]);
  }
  if (order.length > 0) starts.push(order.length);
  const partOfRow = new Uint8Array(segment.count);
  for (let p = 0; p + 1 < starts.length; p++) for (let i = starts[p]; i < starts[p + 1]; i++) partOfRow[order[i]] = p;
  const sorted = new Uint32Array(sharedBytes(4 * shape.trees * banded));
  const keys = new Uint16Array(sharedBytes(2 * shape.trees * banded));
  const directory = new Uint32Array(sharedBytes(4 * directoryLength(shape.trees, largest.length)));
  const prefix = new Uint16Array(shape.depth * segment.count);
  const trees: TreeSort = { fingerprints, slots, shape, starts, partOfRow, prefix, count: segment.count };
  for (let t = 0; t < shape.trees; t++) {
    const out = sorted.subarray(t * banded, (t + 1) * banded);
    sortTree(trees, t, order, out);
    fillDirectory(directory, t, starts, (position) => prefix[out[position]]);
    const second = shape.depth > 1 ? prefix.subarray(segment.count) : undefined;
    for (let i = 0; i < banded; i++) keys[t * banded + i] = prefixKey(prefix[out[i]], second?.[out[i]] ?? 0);
  }
  for (const r of indexed) sketchOf(fingerprints, r * slots, slots, sketch, r * words);
  const sketchMemory = held?.memory;
  // Where exact scores are Jaccard's of the stored sets (a simhash index measures the angle).
  const bitmaps =
    segment.hasSets && parameters.scheme !== 'simhash'
      ? new Uint32Array(sharedBytes(4 * BITMAP_WORDS * segment.count))
      : undefined;
  // Read where the segment stores them (written with it), else derived from its sets (an index written before).
  if (bitmaps !== undefined && segment.readBitmaps?.(bitmaps) !== true) fillBitmaps(segment, bitmaps);
  return {
    count: segment.count,
    fingerprints,
    sizes,
    sorted,
    keys,
    starts,
    largest,
    banded,
    directory,
    sketch,
    sketchMemory,
    bitmaps,
  };
}

/** What sorting a tree reads: the forest's fingerprints, partitions, and a scratch for the tree's prefix. */
interface TreeSort {
  readonly fingerprints: Uint16Array;
  readonly slots: number;
  readonly shape: ForestShape;
  readonly starts: readonly number[];
  readonly partOfRow: Uint8Array;
  /** Slot j of the tree's prefix of row r at prefix[j·count + r]. */
  readonly prefix: Uint16Array;
  readonly count: number;
}

/**
 * Tree t into `out`: within each partition, rows by their fingerprints of slots [t·depth, (t+1)·depth), LSD radix
 * (stable, so rows of one prefix stay in partition order). Leaves the tree's prefix in `f.prefix`.
 */
function sortTree(f: TreeSort, t: number, byPartition: readonly number[], out: Uint32Array): void {
  const { depth } = f.shape;
  const { count, prefix, fingerprints, slots } = f;
  for (let r = 0, at = t * depth; r < count; r++, at += slots)
    for (let j = 0; j < depth; j++) prefix[j * count + r] = fingerprints[at + j];
  let rows = Uint32Array.from(byPartition);
  let next = new Uint32Array(rows.length);
  const counts = new Uint32Array(65537);
  for (let j = depth - 1; j >= 0; j--) {
    const column = prefix.subarray(j * count, (j + 1) * count);
    counts.fill(0);
    for (let i = 0; i < rows.length; i++) counts[column[rows[i]] + 1]++;
    for (let d = 1; d <= 65536; d++) counts[d] += counts[d - 1];
    for (let i = 0; i < rows.length; i++) next[counts[column[rows[i]]]++] = rows[i];
    [rows, next] = [next, rows];
  }
  // A stable pass by partition last: partition first, prefix order within it.
  const cursor = f.starts.slice(0, -1);
  for (let i = 0; i < rows.length; i++) out[cursor[f.partOfRow[rows[i]]]++] = rows[i];
}

/** Rows stably ordered by partition (counting sort over the few partitions). */
function sortByPartition(rows: readonly number[], parts: readonly number[]): number[] {
  const buckets: number[][] = [];
  rows.forEach((r, i) => {
    buckets[parts[i]] ??= [];
    buckets[parts[i]].push(r);
  });
  return buckets.flatMap((b) => b ?? []);
}
