/**
 * simhash.wat, SimHash fingerprints in WebAssembly: bit-identical with simhash.ts's
 * signBatchSimhash (test/signatures/simhash.test.ts). Loaded synchronously from the
 * embedded bytes, like ophKernel.ts, so worker threads and the browser use it as is.
 */
import { documentCount, type ShingleBatch } from '../../shingles/shingleBatch.js';
import { EMPTY_SLOT_WORD } from '../backend.js';
import { expandFingerprint, SIMHASH_BITS } from '../simhash.js';
import { instantiateEmbedded, reserveMemory } from '../../wasm/embedded.js';
import { align16, chunkShingleBytes, documentChunks, stageChunk } from './batchChunks.js';
import { SIMHASH_WASM } from './kernels.generated.js';

type FingerprintsExport = (
  keyLo: number,
  keyHi: number,
  sh: number,
  off: number,
  docs: number,
  out: number,
  planes: number,
) => void;

/** signBatchSimhash's signatures from the kernel; one instance (its own memory) per call: keep it per thread. */
export function loadWasmSimhash(): (key: Uint32Array, batch: ShingleBatch) => Uint32Array {
  const instance = instantiateEmbedded(SIMHASH_WASM);
  const memory = instance.exports.memory as WebAssembly.Memory;
  const fingerprints = instance.exports.fingerprints as FingerprintsExport;
  return (key, batch) => {
    const docs = documentCount(batch);
    const out = new Uint32Array(docs * SIMHASH_BITS * 2);
    for (const [from, to] of documentChunks(batch.offsets, docs, 8)) {
      const off = align16(chunkShingleBytes(batch, from, to));
      const planes = align16(off + (to - from + 1) * 4);
      const rows = planes + 256;
      reserveMemory(memory, rows + (to - from) * 8);
      stageChunk(memory.buffer, batch, from, to, 0, off);
      fingerprints(key[0], key[1], 0, off, to - from, rows, planes);
      const words = new Uint32Array(memory.buffer, rows, (to - from) * 2);
      for (let d = from; d < to; d++) {
        const at = d * SIMHASH_BITS * 2;
        if (batch.offsets[d] === batch.offsets[d + 1]) out.fill(EMPTY_SLOT_WORD, at, at + SIMHASH_BITS * 2);
        else expandFingerprint(words[2 * (d - from)], words[2 * (d - from) + 1], out, at);
      }
    }
    return out;
  };
}
