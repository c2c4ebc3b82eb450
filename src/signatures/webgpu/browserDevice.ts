/** Browser: a GPU device from navigator.gpu. Browsers do not say which native API backs WebGPU. */
import { NoAdapterError, requestSigningDevice, summarizeAdapter, type AcquiredDevice } from './adapter.js';

export async function acquireBrowserDevice(gpu: GPU | undefined = globalThis.navigator?.gpu): Promise<AcquiredDevice> {
  if (!gpu) throw new NoAdapterError('navigator.gpu is missing (no WebGPU in this browser, or not a secure context)');
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new NoAdapterError('no adapter (navigator.gpu.requestAdapter() returned null)');
  const device = await requestSigningDevice(adapter, 'gpudedup signer');
  return {
    device,
    adapter: summarizeAdapter(adapter, 'not exposed by the browser'),
    adapterLimits: adapter.limits,
    release: () => device.destroy(),
  };
}
