/**
 * The dedup worker's signing backend: WebGPU, or the CPU kernels on the first-pass workers, which are started with
 * the first run and kept for the next.
 */
import type { FirstPassWorkers } from '../src/firstPass/ports.js';
import type { FirstPassSigner } from '../src/firstPass/signedUnits.js';
import type { SignerBackend } from '../src/signatures/backend.js';
import { CPU_KERNEL_LABELS, openCpuKernel } from '../src/signatures/cpuKernel.js';
import { FallbackSigner } from '../src/signatures/fallbackSigner.js';
import type { HashFamily } from '../src/signatures/hashFamily.js';
import { hashFamilyOf, type SignatureParams } from '../src/signatures/params.js';
import { describeAdapter } from '../src/signatures/webgpu/adapter.js';
import { resolveBrowserBackend } from '../src/signatures/webgpu/browser.js';
import { WasmSigner } from '../src/signatures/wasmSigner.js';
import type { BackendChoice } from './protocol.js';
import type { StageWorkerPool } from '../src/dedup/dedupDocuments.js';
import { webFirstPassWorkers, webStageWorkers } from './workerPools.js';

/** Shingling and CPU signing on every core; started with the first run, kept for the next. */
let pool: FirstPassWorkers | undefined;
const firstPassWorkers = (): FirstPassWorkers =>
  (pool ??= webFirstPassWorkers(Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 16))));

/** The stages after the first pass on every core too (banding; exact Jaccard where the tab is cross-origin isolated). */
let stages: StageWorkerPool | undefined;
export const stageWorkers = (): StageWorkerPool =>
  (stages ??= webStageWorkers(Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 16))));

/**
 * WebGPU when this worker has a hardware adapter (any adapter when 'webgpu'
 * is chosen), else the CPU backend (identical signatures) with a note saying
 * why: `auto` passes a software adapter over, as the CLI does. A GPU that fails mid-run hands
 * the remaining batches to the CPU (FallbackSigner).
 */
export async function chooseBackend(
  choice: BackendChoice,
  params: SignatureParams,
): Promise<{ backend: FirstPassSigner; note?: string }> {
  const family = hashFamilyOf(params);
  if (choice === 'cpu') return { backend: cpuSigner(family), note: 'CPU backend chosen in the settings.' };
  const resolved = await resolveBrowserBackend(choice, family);
  if (resolved.backend.kind === 'cpu') {
    resolved.backend.destroy(); // the single-threaded CpuSigner: the workers sign the same, on every core
    if (resolved.passedOver !== undefined) {
      return {
        backend: cpuSigner(family),
        note:
          `WebGPU here is a software adapter (${describeAdapter(resolved.passedOver)}), slower than this tab's CPU workers, ` +
          'so documents were signed on the CPU: same signatures. Choose “WebGPU, even a software adapter” as the ' +
          'signing backend to use it anyway.',
      };
    }
    const reason =
      resolved.notes
        .find((n) => n.startsWith('webgpu:'))
        ?.slice('webgpu:'.length)
        .trim() ?? 'unknown reason';
    return {
      backend: cpuSigner(family),
      note: `WebGPU is not available here (${reason}), so documents were signed on the CPU: same signatures, slower.`,
    };
  }
  return { backend: { backend: new FallbackSigner(resolved.backend, family), workers: firstPassWorkers() } };
}

/**
 * The CPU backend: the first-pass workers sign with the fastest kernel that loads here (the backend itself names it,
 * and signs a GPU fallback's batches).
 */
function cpuSigner(family: HashFamily): FirstPassSigner {
  const inline = new WasmSigner(family);
  const workers = firstPassWorkers();
  const kernel = openCpuKernel().kernel;
  const description = `CPU (${CPU_KERNEL_LABELS[kernel.name]}, ${workers.size} worker${workers.size === 1 ? '' : 's'})`;
  const backend: SignerBackend = {
    kind: 'cpu',
    k: family.k,
    description,
    sign: (batch) => inline.sign(batch),
    destroy: () => inline.destroy(),
  };
  return { backend, workers, cpu: { kernel: kernel.name, family } };
}
