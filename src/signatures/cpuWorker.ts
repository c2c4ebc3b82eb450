/** Worker thread of ParallelCpuSigner: signs the document ranges it is sent. */
import { openCpuKernel, type CpuKernelName } from './cpuKernel.js';
import type { HashFamily } from './hashFamily.js';
import { serveRequests, type PoolRequest, type PoolResponse } from '../workers/workerPool.js';

export interface CpuWorkerRequest extends PoolRequest {
  readonly family: Omit<HashFamily, 'seed'>;
  /** The kernel the main thread loaded; a worker where it does not load falls back like openCpuKernel. */
  readonly kernel: CpuKernelName;
  readonly shingles: Uint32Array;
  readonly offsets: Uint32Array;
}

export interface CpuWorkerResponse extends PoolResponse {
  readonly signatures?: Uint32Array;
}

serveRequests<CpuWorkerRequest, CpuWorkerResponse>((request) => {
  const signatures = openCpuKernel(request.kernel).kernel.sign(request.family, {
    shingles: request.shingles,
    offsets: request.offsets,
  });
  return { response: { signatures }, transfer: [signatures.buffer as ArrayBuffer] };
});
