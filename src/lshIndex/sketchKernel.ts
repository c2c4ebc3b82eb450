/**
 * The forest's sketches and fingerprints (forestBuild.ts: a byte a slot, the
 * low 8 bits of each fingerprint, then the 16-bit fingerprints) in a shared
 * WebAssembly memory, and the kernel that counts a row's agreement with a
 * query from them (wasm/sketch.wat): 16-byte compares where TypeScript takes
 * 32 or 64 words of bit tricks a row. Issue 39: a top-10 descent to two slots
 * at 1 M documents bounds ~30,000 rows, ~0.3 µs each in TypeScript, most of
 * the slowest queries' CPU; a family's query measures the agreement of ~1,000.
 *
 * Only for 128 slots (the forest of every k ≥ 128, forest.ts) and where
 * shared memory exists (the server's query threads adopt one thread's
 * forests, and each instantiates the kernel over the same memory); elsewhere
 * the sketch is a plain array and forest.ts counts in TypeScript, the
 * reference the kernel is tested against. Both give the same bound.
 * Browser-safe.
 */
import { decodeBase64 } from '../wasm/embedded.js';
import { SKETCH_WASM } from './wasm/kernels.generated.js';

/** The slots the kernel counts: 128 sketch bytes and 128 fingerprints a row. */
export const KERNEL_SLOTS = 128;
/** Bytes a row takes in the forest memory: its sketch, then (after every row's sketch) its fingerprints. */
const ROW_BYTES = 3 * KERNEL_SLOTS;
const PAGE = 65536;
/** The kernel's addresses are 32-bit: sketches up to 4 GiB less the threads' pages (32 M rows a segment). */
const MAX_PAGES = 65536;
/** Pages the memory may grow by: one a thread that instantiates the kernel over it (its rows' scratch). */
const THREAD_PAGES = 256;
/** Rows a scratch page holds (4 bytes each). */
const BATCH = PAGE / 4;

interface SketchExports {
  setQuery(...words: number[]): void;
  equalBytes(at: number): number;
  equalPrints(at: number): number;
  bounds(rows: number, n: number): void;
}

/** A forest's sketches and fingerprints, `count` rows, in memory the kernel reads. */
export interface ForestMemory {
  readonly memory: WebAssembly.Memory;
  readonly sketch: Uint32Array;
  readonly fingerprints: Uint16Array;
}

/** Rows' agreement with the query last set: the equal bytes of their sketches, the equal fingerprints. */
export interface SketchKernel {
  /** The query's 128 fingerprints. */
  setQuery(fingerprints: Uint16Array): void;
  equalBytes(row: number): number;
  equalPrints(row: number): number;
  /** out[at + i] = equalBytes(rows[i]) for every i: one call a page of rows. */
  boundsOf(rows: ArrayLike<number>, out: Uint32Array | number[], at: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

function sketchModule(): WebAssembly.Module | undefined {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(decodeBase64(SKETCH_WASM));
    } catch {
      compiled = null;
    }
  }
  return compiled ?? undefined;
}

/**
 * Zeroed sketches and fingerprints of `count` rows in a shared WebAssembly memory the kernel can read, where the
 * forest has 128 slots and the platform shares memory; else undefined (the caller allocates plain arrays).
 */
export function forestMemory(slots: number, count: number): ForestMemory | undefined {
  if (slots !== KERNEL_SLOTS || typeof SharedArrayBuffer !== 'function' || sketchModule() === undefined)
    return undefined;
  const pages = Math.max(1, Math.ceil((ROW_BYTES * count) / PAGE));
  if (pages + THREAD_PAGES > MAX_PAGES) return undefined;
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: pages, maximum: pages + THREAD_PAGES, shared: true });
  } catch {
    return undefined;
  }
  return {
    memory,
    sketch: new Uint32Array(memory.buffer, 0, (KERNEL_SLOTS / 4) * count),
    fingerprints: new Uint16Array(memory.buffer, KERNEL_SLOTS * count, KERNEL_SLOTS * count),
  };
}

/**
 * The kernel over a forest's sketch memory (one instance a forest a thread), with a scratch page of its own that it
 * grows the memory by (growing a shared memory is atomic, and its old bytes stay where they are); undefined where it
 * cannot load or the memory has no page left to grow by.
 */
export function sketchKernel(memory: WebAssembly.Memory | undefined, count: number): SketchKernel | undefined {
  const module = memory === undefined ? undefined : sketchModule();
  if (module === undefined) return undefined;
  let exports: SketchExports;
  let page: number;
  try {
    exports = new WebAssembly.Instance(module, { forest: { memory: memory! } }).exports as unknown as SketchExports;
    page = memory!.grow(1) * PAGE;
  } catch {
    return undefined;
  }
  const scratch = new Uint32Array(memory!.buffer, page, BATCH);
  const prints = KERNEL_SLOTS * count;
  const words: number[] = new Array(KERNEL_SLOTS / 2).fill(0);
  return {
    setQuery: (fingerprints) => {
      // Two fingerprints a word, little-endian, into an array kept for it (a spread of a fresh one was garbage a query).
      for (let w = 0; w < words.length; w++) words[w] = (fingerprints[2 * w] | (fingerprints[2 * w + 1] << 16)) >>> 0;
      exports.setQuery.apply(undefined, words);
    },
    equalBytes: (row) => exports.equalBytes(row * KERNEL_SLOTS),
    equalPrints: (row) => exports.equalPrints(prints + 2 * KERNEL_SLOTS * row),
    boundsOf: (rows, out, at) => {
      for (let from = 0; from < rows.length; from += BATCH) {
        const n = Math.min(BATCH, rows.length - from);
        for (let i = 0; i < n; i++) scratch[i] = rows[from + i];
        exports.bounds(page, n);
        for (let i = 0; i < n; i++) out[at + from + i] = scratch[i];
      }
    },
  };
}
