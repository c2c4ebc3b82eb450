/**
 * The CPU backend on one thread with the fastest kernel that loads (wasm SIMD,
 * else scalar wasm, else the TypeScript lanes of CpuSigner), used where no
 * worker threads are: the browser, and CPU runs with one thread.
 */
import type { ShingleBatch, SignerBackend } from './backend.js';
import { CPU_KERNEL_LABELS, openCpuKernel, type CpuKernel, type CpuKernelName } from './cpuKernel.js';
import type { HashFamily } from './hashFamily.js';

export class WasmSigner implements SignerBackend {
  readonly kind = 'cpu' as const;
  readonly description: string;
  readonly k: number;
  /** Why a faster kernel was passed over, if one was (e.g. no SIMD in this engine). */
  readonly notes: readonly string[];
  private readonly kernel: CpuKernel;

  constructor(
    private readonly family: HashFamily,
    preferred: CpuKernelName = 'wasm-simd',
  ) {
    this.k = family.k;
    const { kernel, notes } = openCpuKernel(preferred);
    this.kernel = kernel;
    this.notes = notes;
    this.description = `CPU (${CPU_KERNEL_LABELS[kernel.name]})`;
  }

  /** The kernel that signs: 'wasm-simd', 'wasm-scalar' or 'typescript'. */
  get kernelName(): CpuKernelName {
    return this.kernel.name;
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    return this.kernel.sign(this.family, batch);
  }

  destroy(): void {}
}
