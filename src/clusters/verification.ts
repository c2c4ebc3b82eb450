/**
 * Verification of candidate pairs: only pairs whose similarity reaches the
 * threshold join clusters.
 *
 * - estimate: the fraction of MinHash slots on which the two signatures agree
 *   (unbiased for the Jaccard similarity, standard error √(J(1−J)/k)).
 * - exact: the Jaccard similarity of the two shingle sets.
 * - none: every candidate passes (LSH alone, like text-dedup's default).
 */
import type { PairList } from '../bands/pairSet.js';
import { signatureAgreement, type SignatureMatrix } from '../bands/signatureMatrix.js';

export type VerifyMode = 'estimate' | 'exact' | 'none';

export const VERIFY_MODES: readonly VerifyMode[] = ['estimate', 'exact', 'none'];

/** Exact Jaccard similarity of two signed documents, from their shingle sets. */
export type ExactSimilarity = (a: number, b: number) => number;

export interface VerifiedPairs extends PairList {
  /** Signature agreement of each verified pair. */
  readonly estimate: Float64Array;
  /** Exact Jaccard of each verified pair, when verification was exact. */
  readonly exact?: Float64Array;
  /** Candidate pairs examined. */
  readonly candidates: number;
}

/**
 * |A ∩ B| / |A ∪ B| for two deduplicated shingle sets of (lo, hi) pairs (as
 * `shingleDocument` returns them). Hashes the smaller set, probes with the other.
 * Two empty sets have similarity 0: empty documents are never duplicates.
 */
export function exactJaccard(x: Uint32Array, y: Uint32Array): number {
  const [small, large] = x.length <= y.length ? [x, y] : [y, x];
  const smallCount = small.length / 2;
  const largeCount = large.length / 2;
  if (smallCount === 0) return 0;
  let capacity = 4;
  while (capacity < smallCount * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Int32Array(capacity).fill(-1);
  for (let i = 0; i < smallCount; i++) {
    let slot = hashPair(small[2 * i], small[2 * i + 1]) & mask;
    while (slots[slot] >= 0) slot = (slot + 1) & mask;
    slots[slot] = i;
  }
  let common = 0;
  for (let i = 0; i < largeCount; i++) {
    const lo = large[2 * i];
    const hi = large[2 * i + 1];
    let slot = hashPair(lo, hi) & mask;
    for (;;) {
      const j = slots[slot];
      if (j < 0) break;
      if (small[2 * j] === lo && small[2 * j + 1] === hi) {
        common++;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return common / (smallCount + largeCount - common);
}

function hashPair(lo: number, hi: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) >>> 7;
}

/** Keeps the candidate pairs that pass `mode` at `threshold`, with their similarities. */
export function verifyPairs(
  candidates: PairList,
  mode: VerifyMode,
  threshold: number,
  signatures: SignatureMatrix,
  exactSimilarity?: ExactSimilarity,
  onProgress?: (done: number) => void,
): VerifiedPairs {
  if (mode === 'exact' && exactSimilarity === undefined) throw new Error('exact verification needs the shingle sets');
  const n = candidates.a.length;
  const keepA: number[] = [];
  const keepB: number[] = [];
  const estimates: number[] = [];
  const exacts: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = candidates.a[i];
    const b = candidates.b[i];
    const estimate = signatureAgreement(signatures, a, b);
    let pass: boolean;
    if (mode === 'exact') {
      const exact = exactSimilarity!(a, b);
      pass = exact >= threshold;
      if (pass) exacts.push(exact);
    } else {
      pass = mode === 'none' || estimate >= threshold;
    }
    if (pass) {
      keepA.push(a);
      keepB.push(b);
      estimates.push(estimate);
    }
    if (onProgress !== undefined && (i & 0xffff) === 0xffff) onProgress(i + 1);
  }
  onProgress?.(n);
  return {
    a: Uint32Array.from(keepA),
    b: Uint32Array.from(keepB),
    estimate: Float64Array.from(estimates),
    exact: mode === 'exact' ? Float64Array.from(exacts) : undefined,
    candidates: n,
  };
}
