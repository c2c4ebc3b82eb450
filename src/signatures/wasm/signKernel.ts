/**
 * The WebAssembly signing kernels (signSimd, made by scripts/sign-simd-wat.mjs, and signScalar.wat): loading, and
 * moving a ShingleBatch through their linear memory. No Node imports: the
 * module bytes are embedded (kernels.generated.ts, built by scripts/build-wasm.mjs),
 * so browser bundles and worker threads load them exactly as Node does.
 */
import { documentCount, type ShingleBatch } from '../../shingles/shingleBatch.js';
import type { HashFamily } from '../hashFamily.js';
import { decodeBase64, instantiateEmbedded, reserveMemory } from '../../wasm/embedded.js';
import { align16, chunkShingleBytes, documentChunks, stageChunk } from './batchChunks.js';
import { SIGN_SCALAR_WASM, SIGN_SIMD_WASM } from './kernels.generated.js';

export type WasmKernelName = 'wasm-simd' | 'wasm-scalar';

/** Signs batches with one instance of a kernel; synchronous, one thread. */
export interface WasmSignKernel {
  readonly name: WasmKernelName;
  sign(family: Pick<HashFamily, 'k' | 'a' | 'b'>, batch: ShingleBatch): Uint32Array;
}

/** Whether this engine validates wasm SIMD (the SIMD module itself is the probe). */
export function wasmSimdSupported(): boolean {
  return typeof WebAssembly === 'object' && WebAssembly.validate(decodeBase64(SIGN_SIMD_WASM));
}

/** Instantiates a kernel synchronously (the modules stay within browsers' 4 KB main-thread limit: a test checks). */
export function loadWasmSignKernel(name: WasmKernelName): WasmSignKernel {
  const instance = instantiateEmbedded(name === 'wasm-simd' ? SIGN_SIMD_WASM : SIGN_SCALAR_WASM);
  const memory = instance.exports.memory as WebAssembly.Memory;
  const run = instance.exports.sign as (...args: number[]) => number;
  return name === 'wasm-simd' ? new SimdKernel(memory, run) : new ScalarKernel(memory, run);
}

abstract class KernelBase implements WasmSignKernel {
  abstract readonly name: WasmKernelName;
  /**
   * Copies of the coefficients at the bottom of memory (compared by value: workers rebuild the family per request), and
   * their size in bytes.
   */
  private loadedA = new Uint32Array(0);
  private loadedB = new Uint32Array(0);
  protected familyBytes = 0;

  constructor(
    protected readonly memory: WebAssembly.Memory,
    protected readonly run: (...args: number[]) => number,
  ) {}

  /** Writes the family's coefficients at address 0 in the kernel's layout; returns their byte size. */
  protected abstract writeFamily(family: Pick<HashFamily, 'k' | 'a' | 'b'>): number;
  /** Runs the kernel on a staged chunk; returns the chunk's documents whose rows must be signed again, if any. */
  protected abstract call(k: number, sh: number, off: number, docs: number, out: number): Uint32Array | undefined;

  sign(family: Pick<HashFamily, 'k' | 'a' | 'b'>, batch: ShingleBatch): Uint32Array {
    if (!sameWords(this.loadedA, family.a) || !sameWords(this.loadedB, family.b)) {
      reserveMemory(this.memory, this.familyBytesFor(family.k));
      this.familyBytes = this.writeFamily(family);
      this.loadedA = family.a.slice();
      this.loadedB = family.b.slice();
    }
    const { k } = family;
    const docs = documentCount(batch);
    const out = new Uint32Array(docs * k * 2);
    const rowBytes = k * 8;
    for (const [from, to] of documentChunks(batch.offsets, docs, rowBytes)) {
      const sh = align16(this.familyBytes);
      const off = align16(sh + chunkShingleBytes(batch, from, to));
      const outAt = align16(off + (to - from + 1) * 4);
      // Room for the rows, then for the SIMD kernel's list of rows to sign again (one u32 a document).
      reserveMemory(this.memory, align16(outAt + (to - from) * rowBytes) + (to - from) * 4);
      stageChunk(this.memory.buffer, batch, from, to, sh, off);
      const redo = this.call(k, sh, off, to - from, outAt);
      out.set(new Uint32Array(this.memory.buffer, outAt, (to - from) * k * 2), from * k * 2);
      for (const d of redo ?? []) out.set(signExactly(family, batch, from + d), (from + d) * k * 2);
    }
    return out;
  }

  protected abstract familyBytesFor(k: number): number;
}

let scalarKernel: WasmSignKernel | undefined;

/** Document `doc` of `batch` signed alone by the scalar kernel, which reduces every hash fully. */
function signExactly(family: Pick<HashFamily, 'k' | 'a' | 'b'>, batch: ShingleBatch, doc: number): Uint32Array {
  scalarKernel ??= loadWasmSignKernel('wasm-scalar');
  const shingles = batch.shingles.subarray(2 * batch.offsets[doc], 2 * batch.offsets[doc + 1]);
  return scalarKernel.sign(family, { shingles, offsets: Uint32Array.of(0, shingles.length / 2) });
}

/** Stores (hi·2^32 + lo) + 1 as (lo, hi) words at `at`. */
function writePlusOne(words: Uint32Array, at: number, lo: number, hi: number): void {
  words[at] = (lo + 1) >>> 0;
  words[at + 1] = lo === 0xffffffff ? hi + 1 : hi;
}

function sameWords(x: Uint32Array, y: Uint32Array): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Slots per group of the SIMD kernel: 12 in vectors, then 4 scalar; a group's record is 368 bytes, its row 128. */
const GROUP_SLOTS = 16;
const GROUP_BYTES = 368;
const VECTOR_SLOTS = 12;

/** The SIMD kernel: one 368-byte record per group of 16 slots (k padded to a multiple of 16), then one scratch row. */
class SimdKernel extends KernelBase {
  readonly name = 'wasm-simd' as const;
  private groups = 0;

  protected familyBytesFor(k: number): number {
    return Math.ceil(k / GROUP_SLOTS) * (GROUP_BYTES + 8 * GROUP_SLOTS);
  }

  protected writeFamily({ k, a, b }: Pick<HashFamily, 'k' | 'a' | 'b'>): number {
    this.groups = Math.ceil(k / GROUP_SLOTS);
    const words = new Uint32Array(this.memory.buffer, 0, (this.groups * GROUP_BYTES) / 4);
    for (let slot = 0; slot < this.groups * GROUP_SLOTS; slot++) {
      // Padding slots (≥ k) hash with a = 1, b = 0: computed, never copied out.
      const aLo = slot < k ? a[2 * slot] : 1;
      const aHi = slot < k ? a[2 * slot + 1] : 0;
      const bLo = slot < k ? b[2 * slot] : 0;
      const bHi = slot < k ? b[2 * slot + 1] : 0;
      writeSlot(words, slot, aLo, aHi, bLo, bHi);
    }
    return this.groups * (GROUP_BYTES + 8 * GROUP_SLOTS);
  }

  protected call(k: number, sh: number, off: number, docs: number, out: number): Uint32Array | undefined {
    const redo = align16(out + docs * k * 8);
    const count = this.run(0, this.groups, k, sh, off, docs, out, this.groups * GROUP_BYTES, redo);
    return count === 0 ? undefined : new Uint32Array(this.memory.buffer, redo, count).slice();
  }
}

/**
 * Writes one slot's coefficients where the SIMD kernel reads them (see its layout): a split at bit 31 into aL < 2^31 and
 * aH < 2^30, S = aL + aH, and b + 1.
 */
function writeSlot(words: Uint32Array, slot: number, aLo: number, aHi: number, bLo: number, bHi: number): void {
  const group = (GROUP_BYTES / 4) * Math.floor(slot / GROUP_SLOTS);
  const at = slot % GROUP_SLOTS;
  const aL = aLo & 0x7fffffff;
  const aH = ((aHi << 1) | (aLo >>> 31)) >>> 0;
  const s = aL + aH; // < 2^32
  if (at < VECTOR_SLOTS) {
    const pair = at >> 1;
    const lane = at & 1;
    words[group + 4 * pair + lane] = aL;
    words[group + 4 * pair + 2 + lane] = aH;
    words[group + 24 + 4 * (pair >> 1) + 2 * (pair & 1) + lane] = s;
    writePlusOne(words, group + 36 + 4 * pair + 2 * lane, bLo, bHi);
  } else {
    const w = group + 60 + 8 * (at - VECTOR_SLOTS);
    words.set([aL, 0, aH, 0, s, 0], w);
    writePlusOne(words, w + 6, bLo, bHi);
  }
}

/** signScalar.wat: a then b, k u64 each. */
class ScalarKernel extends KernelBase {
  readonly name = 'wasm-scalar' as const;
  private k = 0;

  protected familyBytesFor(k: number): number {
    return 16 * k;
  }

  protected writeFamily({ k, a, b }: Pick<HashFamily, 'k' | 'a' | 'b'>): number {
    this.k = k;
    new Uint32Array(this.memory.buffer, 0, 2 * k).set(a);
    new Uint32Array(this.memory.buffer, 8 * k, 2 * k).set(b);
    return 16 * k;
  }

  protected call(k: number, sh: number, off: number, docs: number, out: number): undefined {
    this.run(0, 8 * this.k, k, sh, off, docs, out);
  }
}
