/**
 * One worker of the tab's compute pool (computePool.ts), started by the dedup
 * worker: shingles a slice of a batch's texts, or signs a slice of a batch's
 * shingle sets with the CPU kernel the pool chose (cpuKernel.ts: wasm SIMD,
 * scalar wasm, or the TypeScript lanes); shingling runs the wasm kernel inside
 * shingleDocument.
 */
import { shingleDocument, type ShingleOptions } from '../src/shingles/shingles.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { openCpuKernel, type CpuKernelName, type SigningFamily } from '../src/signatures/cpuKernel.js';

export type ComputeRequest =
  | { readonly id: number; readonly kind: 'sign'; readonly family: SigningFamily; readonly kernel: CpuKernelName; readonly shingles: Uint32Array; readonly offsets: Uint32Array }
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
    const words = openCpuKernel(request.kernel).kernel.sign(request.family, request);
    response = { id: request.id, words };
  } else {
    const packed = pack(request.texts.map((text) => shingleDocument(text, request.options)));
    response = { id: request.id, words: packed.shingles, offsets: packed.offsets };
  }
  const transfer = [response.words.buffer as ArrayBuffer, ...(response.offsets ? [response.offsets.buffer as ArrayBuffer] : [])];
  (self as unknown as Worker).postMessage(response, transfer);
};
