/**
 * A bitmap of each stored set's shingles, in memory (issue 39): 1,024 bits a
 * row, the bit of each of its shingles set (a 10-bit hash of the shingle).
 * A query's shingle whose bit a row lacks is surely not in the row's set, so
 * the count of such shingles is a lower bound on what the row lacks of the
 * query — exact, no estimate: a bound on |Q ∩ X| from above, hence on the
 * row's containment of the query and its Jaccard. Containment and the top-K
 * rescoring rule a row out by it before reading its set (a 20–45-word excerpt
 * of common text leaves 900–3,000 rows that neither the sketch nor the
 * estimate rules out at 1 M documents: the bitmaps leave a few); the answers
 * are those the sets give, as the bound never rules out a row the set would
 * keep. In top-K it rarely tells: a family's ~1,000 rows near the K-th lie
 * within hundredths of it, where a row's bitmap (~25 % set at 300 shingles)
 * bounds its Jaccard well above; it costs 0.2–0.3 µs a rescored row. The
 * query's shingles are kept as layered bitmaps (queryBits), so a row's check
 * is a popcount of 32 words a layer.
 *
 * Written with each segment that stores sets (segmentWriter.ts: NAME.bits)
 * and read whole when its forest is built (forestBuild.ts), so the first
 * query does not read every stored set; a segment written before has none,
 * and its bitmaps are derived from its sets (fillBitmaps), read in order, a
 * block of rows a read where the segment can. 128 bytes a document (128 MB
 * at 1 M), on shared memory like the forest's arrays so the server's query
 * threads share one copy. Browser-safe.
 */
import type { IndexSegment } from './segment.js';

/** 32-bit words of a row's bitmap (1,024 bits). */
export const BITMAP_WORDS = 32;
const BIT_SHIFT = 32 - Math.log2(32 * BITMAP_WORDS);

/** The bit (0 … 1,023) of a shingle (lo, hi): a multiplicative hash of both words. */
export const bitOf = (lo: number, hi: number): number =>
  Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0xc2b2ae35) >>> BIT_SHIFT;

/** Sets the bits of set's shingles in bitmaps[at …] (BITMAP_WORDS words). */
export function setBits(set: Uint32Array, from: number, to: number, bitmaps: Uint32Array, at: number): void {
  for (let i = from; i < to; i += 2) {
    const bit = bitOf(set[i], set[i + 1]);
    bitmaps[at + (bit >>> 5)] |= 1 << (bit & 31);
  }
}

/** Rows a bulk read of contiguous sets reads at most (by words: 1 MiB a read). */
const READ_WORDS = 1 << 18;

/** Every row's bitmap of `segment` (which stores sets) into `out` (count · BITMAP_WORDS words, zeroed). */
export function fillBitmaps(segment: IndexSegment, out: Uint32Array): void {
  const { count } = segment;
  if (segment.readSetsInto === undefined || segment.setSize === undefined) {
    for (let r = 0; r < count; r++) {
      const set = segment.readSet(r);
      if (set !== undefined) setBits(set, 0, set.length, out, r * BITMAP_WORDS);
    }
    return;
  }
  let buffer = new Uint32Array(READ_WORDS);
  for (let from = 0; from < count; ) {
    // Rows [from, to) whose sets fit the buffer (one row at least, the buffer grown for it).
    let words = 2 * segment.setSize(from);
    let to = from + 1;
    while (to < count && words + 2 * segment.setSize(to) <= READ_WORDS) words += 2 * segment.setSize(to++);
    if (words > buffer.length) buffer = new Uint32Array(words);
    segment.readSetsInto(from, to, buffer.subarray(0, words));
    for (let r = from, at = 0; r < to; r++) {
      const end = at + 2 * segment.setSize(r);
      setBits(buffer, at, end, out, r * BITMAP_WORDS);
      at = end;
    }
    from = to;
  }
}

/**
 * A query's shingles as layers of bitmaps: layer l (BITMAP_WORDS words) has the bits that l + 1 or more of its
 * shingles set, so a row's unset bits, counted in every layer, count each shingle of the query it surely lacks.
 */
export function queryBits(set: Uint32Array): Uint32Array {
  const counts = new Uint16Array(32 * BITMAP_WORDS);
  let layers = 1;
  for (let i = 0; i < set.length; i += 2) layers = Math.max(layers, ++counts[bitOf(set[i], set[i + 1])]);
  const out = new Uint32Array(layers * BITMAP_WORDS);
  counts.forEach((n, bit) => {
    for (let l = 0; l < n; l++) out[l * BITMAP_WORDS + (bit >>> 5)] |= 1 << (bit & 31);
  });
  return out;
}

/** The bits set in a 32-bit word. */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * How many of the query's shingles (its queryBits layers) the row surely lacks: those whose bit its bitmap has not
 * set. Stops once `enough` are counted (a layer at a time), so a count at or past `enough` means only that.
 */
export function surelyMissing(bitmaps: Uint32Array, row: number, layers: Uint32Array, enough: number): number {
  const at = row * BITMAP_WORDS;
  let missing = 0;
  for (let l = 0; l < layers.length && missing < enough; l += BITMAP_WORDS)
    for (let w = 0; w < BITMAP_WORDS; w++) missing += popcount(layers[l + w] & ~bitmaps[at + w]);
  return missing;
}

/**
 * The fewest shingles a row of x shingles must surely lack of the query's q for its Jaccard to be below `kth`, as the
 * exact measure computes it (common / (q + x − common), with common ≤ min(q − missing, x)); q + 1 where none is
 * enough.
 */
export function missingBelow(kth: number, q: number, x: number): number {
  const most = Math.min(q, x);
  // The most common shingles at which the Jaccard is below kth (−1 where none): from the real-valued root, then
  // stepped to the exact comparison.
  let c = Math.max(-1, Math.min(most, Math.floor((kth * (q + x)) / (1 + kth))));
  while (c >= 0 && !(c / (q + x - c) < kth)) c--;
  while (c < most && (c + 1) / (q + x - c - 1) < kth) c++;
  if (c < 0) return q + 1;
  return c >= x ? 0 : q - c;
}

/**
 * Whether a row's bitmap is worth testing against the K-th (a cost, not a correctness, question: the test itself is
 * exact, and a row not tested is read): whether, were its Jaccard one standard error below its fingerprint
 * agreement over `slots`, its bitmap would be expected to show enough shingles missing to bound it below `kth` —
 * each of the query's shingles it lacks shows with probability (1 − 2^−10)^x ≈ e^(−x/1,024). Issue 39: a family's
 * rows near the K-th are never ruled out (~1 % of ~1,000 at 1 M), and the test cost ~1 µs a row; a near copy's
 * K-th (J ≈ 0.9) still rules out rows at 0.8.
 */
export function worthTesting(agreement: number, slots: number, kth: number, q: number, x: number): boolean {
  const j = Math.max(0, agreement - Math.sqrt((agreement * (1 - agreement)) / slots));
  const common = (j * (q + x)) / (1 + j);
  const most = Math.min(x, q - (q - common) * Math.exp(-x / (32 * BITMAP_WORDS)));
  return most / (q + x - most) < kth;
}

/**
 * The fewest shingles a row must surely lack of the query's q for common / q (its containment, as verified measures
 * it) to be below c, with common ≤ q − missing; q + 1 where none is enough.
 */
export function missingBelowContainment(c: number, q: number): number {
  let most = Math.max(-1, Math.min(q, Math.floor(c * q)));
  while (most >= 0 && !(most / q < c)) most--;
  while (most < q && (most + 1) / q < c) most++;
  return most < 0 ? q + 1 : q - most;
}
