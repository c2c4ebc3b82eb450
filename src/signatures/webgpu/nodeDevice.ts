/**
 * Node: GPU devices from Dawn through the npm `webgpu` package. Only Node
 * entry points (resolveBackend.ts, the CLI, tests, benchmarks) import this
 * file, so a browser bundle never pulls in the native module.
 *
 * A live device busy-waits about one core and keeps the process alive, so
 * release() destroys it. The Dawn instance (the object from create()) is kept
 * for the life of the process, one per set of flags, like a browser's single
 * navigator.gpu: letting it be garbage-collected while a destroyed device's
 * last work is still running on lavapipe's threads aborts the process
 * ("The futex facility returned an unexpected error code"). With no live
 * device left, a held instance does not keep Node from exiting.
 */
import { create, globals } from 'webgpu';
import { NoAdapterError, requestSigningDevice, summarizeAdapter, type AcquiredDevice } from './adapter.js';
import { errorMessage } from '../../errors.js';

/** WebGPU's constant namespaces (GPUBufferUsage, GPUMapMode, ...) are globals in browsers. */
Object.assign(globalThis, globals);

export interface DawnAdapterEntry {
  readonly backend: string;
  readonly name: string;
}

/**
 * Every adapter Dawn can see. Dawn has no API for this; asked for an adapter
 * name that does not exist it throws a message listing them, one per line as
 * ` * backend: 'vulkan', name: 'llvmpipe (LLVM 15.0.6, 256 bits)'`.
 */
export async function listDawnAdapters(): Promise<DawnAdapterEntry[]> {
  let gpu: GPU | undefined;
  try {
    gpu = create(['adapter=\u0001gpudedup: list adapters']);
    await gpu.requestAdapter();
    return [];
  } catch (error) {
    const message = errorMessage(error);
    return [...message.matchAll(/\* backend: '([^']*)', name: '([^']*)'/g)].map((m) => ({ backend: m[1], name: m[2] }));
  } finally {
    gpu = undefined;
  }
}

/** Letters and digits only, lower case: Dawn's adapter name and info.device spell the same words differently. */
const squash = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

function backendOf(adapter: GPUAdapter, listed: readonly DawnAdapterEntry[]): string {
  const device = squash(adapter.info.device);
  const named = listed.find((entry) => device !== '' && squash(entry.name) === device);
  if (named) return named.backend;
  const backends = new Set(listed.map((entry) => entry.backend));
  return backends.size === 1 ? [...backends][0] : 'unknown (Dawn does not say)';
}

export interface NodeDeviceOptions {
  /** A specific adapter from listDawnAdapters(); by default Dawn's own first choice. */
  readonly adapter?: DawnAdapterEntry;
  readonly label?: string;
}

const instances = new Map<string, GPU>();

function dawnInstance(flags: string[]): GPU {
  const key = flags.join('\n');
  let gpu = instances.get(key);
  if (!gpu) {
    gpu = create(flags);
    instances.set(key, gpu);
  }
  return gpu;
}

export async function acquireNodeDevice(options: NodeDeviceOptions = {}): Promise<AcquiredDevice> {
  const listed = await listDawnAdapters();
  const flags = options.adapter ? [`backend=${options.adapter.backend}`, `adapter=${options.adapter.name}`] : [];
  const adapter = await dawnInstance(flags).requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new NoAdapterError(
      listed.length === 0
        ? 'no adapter (Dawn returned null and lists none; on Debian 12 without a GPU run scripts/install-lavapipe.sh as root)'
        : `no adapter (Dawn returned null although it lists ${listed.map((e) => `${e.backend} ${e.name}`).join(', ')})`,
    );
  }
  const device = await requestSigningDevice(adapter, options.label ?? 'gpudedup signer');
  return {
    device,
    adapter: summarizeAdapter(adapter, options.adapter?.backend ?? backendOf(adapter, listed)),
    adapterLimits: adapter.limits,
    release: () => device.destroy(),
  };
}
