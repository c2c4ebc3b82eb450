/**
 * What a signing kernel is to the WebGPU backend (signingKernel.ts has ours, datasketchKernels.ts datasketch's): apart,
 * so neither imports the other back.
 */
import type { HashFamily } from '../hashFamilyShape.js';
import type { Chunk } from './plan.js';
import type { KernelName } from './shaderSources.js';

export interface SigningKernel {
  readonly name: KernelName;
  readonly entryPoint: string;
  /** Invocations one segment takes: k for classic (one per slot), 1 for OPH. */
  invocationsPerSegment(k: number): number;
  /** Longest segment for a chunk of `shingles` shingles. */
  segmentCap(shingles: number, k: number): number;
  /** The coefficients buffer: vec4u (a.lo, a.hi, b.lo, b.hi) per hash function the kernel uses. */
  coefficients(family: HashFamily): Uint32Array<ArrayBuffer>;
  /** Per-segment words for binding 5 of the kernel, if it takes any. */
  segmentData?(chunk: Chunk, offsets: Uint32Array): Uint32Array<ArrayBuffer>;
  /** After a batch's segments are combined: OPH densifies the rows still holding empty bins; returns their count. */
  finish?(family: HashFamily, signatures: Uint32Array): number;
}
