/**
 * The WGSL sources of the WebGPU backend, however they were loaded: from
 * `shaders/` on disk in Node (nodeShaders.ts), or bundled by Vite with `?raw`
 * in the browser (browserShaders.ts). The files are the only copy of the WGSL.
 */

export interface ShaderSources {
  /** shaders/mersenne61.wgsl: the shared multiply-mod, no entry point. */
  readonly mersenne61: string;
  /** shaders/minhash.wgsl: the signing kernel. */
  readonly minhash: string;
  /** shaders/oph.wgsl: the one-permutation hashing kernel (bin minima). */
  readonly oph: string;
  /** shaders/simhash.wgsl: SimHash fingerprints, one invocation per document. */
  readonly simhash: string;
  /** shaders/mulmod_test.wgsl: multiply-mod over a buffer of operands, for tests and doctor. */
  readonly mulmodTest: string;
  /** shaders/datasketch_*.wgsl: datasketch 2.0.0's schemes, one kernel each. */
  readonly datasketchAffine32: string;
  readonly datasketchAffine64: string;
  readonly datasketchLegacy: string;
}

/** File name of each source under `shaders/`. */
export const SHADER_FILES: Readonly<Record<keyof ShaderSources, string>> = {
  mersenne61: 'mersenne61.wgsl',
  minhash: 'minhash.wgsl',
  oph: 'oph.wgsl',
  simhash: 'simhash.wgsl',
  mulmodTest: 'mulmod_test.wgsl',
  datasketchAffine32: 'datasketch_affine32.wgsl',
  datasketchAffine64: 'datasketch_affine64.wgsl',
  datasketchLegacy: 'datasketch_legacy.wgsl',
};

export type KernelName =
  | 'minhash'
  | 'oph'
  | 'simhash'
  | 'mulmodTest'
  | 'datasketchAffine32'
  | 'datasketchAffine64'
  | 'datasketchLegacy';

/** A kernel's complete module: WGSL has no #include, so the shared functions go first. */
export function kernelSource(sources: ShaderSources, kernel: KernelName): string {
  return `${sources.mersenne61}\n// ---- ${SHADER_FILES[kernel]} ----\n${sources[kernel]}`;
}
