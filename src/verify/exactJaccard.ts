/**
 * Exact Jaccard of two shingle sets, the measure every exact decision uses
 * (verification, the representative check, decontamination, the index's
 * rescoring, the audit). The WebAssembly kernel (wasm/intersection.wat)
 * counts the common values with a table that is never allocated or cleared
 * per pair; the TypeScript path (PairIndex) is the reference it is tested
 * against, and the fallback where WebAssembly cannot load. Both give the same
 * count, so the same similarity to the last bit.
 */
import { PairIndex } from '../shingles/pairIndex.js';
import { angularOfCosine } from './angular.js';
import { LazyKernel, reserveMemory } from '../wasm/embedded.js';
import { INTERSECTION_WASM } from './wasm/kernels.generated.js';

interface IntersectionExports {
  readonly memory: WebAssembly.Memory;
  intersection(a: number, na: number, b: number, nb: number, table: number, bits: number): number;
  probe(b: number, nb: number, table: number, bits: number): number;
  reset(table: number, bytes: number): void;
}

const kernel = new LazyKernel<IntersectionExports>(INTERSECTION_WASM);
/** log2 of the slots the table at address 0 has room for (16 bytes a slot); the sets are copied in after it. */
let tableBits = 0;
/** Calls since the stamps were last cleared: the kernel's generation, reset before it wraps. */
let generation = 0;
let words: Uint32Array | undefined;
/** Tables the kernel was filled with, ever: whether one jaccardWith filled is still there. */
let fills = 0;
/** Sets past 2^24 values together (a 100 MB document) take the TypeScript path: the table's addresses stay 32-bit. */
const MAX_WASM_WORDS = 2 ** 25;

/**
 * |A ∩ B| / |A ∪ B| for two deduplicated shingle sets of (lo, hi) pairs (as
 * `shingleDocument` returns them, in any order). Two empty sets have
 * similarity 0: empty documents are never duplicates.
 */
export function exactJaccard(x: Uint32Array, y: Uint32Array): number {
  const [small, large] = x.length <= y.length ? [x, y] : [y, x];
  const smallCount = small.length / 2;
  const largeCount = large.length / 2;
  if (smallCount === 0) return 0;
  const common = commonCount(small, large);
  return common / (smallCount + largeCount - common);
}

/**
 * What an exact decision measures: Jaccard, or for SimHash (`angular`) the angular similarity 1 − θ / π of the
 * sets' 0/1 vectors, cos θ = |A ∩ B| / √(|A|·|B|): what the fraction of equal SimHash bits estimates (simhash.ts).
 */
export type SetMeasure = 'jaccard' | 'angular';

/** 1 − θ / π for two deduplicated sets (with `--weights counts`, their counted elements); 0 when either is empty. */
export function exactAngular(x: Uint32Array, y: Uint32Array): number {
  const [small, large] = x.length <= y.length ? [x, y] : [y, x];
  if (small.length === 0) return 0;
  const common = commonCount(small, large);
  return angularOfCosine(common / Math.sqrt((small.length / 2) * (large.length / 2)));
}

/** The exact similarity of a measure. */
export function exactSimilarityOf(measure: SetMeasure = 'jaccard'): (x: Uint32Array, y: Uint32Array) => number {
  return measure === 'angular' ? exactAngular : exactJaccard;
}

/** The reference: the smaller set in a PairIndex, the larger looked up. */
export function exactJaccardTs(x: Uint32Array, y: Uint32Array): number {
  const [small, large] = x.length <= y.length ? [x, y] : [y, x];
  const smallCount = small.length / 2;
  if (smallCount === 0) return 0;
  const common = commonTs(small, large);
  return common / (smallCount + large.length / 2 - common);
}

/** |A ∩ B|, `small` the smaller set: the kernel's count, or the reference's past its memory or where it cannot load. */
function commonCount(small: Uint32Array, large: Uint32Array): number {
  const wasm = kernel.get();
  return wasm === undefined || small.length + large.length > MAX_WASM_WORDS
    ? commonTs(small, large)
    : commonWasm(wasm, small, large);
}

function commonTs(small: Uint32Array, large: Uint32Array): number {
  const smallCount = small.length / 2;
  const index = new PairIndex(small, smallCount);
  for (let i = 0; i < smallCount; i++) index.add(i);
  let common = 0;
  for (let i = 0; i < large.length; i += 2) if (index.find(large[i], large[i + 1]) >= 0) common++;
  return common;
}

/** The table's bits for a set of `words` words: as PairIndex, at least twice as many slots as values. */
function bitsFor(words: number): number {
  let bits = 2;
  while (1 << bits < words) bits++;
  return bits;
}

/** The kernel's memory holding `small` after the table (reset where it must grow or its generation would wrap), and room for `large` words after it. */
function placeSmall(wasm: IntersectionExports, small: Uint32Array, large: number): Uint32Array {
  const bits = bitsFor(small.length);
  const renew = bits > tableBits || generation >= 0xfffffff0;
  if (renew) tableBits = Math.max(tableBits, bits);
  reserveMemory(wasm.memory, (16 << tableBits) + 4 * (small.length + large));
  if (renew) {
    wasm.reset(0, 16 << tableBits);
    generation = 0;
  }
  const memory = wordsOf(wasm.memory);
  memory.set(small, (16 << tableBits) / 4);
  return memory;
}

/** A view of the kernel's memory as words, made anew only when the memory has grown (its buffer replaced). */
function wordsOf(memory: WebAssembly.Memory): Uint32Array {
  if (words === undefined || words.buffer !== memory.buffer) words = new Uint32Array(memory.buffer);
  return words;
}

function commonWasm(wasm: IntersectionExports, small: Uint32Array, large: Uint32Array): number {
  const memory = placeSmall(wasm, small, large.length);
  const a = 16 << tableBits;
  const b = a + 4 * small.length;
  memory.set(large, b / 4);
  generation++;
  fills++;
  return wasm.intersection(a, small.length / 2, b, large.length / 2, 0, bitsFor(small.length));
}

/** exactJaccard(query, ·) for many sets; `reading` for a set read straight into the kernel's memory. */
export interface QueryJaccard {
  (other: Uint32Array): number;
  /** exactJaccard(query, X) for the set X of `length` words that `fill` writes into the array it is given. */
  reading(length: number, fill: (into: Uint32Array) => void): number;
}

/**
 * exactJaccard(query, ·) for many sets against one query (the index's rescoring and containment read thousands a
 * query): the query goes into the kernel's table once, and each set is only looked up in it — again after any other
 * use of the kernel in between; `reading` has the set read into the kernel's memory, no array allocated or copied.
 * The same count, so the same similarity to the last bit.
 */
export function jaccardWith(query: Uint32Array): QueryJaccard {
  const q = query.length / 2;
  let placed = -1; // the fill that put the query's table in place
  let bits = 0;
  /** Where a set of `length` words goes after the query's table, filled if it is not in place; -1: no kernel. */
  const place = (length: number): number => {
    const wasm = kernel.get();
    if (wasm === undefined || q === 0 || length === 0 || query.length + length > MAX_WASM_WORDS) return -1;
    if (placed !== fills) {
      placeSmall(wasm, query, length);
      generation++;
      wasm.intersection(16 << tableBits, q, 0, 0, 0, (bits = bitsFor(query.length)));
      placed = ++fills;
    }
    const b = (16 << tableBits) + 4 * query.length;
    reserveMemory(wasm.memory, b + 4 * length);
    return b;
  };
  const probed = (b: number, length: number): number => {
    const common = kernel.get()!.probe(b, length / 2, 0, bits);
    return common / (q + length / 2 - common);
  };
  const of = (other: Uint32Array): number => {
    const b = place(other.length);
    if (b < 0) return exactJaccard(query, other);
    wordsOf(kernel.get()!.memory).set(other, b / 4);
    return probed(b, other.length);
  };
  return Object.assign(of, {
    reading(length: number, fill: (into: Uint32Array) => void): number {
      const b = place(length);
      if (b < 0) {
        const other = new Uint32Array(length);
        fill(other);
        return exactJaccard(query, other);
      }
      fill(new Uint32Array(kernel.get()!.memory.buffer, b, length));
      return probed(b, length);
    },
  });
}
