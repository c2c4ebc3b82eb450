/**
 * One worker of the tab's compute pool (computePool.ts), started by the dedup
 * worker: shingles a slice of a batch's texts, or signs a slice of a batch's
 * shingle sets with the CPU backend's signBatchOnCpu. These two calls are
 * where faster kernels (wasm) slot in.
 */
import { shingleDocument, type ShingleOptions } from '../src/shingles/shingles.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { signBatchOnCpu } from '../src/signatures/cpuSigner.js';
import type { HashFamily } from '../src/signatures/hashFamily.js';

export type ComputeRequest =
  | { readonly id: number; readonly kind: 'sign'; readonly family: Pick<HashFamily, 'k' | 'a' | 'b'>; readonly shingles: Uint32Array; readonly offsets: Uint32Array }
  | { readonly id: number; readonly kind: 'shingle'; readonly texts: string[]; readonly options: ShingleOptions };

export interface ComputeResponse {
  readonly id: number;
  /** sign: the signatures; shingle: the sets packed (shingles + offsets). */
  readonly words: Uint32Array;
  readonly offsets?: Uint32Array;
}

self.onmessage = (event: MessageEvent<ComputeRequest>) => {
  const request = event.data;
  let response: ComputeResponse;
  if (request.kind === 'sign') {
    const words = signBatchOnCpu(request.family as HashFamily, request); // it reads k, a and b only
    response = { id: request.id, words };
  } else {
    const packed = pack(request.texts.map((text) => shingleDocument(text, request.options)));
    response = { id: request.id, words: packed.shingles, offsets: packed.offsets };
  }
  const transfer = [response.words.buffer as ArrayBuffer, ...(response.offsets ? [response.offsets.buffer as ArrayBuffer] : [])];
  (self as unknown as Worker).postMessage(response, transfer);
};
