/**
 * The CPU signing kernels, fastest first: wasm SIMD, scalar wasm, and the
 * TypeScript reference (signBatchOnCpu), which is also the last fallback.
 * openCpuKernel takes the first that loads here and notes why any faster one
 * did not. No Node imports: the browser and worker threads use it as is.
 */
import type { ShingleBatch } from './backend.js';
import { signBatchOnCpu } from './cpuSigner.js';
import type { HashFamily } from './hashFamily.js';
import { binMinimaTs, signBatchOph, type OphBinKernel } from './oph.js';
import { signBatchSimhash } from './simhash.js';
import { loadWasmSimhash } from './wasm/simhashKernel.js';
import { loadWasmOphBins } from './wasm/ophKernel.js';
import { loadWasmSignKernel, wasmSimdSupported } from './wasm/signKernel.js';
import { isDatasketchScheme } from './datasketchFamily.js';
import { signBatchDatasketch } from './datasketchSigner.js';
import { DatasketchWasmKernel } from './wasm/datasketchKernel.js';

export type CpuKernelName = 'wasm-simd' | 'wasm-scalar' | 'typescript';

export const CPU_KERNELS: readonly CpuKernelName[] = ['wasm-simd', 'wasm-scalar', 'typescript'];

/** How a kernel is named in backend descriptions, e.g. "CPU (wasm SIMD, 2 threads)". */
export const CPU_KERNEL_LABELS: Readonly<Record<CpuKernelName, string>> = {
  'wasm-simd': 'wasm SIMD',
  'wasm-scalar': 'wasm scalar',
  typescript: 'TypeScript, 32-bit lanes',
};

/** What signing reads of a family: all but the seed. */
export type SigningFamily = Omit<HashFamily, 'seed'>;

export interface CpuKernel {
  readonly name: CpuKernelName;
  /** Signatures of every document, documents·k·2 words, in the family's scheme; synchronous. */
  sign(family: SigningFamily, batch: ShingleBatch): Uint32Array;
}

const NO_SEED = { hi: 0, lo: 0 }; // signing never reads it

const typescriptKernel: CpuKernel = {
  name: 'typescript',
  sign: (family, batch) => signBatchOnCpu({ ...family, seed: NO_SEED }, batch),
};

let ophBins: OphBinKernel | undefined;

/** This thread's wasm OPH bin-minima kernel (ophBins.wat), or binMinimaTs where it does not load. */
export function wasmOphBins(): OphBinKernel {
  if (!ophBins) {
    try {
      ophBins = loadWasmOphBins();
    } catch {
      ophBins = binMinimaTs; // same results, only slower
    }
  }
  return ophBins;
}

let simhashKernel: typeof signBatchSimhash | undefined;

/** This thread's wasm SimHash kernel (simhash.wat), or signBatchSimhash where it does not load. */
function wasmSimhash(): typeof signBatchSimhash {
  if (!simhashKernel) {
    try {
      simhashKernel = loadWasmSimhash();
    } catch {
      simhashKernel = signBatchSimhash; // same results, only slower
    }
  }
  return simhashKernel;
}

let datasketchKernel: DatasketchWasmKernel | undefined;

/** The datasketch schemes: their own SIMD kernel (datasketch.wat); without SIMD, the TypeScript reference. */
function signDatasketch(name: CpuKernelName, family: SigningFamily, batch: ShingleBatch): Uint32Array {
  if (name !== 'wasm-simd') return signBatchDatasketch({ ...family, seed: NO_SEED }, batch);
  datasketchKernel ??= new DatasketchWasmKernel();
  return datasketchKernel.sign(family, batch);
}

/**
 * The wasm signing kernels compute the classic scheme; one-permutation hashing
 * goes to signBatchOph (oph.ts) with the wasm bin-minima kernel (ophBins.wat),
 * which densifies afterwards; the datasketch schemes to signDatasketch.
 */
function classicOnly(kernel: CpuKernel): CpuKernel {
  return {
    name: kernel.name,
    sign: (family, batch) => {
      if (family.scheme === 'oph') return signBatchOph({ ...family, seed: NO_SEED }, batch, wasmOphBins());
      if (family.scheme === 'simhash') return wasmSimhash()(family.a, batch);
      if (isDatasketchScheme(family.scheme)) return signDatasketch(kernel.name, family, batch);
      return kernel.sign(family, batch);
    },
  };
}

/** One instance per kernel and thread: each wasm instance owns its memory. */
const loaded = new Map<CpuKernelName, CpuKernel>();

/**
 * The fastest kernel at or after `preferred` in CPU_KERNELS that loads in this
 * engine; `notes` says why each faster one was passed over (empty when none was).
 */
export function openCpuKernel(preferred: CpuKernelName = 'wasm-simd'): { kernel: CpuKernel; notes: string[] } {
  const notes: string[] = [];
  for (const name of CPU_KERNELS.slice(CPU_KERNELS.indexOf(preferred))) {
    const cached = loaded.get(name);
    if (cached) return { kernel: cached, notes };
    if (name === 'typescript') {
      loaded.set(name, typescriptKernel);
      return { kernel: typescriptKernel, notes };
    }
    try {
      if (name === 'wasm-simd' && !wasmSimdSupported())
        throw new Error('this engine does not validate WebAssembly SIMD');
      const kernel = classicOnly(loadWasmSignKernel(name));
      loaded.set(name, kernel);
      return { kernel, notes };
    } catch (error) {
      notes.push(`${CPU_KERNEL_LABELS[name]} unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error('unreachable: the TypeScript kernel always loads');
}
