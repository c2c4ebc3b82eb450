/**
 * Browser entry point of the WebGPU backend: devices from navigator.gpu, WGSL
 * bundled by Vite from shaders/ (`?raw`). Never imports the npm `webgpu` package.
 */
import type { HashFamily } from '../hashFamily.js';
import { acquireBrowserDevice } from './browserDevice.js';
import { browserShaderSources } from './browserShaders.js';
import { selectBackend, type BackendChoice, type ResolvedBackend, type SignerTuning } from '../selectBackend.js';

export { WebGpuSigner } from './webGpuSigner.js';
export { browserShaderSources } from './browserShaders.js';
export { acquireBrowserDevice } from './browserDevice.js';

/**
 * `auto` passes a software adapter (Chromium's SwiftShader, lavapipe, one
 * flagged as a fallback) over for the CPU, as the CLI does: the app's CPU path
 * signs in a pool of workers, one per core, off the page's thread, and in
 * Chromium 156 it was 3–4× faster than SwiftShader on the same cores (50 MB:
 * 7.1 s against 28.2 s; 600 MB: 97 s against 291 s, issue 19). `webgpu` still
 * uses such an adapter.
 */
export function resolveBrowserBackend(
  choice: BackendChoice,
  family: HashFamily,
  tuning: SignerTuning = {},
): Promise<ResolvedBackend> {
  return selectBackend(
    choice,
    family,
    {
      acquireDevice: () => acquireBrowserDevice(),
      shaderSources: () => browserShaderSources,
      preferCpuOverSoftwareAdapters: true,
    },
    tuning,
  );
}
