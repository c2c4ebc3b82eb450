/**
 * The datasketch schemes' wasm SIMD kernel (datasketch.wat): coefficients laid
 * out per pass, chunks of documents through its memory as for the other
 * kernels (batchChunks.ts). No Node imports: browsers and workers load it too.
 */
import { documentCount, type ShingleBatch } from '../../shingles/shingleBatch.js';
import type { DatasketchScheme } from '../datasketchFamily.js';
import type { HashFamily } from '../hashFamily.js';
import { instantiateEmbedded, reserveMemory } from '../../wasm/embedded.js';
import { align16, chunkShingleBytes, documentChunks, stageChunk } from './batchChunks.js';
import { DATASKETCH_WASM } from './kernels.generated.js';

type Entry = (
  a: number,
  b: number,
  groups: number,
  kpad: number,
  sh: number,
  off: number,
  docs: number,
  out: number,
  scratch: number,
) => void;

const ENTRIES: Readonly<Record<DatasketchScheme, string>> = {
  'datasketch-affine32': 'sign_affine32',
  'datasketch-affine64': 'sign_affine64',
  'datasketch-legacy': 'sign_legacy',
};

/** Slots one pass computes: four vectors of 32-bit (affine32) or 64-bit lanes. */
const slotsPerPass = (scheme: DatasketchScheme): number => (scheme === 'datasketch-affine32' ? 16 : 8);

export class DatasketchWasmKernel {
  private readonly memory: WebAssembly.Memory;
  private readonly exports: Record<string, unknown>;
  /** The coefficients now at address 0, compared by value (workers rebuild the family per request). */
  private loaded: { scheme: string; a: Uint32Array; b: Uint32Array } | undefined;
  private familyBytes = 0;

  constructor() {
    const instance = instantiateEmbedded(DATASKETCH_WASM);
    this.exports = instance.exports as Record<string, unknown>;
    this.memory = this.exports.memory as WebAssembly.Memory;
  }

  sign(family: Pick<HashFamily, 'k' | 'a' | 'b' | 'scheme'>, batch: ShingleBatch): Uint32Array {
    const scheme = family.scheme as DatasketchScheme;
    const { k } = family;
    const perPass = slotsPerPass(scheme);
    const groups = Math.ceil(k / perPass);
    const kpad = groups * perPass;
    this.writeFamily(scheme, family, kpad);
    const run = this.exports[ENTRIES[scheme]] as Entry;
    const docs = documentCount(batch);
    const out = new Uint32Array(docs * k * 2);
    const rowBytes = kpad * 8;
    for (const [from, to] of documentChunks(batch.offsets, docs, rowBytes)) {
      const sh = align16(this.familyBytes);
      const off = align16(sh + chunkShingleBytes(batch, from, to));
      const outAt = align16(off + (to - from + 1) * 4);
      let longest = 0;
      for (let d = from; d < to; d++) longest = Math.max(longest, batch.offsets[d + 1] - batch.offsets[d]);
      const scratch = outAt + (to - from) * rowBytes;
      reserveMemory(this.memory, scratch + 8 * longest);
      stageChunk(this.memory.buffer, batch, from, to, sh, off);
      run(0, this.familyBytes / 2, groups, kpad, sh, off, to - from, outAt, scratch);
      const rows = new Uint32Array(this.memory.buffer, outAt, (to - from) * kpad * 2);
      for (let d = 0; d < to - from; d++) out.set(rows.subarray(d * kpad * 2, (d * kpad + k) * 2), (from + d) * k * 2);
    }
    return out;
  }

  /** a then b, kpad lanes each, 32-bit (affine32) or 64-bit; padding slots a = 1, b = 0. */
  private writeFamily(scheme: DatasketchScheme, family: Pick<HashFamily, 'k' | 'a' | 'b'>, kpad: number): void {
    const cached = this.loaded;
    if (cached && cached.scheme === scheme && sameWords(cached.a, family.a) && sameWords(cached.b, family.b)) return;
    const { k, a, b } = family;
    const wide = scheme !== 'datasketch-affine32';
    const bytes = kpad * (wide ? 8 : 4);
    reserveMemory(this.memory, 2 * bytes);
    if (wide) {
      const words = new Uint32Array(this.memory.buffer, 0, 4 * kpad).fill(0);
      for (let i = 0; i < kpad; i++) {
        words[2 * i] = i < k ? a[2 * i] : 1;
        words[2 * i + 1] = i < k ? a[2 * i + 1] : 0;
        words[2 * (kpad + i)] = i < k ? b[2 * i] : 0;
        // affine64: b's top bit flipped, so the kernel's signed compares order unsigned values (datasketch.wat)
        words[2 * (kpad + i) + 1] =
          ((i < k ? b[2 * i + 1] : 0) ^ (scheme === 'datasketch-affine64' ? 0x80000000 : 0)) >>> 0;
      }
    } else {
      const words = new Uint32Array(this.memory.buffer, 0, 2 * kpad);
      for (let i = 0; i < kpad; i++) {
        words[i] = i < k ? a[2 * i] : 1;
        words[kpad + i] = i < k ? b[2 * i] : 0;
      }
    }
    this.familyBytes = 2 * bytes;
    this.loaded = { scheme, a: a.slice(), b: b.slice() };
  }
}

function sameWords(x: Uint32Array, y: Uint32Array): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
