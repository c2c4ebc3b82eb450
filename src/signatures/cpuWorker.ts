/** Worker thread of ParallelCpuSigner: signs the document ranges it is sent. */
import { signBatchOnCpu } from './cpuSigner.js';
import type { HashFamily } from './hashFamily.js';
import { serveRequests, type PoolRequest, type PoolResponse } from '../workers/workerPool.js';

export interface CpuWorkerRequest extends PoolRequest {
  readonly family: Omit<HashFamily, 'seed'>;
  readonly shingles: Uint32Array;
  readonly offsets: Uint32Array;
}

export interface CpuWorkerResponse extends PoolResponse {
  readonly signatures?: Uint32Array;
}

serveRequests<CpuWorkerRequest, CpuWorkerResponse>((request) => {
  const family = { ...request.family, seed: { hi: 0, lo: 0 } }; // the seed is not used by signing
  const signatures = signBatchOnCpu(family, { shingles: request.shingles, offsets: request.offsets });
  return { response: { signatures }, transfer: [signatures.buffer as ArrayBuffer] };
});
