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

export function resolveBrowserBackend(choice: BackendChoice, family: HashFamily, tuning: SignerTuning = {}): Promise<ResolvedBackend> {
  return selectBackend(choice, family, { acquireDevice: () => acquireBrowserDevice(), shaderSources: () => browserShaderSources }, tuning);
}
