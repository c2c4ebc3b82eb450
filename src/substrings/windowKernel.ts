/**
 * A round's windows by the WebAssembly kernel (wasm/windowKeys.wat, the same
 * keys and lanes as forEachWindow): documents staged in batches of contiguous
 * corpus bytes (a document longer than a batch in pieces that overlap by
 * length − 1 bytes, so every window is in exactly one piece), the kernel
 * writing the windows whose key is in the round's slice.
 */
import { LazyKernel, reserveMemory } from '../wasm/embedded.js';
import type { CorpusText } from './corpusText.js';
import { dropFactors } from './windowHash.js';
import { WINDOW_KEYS_WASM } from './wasm/kernels.generated.js';

type WindowsExport = (
  src: number,
  bounds: number,
  docs: number,
  length: number,
  dropA: number,
  dropB: number,
  lo: number,
  hi: number,
  filter: number,
  out: number,
  base: number,
) => number;

const kernel = new LazyKernel<{ memory: WebAssembly.Memory; windows: WindowsExport }>(WINDOW_KEYS_WASM);

/** Bytes staged per call. */
const BATCH = 1 << 22;

/** Receives the windows of a round: key, lane, position triples; returns true to stop early. */
export interface WindowSink {
  // biome-ignore lint/suspicious/noConfusingVoidType: sinks that never stop early return nothing
  add(triples: Uint32Array, count: number): boolean | void;
}

/** A 2^24-bit map of keys (bit key >>> 8): only windows whose bit is set are passed on. */
export const FILTER_BYTES = 1 << 21;

export function setFilterBit(filter: Uint8Array, key: number): void {
  filter[key >>> 11] |= 1 << ((key >>> 8) & 7);
}

/** False where WebAssembly cannot load (the caller takes forEachWindow). */
export function windowKernelAvailable(): boolean {
  return kernel.get() !== undefined;
}

/** The kernel's memory for a batch: its text, then the documents' bounds, the filter and the windows out. */
function layOut(memory: WebAssembly.Memory, length: number, filter?: Uint8Array) {
  const boundsAt = BATCH;
  const filterAt = boundsAt + 8 * (Math.ceil(BATCH / length) + 2);
  const outAt = filterAt + FILTER_BYTES;
  reserveMemory(memory, outAt + 12 * BATCH);
  if (filter !== undefined) new Uint8Array(memory.buffer, filterAt, FILTER_BYTES).set(filter);
  return { boundsAt, filterAt, outAt };
}

export function collectWindowsWasm(
  corpus: CorpusText,
  length: number,
  lo: number,
  hi: number,
  firstDocument: number,
  endDocument: number,
  sink: WindowSink,
  filter?: Uint8Array,
): void {
  const { memory, windows } = kernel.get()!;
  const { boundsAt, filterAt, outAt } = layOut(memory, length, filter);
  let stopped = false;
  const { dropA, dropB } = dropFactors(length);
  const bounds: number[] = [];
  let batchStart = -1;
  let batchEnd = -1;
  const flush = (): void => {
    if (bounds.length === 0 || stopped) return;
    new Uint8Array(memory.buffer, 0, batchEnd - batchStart).set(corpus.bytes.subarray(batchStart, batchEnd));
    new Uint32Array(memory.buffer, boundsAt, bounds.length).set(bounds);
    const count = windows(
      0,
      boundsAt,
      bounds.length / 2,
      length,
      dropA,
      dropB,
      lo | 0,
      (hi - 1) | 0,
      filter === undefined ? 0 : filterAt,
      outAt,
      batchStart,
    );
    stopped = sink.add(new Uint32Array(memory.buffer, outAt, count * 3), count) === true;
    bounds.length = 0;
  };
  for (let d = firstDocument; d < endDocument && !stopped; d++) {
    const s = corpus.starts[d];
    const e = corpus.starts[d + 1];
    if (e - s < length) continue;
    if (bounds.length > 0 && e - batchStart > BATCH) flush();
    if (e - s > BATCH) {
      for (let piece = s; piece + length <= e; piece += BATCH - length + 1) {
        batchStart = piece;
        batchEnd = Math.min(e, piece + BATCH);
        bounds.push(0, batchEnd - batchStart);
        flush();
      }
      continue;
    }
    if (bounds.length === 0) batchStart = s;
    batchEnd = e;
    bounds.push(s - batchStart, e - batchStart);
  }
  flush();
}
