/**
 * What differs between the WebGPU signing kernels of the two schemes; the
 * signer (webGpuSigner.ts: chunks, buffers, pipelining, combining) is shared.
 * Both kernels have the same bindings and write k (lo, hi) minima per segment.
 */
import type { HashFamily } from '../hashFamily.js';
import { densifyBatch } from '../oph.js';
import { segmentCapFor, type Chunk } from './plan.js';
import { isDatasketchScheme } from '../datasketchFamily.js';
import { DATASKETCH_KERNELS } from './datasketchKernels.js';

import type { SigningKernel } from './kernelShape.js';

export type { SigningKernel } from './kernelShape.js';

function coefficientWords(family: HashFamily, count: number): Uint32Array<ArrayBuffer> {
  const words = new Uint32Array(4 * count);
  for (let i = 0; i < count; i++)
    words.set([family.a[2 * i], family.a[2 * i + 1], family.b[2 * i], family.b[2 * i + 1]], 4 * i);
  return words;
}

export const CLASSIC_KERNEL: SigningKernel = {
  name: 'minhash',
  entryPoint: 'sign_segments',
  invocationsPerSegment: (k) => k,
  segmentCap: segmentCapFor,
  coefficients: (family) => coefficientWords(family, family.k),
};

/** Few shingles per segment would make the k output pairs (readback, combining) dominate. */
const OPH_MIN_SEGMENT_FACTOR = 4;
/** Segments a chunk should offer so a large device has enough invocations. */
const OPH_TARGET_SEGMENTS = 4096;

export const OPH_KERNEL: SigningKernel = {
  name: 'oph',
  entryPoint: 'oph_segments',
  invocationsPerSegment: () => 1,
  segmentCap: (shingles, k) => Math.max(OPH_MIN_SEGMENT_FACTOR * k, Math.ceil(shingles / OPH_TARGET_SEGMENTS)),
  // (a_0, b_0), then (c, 0, 0, 0): the probe key of densification.
  coefficients: (family) => Uint32Array.from([...coefficientWords(family, 1), family.probeKey ?? 0, 0, 0, 0]),
  segmentData: wholeDocumentFlags,
  finish: densifyBatch,
};

/** 1 for a segment that is its document's every shingle: the kernel densifies those rows itself. */
export function wholeDocumentFlags(chunk: Chunk, offsets: Uint32Array): Uint32Array<ArrayBuffer> {
  const flags = new Uint32Array(chunk.segmentDocs.length);
  for (let s = 0; s < flags.length; s++) {
    const d = chunk.segmentDocs[s];
    const length = chunk.segmentStarts[s + 1] - chunk.segmentStarts[s];
    flags[s] = length === offsets[d + 1] - offsets[d] ? 1 : 0;
  }
  return flags;
}

/** The kernel of the family's scheme: the WebGPU backend's one dispatch on it. */
export function kernelFor(family: HashFamily): SigningKernel {
  if (isDatasketchScheme(family.scheme)) return DATASKETCH_KERNELS[family.scheme];
  return family.scheme === 'oph' ? OPH_KERNEL : CLASSIC_KERNEL;
}
