/**
 * The WebGPU kernels of the datasketch schemes (shaders/datasketch_*.wgsl): the
 * classic kernel's shape (one invocation per segment and slot, same bindings),
 * so the signer's chunking and combining serve them unchanged.
 */
import type { DatasketchScheme } from '../datasketchFamily.js';
import type { HashFamily } from '../hashFamily.js';
import { segmentCapFor } from './plan.js';
import type { SigningKernel } from './kernelShape.js';

/** vec4u (a.lo, a.hi, b.lo, b.hi) per slot, as the classic kernel's. */
function slotCoefficients(family: HashFamily): Uint32Array<ArrayBuffer> {
  const words = new Uint32Array(4 * family.k);
  for (let i = 0; i < family.k; i++)
    words.set([family.a[2 * i], family.a[2 * i + 1], family.b[2 * i], family.b[2 * i + 1]], 4 * i);
  return words;
}

function kernel(name: SigningKernel['name'], entryPoint: string): SigningKernel {
  return {
    name,
    entryPoint,
    invocationsPerSegment: (k) => k,
    segmentCap: segmentCapFor,
    coefficients: slotCoefficients,
  };
}

export const DATASKETCH_KERNELS: Readonly<Record<DatasketchScheme, SigningKernel>> = {
  'datasketch-affine32': kernel('datasketchAffine32', 'datasketch_affine32'),
  'datasketch-affine64': kernel('datasketchAffine64', 'datasketch_affine64'),
  'datasketch-legacy': kernel('datasketchLegacy', 'datasketch_legacy'),
};
