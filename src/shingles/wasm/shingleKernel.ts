/**
 * The WebAssembly shingling kernel (shingle.wat): a normalized text in, its
 * window hashes out, in window order with repeats. No Node imports: the bytes
 * are embedded (kernels.generated.ts), so browsers and workers load it as Node does.
 */
import { LazyKernel, reserveMemory } from '../../wasm/embedded.js';
import { SHINGLE_WASM } from './kernels.generated.js';
import type { ShingleHash } from '../sha1Shingles.js';

/** Memory kept between documents; an instance grown past this by a huge document is dropped after it. */
const KEEP_BYTES = 64 << 20;
const encoder = new TextEncoder();

interface Instance {
  readonly memory: WebAssembly.Memory;
  readonly shingle: (len: number, flags: number, n: number, out: number) => number;
  readonly tokens: () => number;
  readonly distinct: (at: number, count: number, table: number, bits: number) => number;
}

const kernel = new LazyKernel<Instance>(SHINGLE_WASM);

/** Why the kernel did not load here (shingles.ts then uses its TypeScript path), if it did not. */
export function wasmShinglerUnavailable(): Error | undefined {
  return kernel.unavailable;
}

/** SHA-1's padded tails, after the window values (shingle.wat: four one-block messages side by side). */
const SHA1_SCRATCH = 256;

/** shingle.wat's flags: bit 0 char mode, bit 1 SHA-1 (datasketch's sha1_hash32), bit 2 its 64-bit form. */
function flagsOf(mode: 'word' | 'char', hash: ShingleHash): number {
  return (mode === 'char' ? 1 : 0) | (hash === 'fnv1a64' ? 0 : 2) | (hash === 'sha1-64' ? 4 : 0);
}

/**
 * The window hashes of a normalized text ((lo, hi) pairs, window order, repeats
 * kept) and its token count; undefined when the kernel is unavailable. `hashes`
 * views the kernel's memory: read or copy it before the next call. `hash`:
 * FNV-1a 64 mod P (ours) or SHA-1 of each shingle string (the datasketch schemes).
 */
export function wasmWindowHashes(
  normalized: string,
  mode: 'word' | 'char',
  n: number,
  hash: ShingleHash = 'fnv1a64',
): { hashes: Uint32Array; tokens: number } | undefined {
  const wasm = kernel.get();
  if (!wasm) return undefined;
  // UTF-8 takes at most 3 bytes per UTF-16 unit; the windows at most one u64 per byte.
  reserveMemory(wasm.memory, 3 * normalized.length + 16);
  const { written } = encoder.encodeInto(normalized, new Uint8Array(wasm.memory.buffer, 0, 3 * normalized.length));
  const out = Math.ceil((written + 1) / 8) * 8;
  reserveMemory(wasm.memory, out + 8 * Math.max(1, written) + SHA1_SCRATCH);
  const windows = wasm.shingle(written, flagsOf(mode, hash), n, out);
  const hashes = new Uint32Array(wasm.memory.buffer, out, 2 * windows); // a view: no copy per document
  const tokens = wasm.tokens();
  kernel.dropIfOver(KEEP_BYTES);
  return { hashes, tokens };
}

/**
 * The distinct values of `hashes` (the last wasmWindowHashes's, still in the kernel's memory), first occurrences in
 * order, as deduplicatePairs gives them, copied out; undefined where they no longer lie there (a huge document's
 * instance was dropped), for the caller's TypeScript path.
 */
export function wasmDistinctHashes(hashes: Uint32Array): Uint32Array | undefined {
  const wasm = kernel.get();
  if (!wasm || hashes.buffer !== wasm.memory.buffer) return undefined;
  const count = hashes.length / 2;
  let bits = 2;
  while (1 << bits < 2 * count) bits++;
  const [at, table] = [hashes.byteOffset, hashes.byteOffset + hashes.byteLength];
  reserveMemory(wasm.memory, table + (4 << bits));
  const kept = wasm.distinct(at, count, table, bits);
  return new Uint32Array(wasm.memory.buffer, at, 2 * kept).slice();
}
