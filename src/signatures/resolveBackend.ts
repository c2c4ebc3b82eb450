/**
 * Picks the signing backend in Node: `cpu`, `webgpu`, or `auto` (WebGPU when
 * an adapter is there, else CPU). Every candidate tried leaves a note saying
 * why it was taken or why it failed, so the CLI can tell the user.
 *
 * Dawn (the npm `webgpu` package) and the WGSL files are imported only when
 * WebGPU is asked for: a CPU run never loads the native module, and browser
 * code uses webgpu/browser.ts instead of this file.
 */
import type { HashFamily } from './hashFamily.js';
import { selectBackend, type BackendChoice, type ResolvedBackend, type SignerTuning } from './webgpu/selectBackend.js';

export type { BackendChoice, ResolvedBackend } from './webgpu/selectBackend.js';

export async function resolveBackend(choice: BackendChoice, family: HashFamily, tuning: SignerTuning = {}): Promise<ResolvedBackend> {
  return selectBackend(
    choice,
    family,
    {
      acquireDevice: async () => {
        let nodeDevice: typeof import('./webgpu/nodeDevice.js');
        try {
          nodeDevice = await import('./webgpu/nodeDevice.js');
        } catch (error) {
          throw new Error(`cannot load Dawn, the npm package \`webgpu\` (${error instanceof Error ? error.message : String(error)})`);
        }
        return nodeDevice.acquireNodeDevice();
      },
      shaderSources: async () => (await import('./webgpu/nodeShaders.js')).loadShaderSources(),
    },
    tuning,
  );
}
