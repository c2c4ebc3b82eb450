/**
 * Picks the signing backend in Node: `cpu`, `webgpu`, or `auto` (WebGPU when
 * a hardware adapter is there, else CPU: a software adapter is slower than the
 * wasm CPU path on the same cores, autoChoice.ts). Every candidate tried leaves a note saying
 * why it was taken or why it failed, so the CLI can tell the user. In Node the
 * CPU backend runs on worker threads, as many as options.ts's defaultThreads gives unless told otherwise.
 *
 * Dawn (the npm `webgpu` package) and the WGSL files are imported only when
 * WebGPU is asked for: a CPU run never loads the native module, and browser
 * code uses webgpu/browser.ts instead of this file.
 */
import { availableParallelism } from 'node:os';
import { ParallelCpuSigner } from '../../signatures/cpuParallel.js';
import { FallbackSigner } from '../../signatures/fallbackSigner.js';
import type { HashFamily } from '../../signatures/hashFamily.js';
import {
  selectBackend,
  type BackendChoice,
  type ResolvedBackend,
  type SignerTuning,
} from '../../signatures/selectBackend.js';
import { errorMessage } from '../../errors.js';
import type { FirstPassSigner } from '../signedUnits.js';
import { nodeFirstPassWorkers } from './firstPassWorkers.js';
import { noGpuDeviceReason } from '../../signatures/gpuDevices.js';
import { defaultThreads, OPTIONS } from '../../options.js';

export type { BackendChoice, ResolvedBackend } from '../../signatures/selectBackend.js';

export interface NodeBackendOptions {
  /** WebGPU batch sizing (tests and benchmarks). */
  readonly tuning?: SignerTuning;
  /** Worker threads of the CPU backend and of shingling; default defaultThreads's (options.ts) for `inputBytes`. */
  readonly cpuThreads?: number;
  /** The input's bytes as stored, which the default thread count is sized to; undefined when unknown. */
  readonly inputBytes?: number;
}

/** The Node device module, loaded only when WebGPU is asked for; the error says why Dawn would not load. */
export async function importDawn(): Promise<typeof import('../../signatures/webgpu/nodeDevice.js')> {
  try {
    return await import('../../signatures/webgpu/nodeDevice.js');
  } catch (error) {
    throw new Error(`cannot load Dawn, the npm package \`webgpu\` (${errorMessage(error)})`);
  }
}

/**
 * Worker threads for `requested` (default: defaultThreads in options.ts, one per core as far as `inputBytes` can feed
 * them), at most one per core: more only add memory and contention for the same cores.
 */
export function cpuThreads(requested?: number, inputBytes?: number): { threads: number; note?: string } {
  const cores = availableParallelism();
  if (requested === undefined) return { threads: defaultThreads(cores, inputBytes) };
  OPTIONS.threads.check(requested);
  if (requested <= cores) return { threads: requested };
  return { threads: cores, note: `cpu: ${requested} threads requested, ${cores} used (one per core of this machine)` };
}

export async function resolveBackend(
  choice: BackendChoice,
  family: HashFamily,
  options: NodeBackendOptions = {},
): Promise<ResolvedBackend> {
  const { threads } = cpuThreads(options.cpuThreads, options.inputBytes);
  return selectBackend(
    choice,
    family,
    {
      acquireDevice: async () => (await importDawn()).acquireNodeDevice(),
      shaderSources: async () => (await import('../../signatures/webgpu/nodeShaders.js')).loadShaderSources(),
      createCpuSigner: (f) => new ParallelCpuSigner(f, threads),
      preferCpuOverSoftwareAdapters: true,
      noHardwareReason: () => noGpuDeviceReason(),
    },
    options.tuning,
  );
}

/**
 * The backend a Node run signs with: the resolved one, wrapped so that a GPU
 * failure hands the remaining batches to the (multi-threaded) CPU backend; and
 * the first pass's workers, which shingle for it (or sign, on the CPU) on as
 * many threads. Destroy both when done.
 */
export async function openSigner(
  choice: BackendChoice,
  family: HashFamily,
  options: NodeBackendOptions & { readonly onFallback?: (error: Error) => void } = {},
): Promise<{ signer: FallbackSigner; firstPass: FirstPassSigner; notes: readonly string[] }> {
  const resolved = await resolveBackend(choice, family, options);
  const { threads, note } = cpuThreads(options.cpuThreads, options.inputBytes);
  const signer = new FallbackSigner(
    resolved.backend,
    family,
    options.onFallback,
    (f) => new ParallelCpuSigner(f, threads),
  );
  // On the CPU the first pass's workers sign with the kernel the backend loaded; with a GPU they shingle for it.
  const cpu =
    resolved.backend instanceof ParallelCpuSigner ? { kernel: resolved.backend.kernelName, family } : undefined;
  const firstPass: FirstPassSigner = { backend: signer, workers: nodeFirstPassWorkers(threads), cpu };
  return { signer, firstPass, notes: note === undefined ? resolved.notes : [note, ...resolved.notes] };
}
