/**
 * What the backend knows about the adapter it runs on, and how it asks for a
 * device: the same in Node (nodeDevice.ts) and in browsers (browserDevice.ts).
 */

export interface AdapterSummary {
  readonly vendor: string;
  readonly architecture: string;
  readonly device: string;
  readonly description: string;
  /** Native API under WebGPU (vulkan, metal, d3d12, ...), or why it is unknown. */
  readonly backend: string;
  readonly fallback: boolean;
}

/** A device plus what it came from; release() destroys it and lets its GPU instance go. */
export interface AcquiredDevice {
  readonly device: GPUDevice;
  readonly adapter: AdapterSummary;
  readonly adapterLimits: GPUSupportedLimits;
  release(): void;
}

/** Thrown by device acquisition when there is nothing to run on; the message says why. */
export class NoAdapterError extends Error {
  override readonly name = 'NoAdapterError';
}

export function summarizeAdapter(adapter: GPUAdapter, backend: string): AdapterSummary {
  const info = adapter.info;
  const fallback = (info as { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false;
  return {
    vendor: info.vendor || 'unknown vendor',
    architecture: info.architecture || 'unknown architecture',
    device: info.device,
    description: info.description,
    backend,
    fallback,
  };
}

/** One line for summaries: "WebGPU on mesa software (llvmpipe: Mesa 25.0.7 …), backend vulkan". */
export function describeAdapter(a: AdapterSummary): string {
  const detail = a.description || a.device;
  return (
    `WebGPU on ${a.vendor} ${a.architecture}` +
    (detail ? ` (${detail})` : '') +
    `, backend ${a.backend}` +
    (a.fallback ? ', software fallback adapter' : '')
  );
}

/**
 * The limits batching is sized from, raised to what the adapter allows: the
 * defaults (128 MiB bindings, 256 MiB buffers) would needlessly cap k·segments.
 */
const RAISED_LIMITS = ['maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupsPerDimension'] as const;

export async function requestSigningDevice(adapter: GPUAdapter, label: string): Promise<GPUDevice> {
  const requiredLimits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) requiredLimits[name] = adapter.limits[name];
  return adapter.requestDevice({ label, requiredLimits });
}
