/**
 * One CPU signing worker of the tab's pool (cpuSignerPool.ts), started by the
 * dedup worker: a part of a batch in, its signatures out, with the CPU
 * backend's signBatchOnCpu (the kernel a wasm build would replace).
 */
import { signBatchOnCpu } from '../src/signatures/cpuSigner.js';
import type { HashFamily } from '../src/signatures/hashFamily.js';

export interface SignRequest {
  readonly id: number;
  readonly family: Pick<HashFamily, 'k' | 'a' | 'b'>;
  readonly shingles: Uint32Array;
  readonly offsets: Uint32Array;
}

self.onmessage = (event: MessageEvent<SignRequest>) => {
  const { id, family, shingles, offsets } = event.data;
  const signatures = signBatchOnCpu(family as HashFamily, { shingles, offsets }); // it reads k, a and b only;
  (self as unknown as Worker).postMessage({ id, signatures }, [signatures.buffer]);
};
