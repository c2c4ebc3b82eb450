/**
 * Backend choice, the same in Node and browsers: only how a device and the
 * shader sources are obtained differs (resolveBackend.ts for Node,
 * webgpu/browser.ts for browsers).
 */
import type { SignerBackend } from './backend.js';
import { WasmSigner } from './wasmSigner.js';
import { reasonToPreferCpu } from './autoChoice.js';
import type { HashFamily } from './hashFamily.js';
import { describeAdapter, type AcquiredDevice, type AdapterSummary } from './webgpu/adapter.js';
import type { ShaderSources } from './webgpu/shaderSources.js';
import { WebGpuSigner, type WebGpuSignerOptions } from './webgpu/webGpuSigner.js';
import { SimhashGpuSigner } from './webgpu/simhashSigner.js';
import { errorMessage } from '../errors.js';
import { OPTIONS, type BackendChoice } from '../options.js';

export type { BackendChoice } from '../options.js';

export interface ResolvedBackend {
  readonly backend: SignerBackend;
  /** One line per candidate tried, in order, e.g. "webgpu: no adapter (…)" then "cpu: chosen, CPU (…)". */
  readonly notes: readonly string[];
  /** The software adapter `auto` passed over for the CPU, if it did (for a caller's own wording of why). */
  readonly passedOver?: AdapterSummary;
}

export interface WebGpuEnvironment {
  acquireDevice(): Promise<AcquiredDevice>;
  shaderSources(): ShaderSources | Promise<ShaderSources>;
  /** `auto` passes a software adapter over for the CPU (autoChoice.ts); Node and the browser both ask for it. */
  readonly preferCpuOverSoftwareAdapters?: boolean;
  /**
   * With preferCpuOverSoftwareAdapters: why no hardware adapter can exist
   * here (gpuDevices.ts), so that `auto` goes to the CPU without starting
   * WebGPU at all; undefined to ask for an adapter.
   */
  noHardwareReason?(): string | undefined;
  /** The CPU backend when WebGPU is not used; default one thread (WasmSigner: the fastest CPU kernel that loads). */
  createCpuSigner?(family: HashFamily): SignerBackend;
}

export type SignerTuning = Omit<WebGpuSignerOptions, 'description' | 'release'>;

export async function selectBackend(
  choice: BackendChoice,
  family: HashFamily,
  environment: WebGpuEnvironment,
  tuning: SignerTuning = {},
): Promise<ResolvedBackend> {
  OPTIONS.backend.check(choice); // a misspelled choice ('gpu') is refused, never signed on the CPU without a word
  const notes: string[] = [];
  let passedOver: AdapterSummary | undefined;
  const skip =
    choice === 'auto' && environment.preferCpuOverSoftwareAdapters === true
      ? environment.noHardwareReason?.()
      : undefined;
  if (skip !== undefined) notes.push(`webgpu: ${skip}`);
  else if (choice === 'webgpu' || choice === 'auto') {
    try {
      const backend = await createWebGpuSigner(
        family,
        environment,
        tuning,
        choice === 'auto' && environment.preferCpuOverSoftwareAdapters === true,
      );
      notes.push(`webgpu: chosen, ${backend.description}`);
      return { backend, notes };
    } catch (error) {
      const reason = errorMessage(error);
      if (choice === 'webgpu') throw new Error(`webgpu backend unavailable: ${reason}`, { cause: error });
      notes.push(`webgpu: ${reason}`);
      if (error instanceof PassedOver) passedOver = error.adapter;
    }
  }
  const backend = environment.createCpuSigner?.(family) ?? new WasmSigner(family);
  notes.push(`cpu: chosen, ${backend.description}`);
  for (const note of (backend as { notes?: readonly string[] }).notes ?? []) notes.push(`cpu: ${note}`);
  return { backend, notes, ...(passedOver ? { passedOver } : {}) };
}

class PassedOver extends Error {
  constructor(
    readonly adapter: AdapterSummary,
    reason: string,
  ) {
    super(`passed over ${describeAdapter(adapter)}: ${reason}`);
  }
}

async function createWebGpuSigner(
  family: HashFamily,
  environment: WebGpuEnvironment,
  tuning: SignerTuning,
  passOverSoftware: boolean,
): Promise<WebGpuSigner | SimhashGpuSigner> {
  const sources = await environment.shaderSources();
  const acquired = await environment.acquireDevice();
  const skip = passOverSoftware ? reasonToPreferCpu(acquired.adapter) : undefined;
  if (skip) {
    acquired.release();
    throw new PassedOver(acquired.adapter, skip);
  }
  try {
    if (family.scheme === 'simhash')
      return await SimhashGpuSigner.create(acquired.device, family, sources, {
        description: describeAdapter(acquired.adapter),
        release: () => acquired.release(),
      });
    return await WebGpuSigner.create(acquired.device, family, sources, {
      ...tuning,
      description: describeAdapter(acquired.adapter),
      release: () => acquired.release(),
    });
  } catch (error) {
    acquired.release();
    throw error;
  }
}
