/**
 * The WebAssembly SHA-1 kernel (sha1.wat): all of a document's shingle windows
 * hashed in one call. No Node imports, as the other kernels (bytes embedded).
 */
import { instantiateEmbedded, reserveMemory } from '../../wasm/embedded.js';
import { SHA1_WASM } from './kernels.generated.js';

/** Memory kept between documents; an instance grown past this by a huge document is dropped after it. */
const KEEP_BYTES = 64 << 20;
const SCRATCH_BYTES = 128;

interface Instance {
  readonly memory: WebAssembly.Memory;
  readonly run: (windows: number, count: number, out: number, scratch: number, wide: number) => void;
}

let instance: Instance | undefined;
let unavailable: Error | undefined;

function load(): Instance | undefined {
  if (instance || unavailable) return instance;
  try {
    const e = instantiateEmbedded(SHA1_WASM).exports as Record<string, unknown>;
    instance = { memory: e.memory as WebAssembly.Memory, run: e.sha1_windows as Instance['run'] };
  } catch (error) {
    unavailable = error instanceof Error ? error : new Error(String(error));
  }
  return instance;
}

/** Why the kernel did not load here, if it did not (sha1Shingles.ts then hashes in TypeScript). */
export function wasmSha1Unavailable(): Error | undefined {
  load();
  return unavailable;
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/**
 * sha1_hash32 (or, `wide`, sha1_hash64) of each (start, end) window of `bytes`, as
 * (lo, hi) pairs; undefined when the kernel is unavailable.
 */
export function wasmSha1Windows(bytes: Uint8Array, windows: Uint32Array, wide: boolean): Uint32Array | undefined {
  const kernel = load();
  if (!kernel) return undefined;
  const at = align8(bytes.length);
  const out = at + 4 * windows.length;
  const scratch = out + 4 * windows.length;
  reserveMemory(kernel.memory, scratch + SCRATCH_BYTES);
  const memory = kernel.memory.buffer;
  new Uint8Array(memory, 0, bytes.length).set(bytes);
  new Uint32Array(memory, at, windows.length).set(windows);
  kernel.run(at, windows.length / 2, out, scratch, wide ? 1 : 0);
  const hashes = new Uint32Array(memory, out, windows.length).slice();
  if (memory.byteLength > KEEP_BYTES) instance = undefined;
  return hashes;
}
