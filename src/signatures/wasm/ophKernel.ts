/**
 * ophBins.wat, one-permutation hashing's bin minima in WebAssembly: an
 * OphBinKernel (oph.ts) bit-identical with binMinimaTs, which signBatchOph
 * densifies afterwards. Loaded synchronously from the embedded bytes, like
 * signKernel.ts, so worker threads and the browser use it as is.
 */
import { documentCount } from '../../shingles/shingleBatch.js';
import type { OphBinKernel } from '../oph.js';
import { OPH_BINS_WASM } from './kernels.generated.js';

/** A chunk's shingles plus bin rows stay below this in wasm memory (one huge document may exceed it). */
const CHUNK_BYTES = 32 << 20;
const PAGE = 65536;

type BinsExport = (aLo: number, aHi: number, bLo: number, bHi: number, k: number, sh: number, off: number, docs: number, out: number) => void;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** One instance (its own memory) per call: keep the result per thread. Throws where WebAssembly is missing. */
export function loadWasmOphBins(): OphBinKernel {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(OPH_BINS_WASM)), {});
  const memory = instance.exports.memory as WebAssembly.Memory;
  const bins = instance.exports.bins as BinsExport;
  const reserve = (bytes: number): void => {
    const have = memory.buffer.byteLength;
    if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
  };
  return (family, batch, out) => {
    const { k, a, b } = family;
    const docs = documentCount(batch);
    const rowBytes = k * 8;
    for (let from = 0; from < docs; ) {
      // Documents [from, to): as many as fit in CHUNK_BYTES, at least one.
      let to = from + 1;
      while (to < docs && (batch.offsets[to + 1] - batch.offsets[from]) * 8 + (to + 1 - from) * (rowBytes + 4) < CHUNK_BYTES) to++;
      const first = batch.offsets[from];
      const count = batch.offsets[to] - first;
      const off = align16(count * 8);
      const rows = align16(off + (to - from + 1) * 4);
      reserve(rows + (to - from) * rowBytes);
      const buffer = memory.buffer;
      new Uint32Array(buffer, 0, 2 * count).set(batch.shingles.subarray(2 * first, 2 * (first + count)));
      const offsets = new Uint32Array(buffer, off, to - from + 1);
      for (let d = from; d <= to; d++) offsets[d - from] = batch.offsets[d] - first;
      // The caller's rows go in, so the kernel takes minima with them exactly as binMinimaTs does.
      const inWasm = new Uint32Array(buffer, rows, (to - from) * k * 2);
      inWasm.set(out.subarray(from * k * 2, to * k * 2));
      bins(a[0], a[1], b[0], b[1], k, 0, off, to - from, rows);
      out.set(inWasm, from * k * 2);
      from = to;
    }
  };
}
