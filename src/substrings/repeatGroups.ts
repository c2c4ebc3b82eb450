/**
 * One round of the search: the windows whose hash key falls in [lo, hi),
 * sorted by (key, lane B) with positions in order within equal hashes, then
 * each run of equal hashes split into classes of byte-equal windows (every
 * member compared with the run's first, byte for byte; a run that is not all
 * equal is sorted by its bytes). A class of two or more is a repeated window:
 * its members are marked (all, or all but the first in input order).
 *
 * Why this is exact: a window's key depends on its bytes only, so equal
 * windows fall in the same round and the same run; the classes are decided by
 * comparing bytes; and every window of the corpus is in exactly one round
 * (the rounds cover the key space). So the marked windows are exactly those a
 * suffix array finds with a longest common prefix of at least `length` bytes.
 */
import type { CutMode } from '../options.js';
import type { CorpusText } from './corpusText.js';
import { forEachWindow } from './windowHash.js';
import { collectWindowsWasm, windowKernelAvailable, type WindowSink } from './windowKernel.js';
import { grown } from '../typedArrays.js';

export interface RoundEntries {
  keys: Uint32Array;
  lanes: Uint32Array;
  positions: Uint32Array;
  count: number;
}

export interface RoundStats {
  /** Windows in the round. */
  windows: number;
  /** Classes of two or more byte-equal windows. */
  groups: number;
  /** Windows in those classes. */
  repeatedWindows: number;
  /** Runs of equal hashes whose windows were not all equal (hash collisions, resolved by their bytes). */
  collisions: number;
}

/**
 * The windows of documents [firstDocument, endDocument) whose key is in [lo, hi), in position order:
 * by the WebAssembly kernel, or by forEachWindow where it cannot load (and in the tests, as its reference).
 */
export function collectRound(
  corpus: CorpusText,
  length: number,
  lo: number,
  hi: number,
  firstDocument = 0,
  endDocument = corpus.starts.length - 1,
  useKernel = windowKernelAvailable(),
  expected = 1 << 16,
): RoundEntries {
  const entries = new GrowingEntries(expected);
  if (useKernel) collectWindowsWasm(corpus, length, lo, hi, firstDocument, endDocument, entries);
  else {
    forEachWindow(corpus, length, firstDocument, endDocument, (key, lane, position) => {
      if (key >= lo && key < hi) entries.push(key, lane, position);
    });
  }
  return entries.finish();
}

/**
 * Sized for the round's expected windows (a slice of the key space gets its share, give or take), grown past it if need
 * be.
 */
class GrowingEntries implements WindowSink {
  private keys: Uint32Array;
  private lanes: Uint32Array;
  private positions: Uint32Array;
  private count = 0;

  constructor(capacity: number) {
    this.keys = new Uint32Array(capacity);
    this.lanes = new Uint32Array(capacity);
    this.positions = new Uint32Array(capacity);
  }

  push(key: number, lane: number, position: number): void {
    if (this.count === this.keys.length) this.reserve(this.count + 1);
    this.keys[this.count] = key;
    this.lanes[this.count] = lane;
    this.positions[this.count++] = position;
  }

  add(triples: Uint32Array, count: number): void {
    this.reserve(this.count + count);
    const { keys, lanes, positions } = this;
    let n = this.count;
    for (let i = 0; i < count * 3; i += 3, n++) {
      keys[n] = triples[i];
      lanes[n] = triples[i + 1];
      positions[n] = triples[i + 2];
    }
    this.count = n;
  }

  private reserve(needed: number): void {
    if (needed <= this.keys.length) return;
    const capacity = Math.max(needed, Math.ceil(this.keys.length * 1.25));
    this.keys = grown(this.keys, capacity);
    this.lanes = grown(this.lanes, capacity);
    this.positions = grown(this.positions, capacity);
  }

  finish(): RoundEntries {
    return { keys: this.keys, lanes: this.lanes, positions: this.positions, count: this.count };
  }
}

/**
 * Sorts the entries by key (stable LSD radix, 2 × 16 bits, between the entries and one spare set), then by lane within
 * equal keys (stable).
 */
export function sortRound(entries: RoundEntries): RoundEntries {
  const { count } = entries;
  const spare: RoundEntries = {
    keys: new Uint32Array(count),
    lanes: new Uint32Array(count),
    positions: new Uint32Array(count),
    count,
  };
  radixPass(entries, spare, 0);
  radixPass(spare, entries, 16);
  const { keys, lanes, positions } = entries;
  for (let start = 0; start < count; ) {
    let end = start + 1;
    while (end < count && keys[end] === keys[start]) end++;
    if (end - start > 1) sortLanes(lanes, positions, start, end);
    start = end;
  }
  return entries;
}

function radixPass(source: RoundEntries, target: RoundEntries, shift: number): void {
  const { count } = source;
  const counts = new Uint32Array(65537);
  for (let i = 0; i < count; i++) counts[((source.keys[i] >>> shift) & 0xffff) + 1]++;
  for (let b = 1; b <= 65536; b++) counts[b] += counts[b - 1];
  for (let i = 0; i < count; i++) {
    const at = counts[(source.keys[i] >>> shift) & 0xffff]++;
    target.keys[at] = source.keys[i];
    target.lanes[at] = source.lanes[i];
    target.positions[at] = source.positions[i];
  }
}

/**
 * Stable insertion sort of [start, end) by lane (runs of one key are short but for repeated windows, whose lanes are
 * equal).
 */
function sortLanes(lanes: Uint32Array, positions: Uint32Array, start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const lane = lanes[i];
    const position = positions[i];
    let j = i - 1;
    while (j >= start && lanes[j] > lane) {
      lanes[j + 1] = lanes[j];
      positions[j + 1] = positions[j];
      j--;
    }
    lanes[j + 1] = lane;
    positions[j + 1] = position;
  }
}

/**
 * Marks the repeated windows of a sorted round in `marks` (a bit per corpus byte). Each worker
 * marks its own array (plain writes); searchRepeats ORs them once every round is done.
 */
export function markRound(
  corpus: CorpusText,
  length: number,
  sorted: RoundEntries,
  marks: Int32Array,
  cut: CutMode,
): RoundStats {
  const { keys, lanes, positions, count } = sorted;
  const stats: RoundStats = { windows: count, groups: 0, repeatedWindows: 0, collisions: 0 };
  const view = new DataView(corpus.bytes.buffer, corpus.bytes.byteOffset, corpus.bytes.byteLength);
  for (let start = 0; start < count; ) {
    let end = start + 1;
    while (end < count && keys[end] === keys[start] && lanes[end] === lanes[start]) end++;
    if (end - start > 1) {
      const first = positions[start];
      let allEqual = true;
      for (let i = start + 1; i < end && allEqual; i++) allEqual = equalWindows(view, first, positions[i], length);
      if (allEqual) markClass(positions, start, end, marks, cut, stats);
      else splitCollision(corpus.bytes, length, positions.slice(start, end), marks, cut, stats);
    }
    start = end;
  }
  return stats;
}

/**
 * A run of equal hashes holding different windows: sorted by bytes, then position, each class of equal windows
 * contiguous with its first member first.
 */
function splitCollision(
  bytes: Uint8Array,
  length: number,
  members: Uint32Array,
  marks: Int32Array,
  cut: CutMode,
  stats: RoundStats,
): void {
  stats.collisions++;
  const sorted = Uint32Array.from(Array.from(members).sort((p, q) => compareWindows(bytes, p, q, length) || p - q));
  for (let start = 0; start < sorted.length; ) {
    let end = start + 1;
    while (end < sorted.length && compareWindows(bytes, sorted[start], sorted[end], length) === 0) end++;
    if (end - start > 1) markClass(sorted, start, end, marks, cut, stats);
    start = end;
  }
}

/** A class of byte-equal windows, members[start, end) in position order: all marked, or all but the first. */
function markClass(
  members: Uint32Array,
  start: number,
  end: number,
  marks: Int32Array,
  cut: CutMode,
  stats: RoundStats,
): void {
  stats.groups++;
  stats.repeatedWindows += end - start;
  for (let i = cut === 'all' ? start : start + 1; i < end; i++) {
    const p = members[i];
    marks[p >>> 5] |= 1 << (p & 31);
  }
}

/** Whether the windows at p and q are equal, four bytes at a time (unaligned reads). */
function equalWindows(view: DataView, p: number, q: number, length: number): boolean {
  let i = 0;
  for (; i + 4 <= length; i += 4) if (view.getInt32(p + i, true) !== view.getInt32(q + i, true)) return false;
  for (; i < length; i++) if (view.getUint8(p + i) !== view.getUint8(q + i)) return false;
  return true;
}

export function compareWindows(bytes: Uint8Array, p: number, q: number, length: number): number {
  for (let i = 0; i < length; i++) {
    const d = bytes[p + i] - bytes[q + i];
    if (d !== 0) return d;
  }
  return 0;
}
