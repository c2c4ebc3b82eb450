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
import { SIGN_SCALAR_WASM, SIGN_SIMD_LAYOUT, SIGN_SIMD_WASM } from './kernels.generated.js';

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
  /** Runs the kernel on a staged chunk. */
  protected abstract call(k: number, sh: number, off: number, docs: number, out: number): void;

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
      reserveMemory(this.memory, outAt + (to - from) * rowBytes);
      stageChunk(this.memory.buffer, batch, from, to, sh, off);
      this.call(k, sh, off, to - from, outAt);
      out.set(new Uint32Array(this.memory.buffer, outAt, (to - from) * k * 2), from * k * 2);
    }
    return out;
  }

  protected abstract familyBytesFor(k: number): number;
}

function sameWords(x: Uint32Array, y: Uint32Array): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * The SIMD kernel's layout, as scripts/sign-simd-wat.mjs generates it: one record per pair of slots (field offsets
 * `AT`), k padded to a multiple of its step, then one scratch row; and the shift E of its bound (δ = b/P + E).
 */
const { recordBytes: RECORD_BYTES, at: AT, boundShift: BOUND_SHIFT } = SIGN_SIMD_LAYOUT;
const STEP_SLOTS = 2 * SIGN_SIMD_LAYOUT.stepPairs;
const P_BIG = (1n << 61n) - 1n;

/** The SIMD kernel: doubles that bound each hash, and the integer coefficients that compute it exactly. */
class SimdKernel extends KernelBase {
  readonly name = 'wasm-simd' as const;
  private pairs = 0;

  protected familyBytesFor(k: number): number {
    const pairs = Math.ceil(k / STEP_SLOTS) * (STEP_SLOTS / 2);
    return pairs * (RECORD_BYTES + 16);
  }

  protected writeFamily({ k, a, b }: Pick<HashFamily, 'k' | 'a' | 'b'>): number {
    this.pairs = Math.ceil(k / STEP_SLOTS) * (STEP_SLOTS / 2);
    const doubles = new Float64Array(this.memory.buffer, 0, (this.pairs * RECORD_BYTES) / 8);
    const words = new Uint32Array(this.memory.buffer, 0, (this.pairs * RECORD_BYTES) / 4);
    for (let slot = 0; slot < 2 * this.pairs; slot++) {
      // Padding slots (≥ k) hash with a = 1, b = 0: computed, never copied out.
      const ai = slot < k ? (BigInt(a[2 * slot + 1]) << 32n) | BigInt(a[2 * slot]) : 1n;
      const bi = slot < k ? (BigInt(b[2 * slot + 1]) << 32n) | BigInt(b[2 * slot]) : 0n;
      writeSlot(doubles, words, slot, ai, bi);
    }
    return this.pairs * (RECORD_BYTES + 16);
  }

  protected call(k: number, sh: number, off: number, docs: number, out: number): void {
    this.run(0, this.pairs, k, sh, off, docs, out, this.pairs * RECORD_BYTES);
  }
}

/**
 * Writes one slot's coefficients where the SIMD kernel reads them (see its layout): the bound's γ = (a·2^31 mod P)/P,
 * α = a/P and δ = b/P + E as doubles (each within 2^-52 of its value); the split at bit 31 into aL < 2^31 and
 * aH < 2^30 as u32 lanes [aL, aL′, aH, aH′] of the pair (′: its second slot), S = aL + aH as [S, S′, 0, 0], and b as u64.
 */
function writeSlot(doubles: Float64Array, words: Uint32Array, slot: number, a: bigint, b: bigint): void {
  const record = RECORD_BYTES * (slot >> 1);
  const second = slot & 1;
  const lane = record + 8 * second; // the slot's byte in its record's 64-bit fields
  const c = (a << 31n) % P_BIG;
  doubles[(lane + AT.gamma) / 8] = Number(c) / 2 ** 61;
  doubles[(lane + AT.alpha) / 8] = Number(a) / 2 ** 61;
  doubles[(lane + AT.delta) / 8] = Number(b) / 2 ** 61 + BOUND_SHIFT;
  const aL = Number(a & 0x7fffffffn);
  const aH = Number(a >> 31n);
  words[(record + AT.a) / 4 + second] = aL;
  words[(record + AT.a) / 4 + 2 + second] = aH;
  words[(record + AT.sum) / 4 + second] = aL + aH;
  words[(lane + AT.b) / 4] = Number(b & 0xffffffffn);
  words[(lane + AT.b) / 4 + 1] = Number(b >> 32n);
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

  protected call(k: number, sh: number, off: number, docs: number, out: number): void {
    this.run(0, 8 * this.k, k, sh, off, docs, out);
  }
}
