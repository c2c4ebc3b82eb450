/**
 * Picks the signing backend: `cpu`, `webgpu`, or `auto` (WebGPU when an adapter
 * is there, else CPU). Every candidate tried leaves a note saying why it was
 * taken or why it failed, so the CLI can tell the user.
 */
import type { SignerBackend } from './backend.js';
import { CpuSigner } from './cpuSigner.js';
import type { HashFamily } from './hashFamily.js';

export type BackendChoice = 'cpu' | 'webgpu' | 'auto';

export interface ResolvedBackend {
  readonly backend: SignerBackend;
  /** One line per candidate tried, in order, e.g. "webgpu: no adapter (…)" then "cpu: chosen". */
  readonly notes: readonly string[];
}

export async function resolveBackend(choice: BackendChoice, family: HashFamily): Promise<ResolvedBackend> {
  const notes: string[] = [];
  if (choice === 'webgpu' || choice === 'auto') {
    // Replaced by the WebGPU backend (issue 3).
    const reason = 'WebGPU backend not built yet';
    if (choice === 'webgpu') throw new Error(`webgpu backend unavailable: ${reason}`);
    notes.push(`webgpu: ${reason}`);
  }
  const backend = new CpuSigner(family);
  notes.push(`cpu: chosen`);
  return { backend, notes };
}
