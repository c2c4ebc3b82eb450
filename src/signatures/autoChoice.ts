/**
 * Whether `--backend auto` should pass a WebGPU adapter over for the wasm CPU
 * path. A software adapter (lavapipe/llvmpipe, SwiftShader, or one flagged as
 * a fallback) runs its shaders on the very cores the CPU path would use, and
 * measured 9× slower than wasm SIMD on one core there (bench/RESULTS.md, `npm
 * run bench:kernels` on the 2-core dev machine: lavapipe 64 M evaluations/s
 * with both cores, wasm SIMD 584 M on one). Not measured per run: a race would
 * cost every run a second of start-up.
 * `--backend webgpu` still uses such an adapter.
 */
import type { AdapterSummary } from './webgpu/adapter.js';

const SOFTWARE = /llvmpipe|lavapipe|swiftshader|softpipe|software|warp/i;

export function isSoftwareAdapter(adapter: AdapterSummary): boolean {
  return (
    adapter.fallback ||
    SOFTWARE.test(`${adapter.vendor} ${adapter.architecture} ${adapter.device} ${adapter.description}`)
  );
}

/** Why auto skips this adapter for the CPU, or undefined when it should sign on it. */
export function reasonToPreferCpu(adapter: AdapterSummary): string | undefined {
  if (!isSoftwareAdapter(adapter)) return undefined;
  return (
    'software adapter on the same cores, slower than the wasm SIMD CPU path here (bench/RESULTS.md); --backend ' +
    'webgpu uses it anyway'
  );
}
