/**
 * SimHash's banding (`--scheme simhash --max-hamming h`): Manku's block tables are
 * the banding with h + 1 bands of ⌊64 / (h + 1)⌋ one-bit slots — a pair within h
 * bits differs in at most h of the h + 1 disjoint blocks, so it shares one — and
 * what a Hamming distance says about the angle (P[a bit differs] = θ / π).
 */
import type { LshParams } from './lshParams.js';
import { SIMHASH_BITS } from '../signatures/simhash.js';

/** Manku's block tables as banding: h + 1 bands of ⌊64 / (h + 1)⌋ bits. */
export function simhashBands(maxHamming: number): LshParams {
  return { bands: maxHamming + 1, rows: Math.floor(SIMHASH_BITS / (maxHamming + 1)) };
}

/** The decision threshold of Hamming ≤ h: the fraction of equal bits 1 − h / 64. */
export function simhashThreshold(maxHamming: number): number {
  return (SIMHASH_BITS - maxHamming) / SIMHASH_BITS;
}

/** The banding and threshold of a SimHash run at Hamming ≤ h (dedup, the library, the tab, the index). */
export function simhashBanding(maxHamming: number): { readonly threshold: number; readonly lsh: LshParams } {
  return { threshold: simhashThreshold(maxHamming), lsh: simhashBands(maxHamming) };
}

/** `gpudedup params --max-hamming h`: the block tables, and what a Hamming distance says about the cosine. */
export function simhashParams(maxHamming: number) {
  const { bands, rows } = simhashBands(maxHamming);
  const distances = [...new Set([0, 1, 2, 3, 4, 6, 8, 12, 16, maxHamming])].sort((a, b) => a - b);
  return {
    scheme: 'simhash',
    bits: SIMHASH_BITS,
    maxHamming,
    blocks: bands,
    bitsPerBlock: rows,
    bitsUnused: SIMHASH_BITS - bands * rows,
    cosineAtMaxHamming: Math.cos((Math.PI * maxHamming) / SIMHASH_BITS),
    // P[a bit differs] = θ / π, so d of 64 bits estimates θ = π·d / 64.
    distances: distances.map((d) => ({
      hamming: d,
      angle: (Math.PI * d) / SIMHASH_BITS,
      cosine: Math.cos((Math.PI * d) / SIMHASH_BITS),
    })),
  };
}
