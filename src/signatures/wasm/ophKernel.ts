/**
 * ophBins.wat, one-permutation hashing's bin minima in WebAssembly: an
 * OphBinKernel (oph.ts) bit-identical with binMinimaTs, which signBatchOph
 * densifies afterwards. Loaded synchronously from the embedded bytes, like
 * signKernel.ts, so worker threads and the browser use it as is.
 */
import { documentCount } from '../../shingles/shingleBatch.js';
import type { OphBinKernel } from '../oph.js';
import { instantiateEmbedded, reserveMemory } from '../../wasm/embedded.js';
import { align16, chunkShingleBytes, documentChunks, stageChunk } from './batchChunks.js';
import { OPH_BINS_WASM } from './kernels.generated.js';

type BinsExport = (
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
  k: number,
  sh: number,
  off: number,
  docs: number,
  out: number,
) => void;

/** One instance (its own memory) per call: keep the result per thread. Throws where WebAssembly is missing. */
export function loadWasmOphBins(): OphBinKernel {
  const instance = instantiateEmbedded(OPH_BINS_WASM);
  const memory = instance.exports.memory as WebAssembly.Memory;
  const bins = instance.exports.bins as BinsExport;
  return (family, batch, out) => {
    const { k, a, b } = family;
    const rowBytes = k * 8;
    for (const [from, to] of documentChunks(batch.offsets, documentCount(batch), rowBytes)) {
      const off = align16(chunkShingleBytes(batch, from, to));
      const rows = align16(off + (to - from + 1) * 4);
      reserveMemory(memory, rows + (to - from) * rowBytes);
      stageChunk(memory.buffer, batch, from, to, 0, off);
      // The caller's rows go in, so the kernel takes minima with them exactly as binMinimaTs does.
      const inWasm = new Uint32Array(memory.buffer, rows, (to - from) * k * 2);
      inWasm.set(out.subarray(from * k * 2, to * k * 2));
      bins(a[0], a[1], b[0], b[1], k, 0, off, to - from, rows);
      out.set(inWasm, from * k * 2);
    }
  };
}
