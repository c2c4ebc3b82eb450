/** Worker thread of ParallelCpuSigner: signs the document ranges it is sent. */
import { parentPort } from 'node:worker_threads';
import { signBatchOnCpu } from './cpuSigner.js';
import type { HashFamily } from './hashFamily.js';

export interface CpuWorkerRequest {
  readonly id: number;
  readonly family: Pick<HashFamily, 'k' | 'a' | 'b'>;
  readonly shingles: Uint32Array;
  readonly offsets: Uint32Array;
}

export interface CpuWorkerResponse {
  readonly id: number;
  readonly signatures?: Uint32Array;
  readonly error?: string;
}

parentPort?.on('message', (request: CpuWorkerRequest) => {
  try {
    const family = { ...request.family, seed: { hi: 0, lo: 0 } }; // the seed is not used by signing
    const signatures = signBatchOnCpu(family, { shingles: request.shingles, offsets: request.offsets });
    parentPort!.postMessage({ id: request.id, signatures } satisfies CpuWorkerResponse, [signatures.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: String(error) } satisfies CpuWorkerResponse);
  }
});
