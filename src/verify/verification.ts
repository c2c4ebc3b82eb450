/**
 * Verification of candidate pairs: only pairs whose similarity reaches the
 * threshold join clusters.
 *
 * - estimate: the fraction of MinHash slots on which the two signatures agree
 *   (unbiased for the Jaccard similarity, standard error √(J(1−J)/k)).
 * - exact: the Jaccard similarity of the two shingle sets.
 * - hybrid: the estimate where it is sure, exact Jaccard only inside a margin
 *   around the threshold (estimateBounds.ts: a pair at J = t is decided wrongly
 *   by the estimate with probability ≤ the error rate, 0.001 by default).
 * - none: every candidate passes (LSH alone, like text-dedup's default).
 */
import type { PairList } from '../bands/pairSet.js';
import { agreementEstimate, equalSlots, type SignatureMatrix } from '../bands/signatureMatrix.js';
import type { VerifyMode } from '../options.js';
import {
  countDecision,
  decideEqualSlots,
  isAccepted,
  noDecisions,
  pairRule,
  requireEvidence,
  type DecisionCounts,
  type ExactEvidence,
  type ExactSimilarity,
  type PairDecision,
} from './pairDecision.js';
import { PAIR_DECISIONS, type ExactPairs } from './exactWorkers.js';
import type { SetMeasure } from './exactJaccard.js';

export { VERIFY_MODES, type VerifyMode } from '../options.js';

/** Modes that compute exact Jaccard (all candidates, or those inside the margin): they need shingle sets. */
export const usesShingleSets = (mode: VerifyMode): boolean => mode === 'exact' || mode === 'hybrid';

export type { ExactSimilarity } from './pairDecision.js';
export { exactJaccard } from './exactJaccard.js';

export interface VerifiedPairs extends PairList {
  /** Signature agreement of each verified pair. */
  readonly estimate: Float64Array;
  /**
   * Exact Jaccard of each verified pair, when verification was exact or hybrid (NaN where hybrid decided by the
   * estimate).
   */
  readonly exact?: Float64Array;
  /** Candidate pairs examined. */
  readonly candidates: number;
  /** How many candidates the estimate and exact Jaccard accepted and rejected. */
  readonly decided: DecisionCounts;
}

/** The similarity a verified pair was judged by: exact Jaccard where computed, else the estimate. */
export function verifiedSimilarity(verified: VerifiedPairs, i: number): number {
  const exact = verified.exact?.[i];
  return exact !== undefined && !Number.isNaN(exact) ? exact : verified.estimate[i];
}

export interface VerifyPairsOptions {
  readonly verify: VerifyMode;
  readonly threshold: number;
  readonly signatures: SignatureMatrix;
  /** Needed for exact and hybrid. */
  readonly exactSimilarity?: ExactSimilarity;
  /**
   * Whether both shingle sets are held; a pair without them is decided by the estimate (they passed the memory limit).
   */
  readonly known?: (a: number, b: number) => boolean;
  /** Hybrid: the estimate's error rate at J = threshold (default 0.001). */
  readonly estimateError?: number;
  /** What exact decisions measure: Jaccard (default), or SimHash's angular similarity (exactJaccard.ts). */
  readonly measure?: SetMeasure;
  /** Candidates examined so far, now and then. */
  readonly onProgress?: (done: number) => void;
}

/** Keeps the candidate pairs that pass `verify` at `threshold`, with their similarities. */
export function verifyPairs(candidates: PairList, options: VerifyPairsOptions): VerifiedPairs {
  const { verify, threshold, signatures, exactSimilarity, onProgress } = options;
  requireEvidence(verify, exactSimilarity);
  const rule = pairRule(verify, threshold, signatures, options.estimateError, options.measure);
  let exact = Number.NaN; // the last pair's exact Jaccard, where decidePair computed it
  const evidence: ExactEvidence | undefined = exactSimilarity && {
    similarity: (a, b) => (exact = exactSimilarity(a, b)),
    known: options.known,
    missingSets: 'estimate',
  };
  const kept = new KeptPairs();
  const n = candidates.a.length;
  for (let i = 0; i < n; i++) {
    const a = candidates.a[i];
    const b = candidates.b[i];
    const equal = equalSlots(signatures, a, b);
    const estimate = agreementEstimate(equal, signatures.k, signatures.slotBits);
    exact = Number.NaN;
    kept.add(decideEqualSlots(rule, signatures, equal, a, b, evidence), a, b, estimate, exact);
    if (onProgress !== undefined && (i & 0xffff) === 0xffff) onProgress(i + 1);
  }
  onProgress?.(n);
  return kept.verified(verify, n);
}

/** The decisions counted, and the accepted pairs kept with their similarities, in the order they come. */
class KeptPairs {
  private readonly counts = noDecisions();
  private readonly a: number[] = [];
  private readonly b: number[] = [];
  private readonly estimates: number[] = [];
  private readonly exacts: number[] = [];

  add(decision: PairDecision, a: number, b: number, estimate: number, exact: number): void {
    countDecision(this.counts, decision);
    if (!isAccepted(decision)) return;
    this.a.push(a);
    this.b.push(b);
    this.estimates.push(estimate);
    this.exacts.push(exact);
  }

  verified(verify: VerifyMode, candidates: number): VerifiedPairs {
    return {
      a: Uint32Array.from(this.a),
      b: Uint32Array.from(this.b),
      estimate: Float64Array.from(this.estimates),
      exact: usesShingleSets(verify) ? Float64Array.from(this.exacts) : undefined,
      candidates,
      decided: this.counts,
    };
  }
}

/**
 * verifyPairs with every pair decided on the workers (their sets and `signatures`' rows read where they lie: in
 * shared memory, or the spill file), the main thread only keeping the accepted pairs and counting, batch by batch
 * in candidate order: the same lists and counts. Only where every set can be read (`known` always true).
 */
export async function verifyPairsOnWorkers(
  candidates: PairList,
  options: VerifyPairsOptions,
  workers: ExactPairs,
): Promise<VerifiedPairs> {
  const { verify, threshold, signatures, onProgress } = options;
  const rule = pairRule(verify, threshold, signatures, options.estimateError, options.measure);
  const kept = new KeptPairs();
  await workers.decide(
    signatures,
    candidates,
    rule,
    (from, batch) => {
      for (let i = 0; i < batch.decisions.length; i++) {
        const at = from + i;
        const decision = PAIR_DECISIONS[batch.decisions[i]];
        kept.add(decision, candidates.a[at], candidates.b[at], batch.estimates[i], batch.exacts[i]);
      }
    },
    onProgress,
  );
  return kept.verified(verify, candidates.a.length);
}
