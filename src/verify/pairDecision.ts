/**
 * One pair's decision at a threshold, the way verification measures it: by
 * the signature estimate, by exact Jaccard, or hybrid (the estimate where it
 * is sure, exact Jaccard inside the margin of estimateBounds.ts). Candidate
 * verification, decontamination and the representative check of clustering
 * all decide through `decidePair`, each at its own threshold; what only asks
 * whether the estimate can decide (which shingle sets to load) asks
 * `estimateVerdict`, without exact Jaccard at hand.
 */
import { agreementEstimate, equalSlots, type SignatureMatrix } from '../bands/signatureMatrix.js';
import type { VerifyMode } from '../options.js';
import { DEFAULT_ESTIMATE_ERROR, decideByEstimate, estimateBounds, type EstimateBounds } from './estimateBounds.js';
import type { SetMeasure } from './exactJaccard.js';

/** Exact Jaccard similarity of two signed documents, from their shingle sets. */
export type ExactSimilarity = (a: number, b: number) => number;

export interface DecisionCounts {
  estimateAccepted: number;
  estimateRejected: number;
  exactAccepted: number;
  exactRejected: number;
  /** Hybrid pairs inside the margin whose shingle sets were not loaded: rejected (see `ExactEvidence.known`). */
  undecided: number;
  /**
   * Of the estimate's decisions: pairs that needed exact Jaccard but whose sets passed the memory limit (`missingSets:
   * 'estimate'`).
   */
  estimatePastMemoryLimit: number;
}

export const noDecisions = (): DecisionCounts => ({
  estimateAccepted: 0,
  estimateRejected: 0,
  exactAccepted: 0,
  exactRejected: 0,
  undecided: 0,
  estimatePastMemoryLimit: 0,
});

/** How pairs of one matrix are decided at one threshold; hybrid's margin is computed once, here. */
export interface PairRule {
  readonly verify: VerifyMode;
  readonly threshold: number;
  readonly bounds?: EstimateBounds;
  /** What exact decisions measure (exactJaccard.ts): Jaccard when absent; SimHash's angular similarity. */
  readonly measure?: SetMeasure;
}

export function pairRule(
  verify: VerifyMode,
  threshold: number,
  signatures: Pick<SignatureMatrix, 'k' | 'slotBits'>,
  estimateError = DEFAULT_ESTIMATE_ERROR,
  measure?: SetMeasure,
): PairRule {
  const bounds =
    verify === 'hybrid' ? estimateBounds(signatures.k, threshold, estimateError, signatures.slotBits) : undefined;
  return { verify, threshold, bounds, ...(measure === 'angular' ? { measure } : {}) };
}

/**
 * What the estimate alone says: accept, reject, or `exact` where only exact Jaccard decides (always for exact; inside
 * hybrid's margin).
 */
export type EstimateVerdict = 'accept' | 'reject' | 'exact';

/** What turns a count of equal slots into an estimate. */
export type SlotShape = Pick<SignatureMatrix, 'k' | 'slotBits'>;

export function estimateVerdict(rule: PairRule, signatures: SignatureMatrix, a: number, b: number): EstimateVerdict {
  // none and exact never read the count (the rows are not compared for them), but SimHash's Hamming limit does.
  return (rule.verify === 'none' || rule.verify === 'exact') && rule.measure !== 'angular'
    ? verdictOfEqualSlots(rule, signatures, 0)
    : verdictOfEqualSlots(rule, signatures, equalSlots(signatures, a, b));
}

/**
 * estimateVerdict from the number of the k slots on which the pair agrees (all any rule reads of their rows).
 *
 * SimHash (the angular measure) first rejects every pair whose fingerprints differ in more bits than the threshold
 * allows (h of 64 at 1 − h / 64), whatever the mode: the block tables find every pair within h and beyond it only
 * those whose bits happen to collide in a table, which depends on the tables' layout; so a pair beyond h is never a
 * near-duplicate, and exact cosine (exact, hybrid) decides among the pairs within h.
 */
export function verdictOfEqualSlots(rule: PairRule, shape: SlotShape, equal: number): EstimateVerdict {
  if (rule.measure === 'angular' && agreementEstimate(equal, shape.k, shape.slotBits) < rule.threshold) return 'reject';
  switch (rule.verify) {
    case 'none':
      return 'accept';
    case 'estimate':
      return agreementEstimate(equal, shape.k, shape.slotBits) >= rule.threshold ? 'accept' : 'reject';
    case 'exact':
      return 'exact';
    case 'hybrid': {
      const verdict = decideByEstimate(equal, rule.bounds!);
      return verdict === 1 ? 'accept' : verdict === 0 ? 'reject' : 'exact';
    }
  }
}

/** The shingle sets' side of a decision (exact and hybrid). */
export interface ExactEvidence {
  readonly similarity: ExactSimilarity;
  /**
   * Whether both shingle sets are at hand; without it, `similarity` is always
   * called. A pair that needs exact Jaccard without its sets is decided by
   * `missingSets`.
   */
  readonly known?: (a: number, b: number) => boolean;
  /**
   * 'reject' (the default: the cluster check, which never removes unverified):
   * rejected and counted undecided; 'estimate' (candidate verification, when
   * the sets did not fit the memory limit): the estimate at the threshold.
   */
  readonly missingSets?: 'reject' | 'estimate';
}

export type PairDecision =
  | 'estimate accepted'
  | 'estimate rejected'
  | 'exact accepted'
  | 'exact rejected'
  /** Inside the margin without shingle sets: rejected. */
  | 'undecided'
  | 'estimate accepted past memory limit'
  | 'estimate rejected past memory limit';

/** The decision on the pair (a, b); exact Jaccard is asked of `evidence` only where the estimate cannot decide. */
export function decidePair(
  rule: PairRule,
  signatures: SignatureMatrix,
  a: number,
  b: number,
  evidence?: ExactEvidence,
): PairDecision {
  return decideEqualSlots(rule, signatures, equalSlots(signatures, a, b), a, b, evidence);
}

/**
 * decidePair from the number of the k slots on which the pair agrees: what a thread that cannot read the rows (they
 * were too large to share) decides from, given the count.
 */
export function decideEqualSlots(
  rule: PairRule,
  shape: SlotShape,
  equal: number,
  a: number,
  b: number,
  evidence?: ExactEvidence,
): PairDecision {
  const verdict = verdictOfEqualSlots(rule, shape, equal);
  if (verdict === 'accept') return 'estimate accepted';
  if (verdict === 'reject') return 'estimate rejected';
  if (evidence === undefined) throw new Error(`${rule.verify} verification needs the shingle sets`);
  if (evidence.known !== undefined && !evidence.known(a, b)) {
    if (evidence.missingSets !== 'estimate') return 'undecided';
    const estimate = agreementEstimate(equal, shape.k, shape.slotBits);
    return estimate >= rule.threshold ? 'estimate accepted past memory limit' : 'estimate rejected past memory limit';
  }
  return evidence.similarity(a, b) >= rule.threshold ? 'exact accepted' : 'exact rejected';
}

export function isAccepted(decision: PairDecision): boolean {
  return (
    decision === 'estimate accepted' ||
    decision === 'exact accepted' ||
    decision === 'estimate accepted past memory limit'
  );
}

/** Adds a decision to its counts (one past the memory limit counts as the estimate's, and past the limit). */
export function countDecision(counts: DecisionCounts, decision: PairDecision): void {
  switch (decision) {
    case 'estimate accepted':
      counts.estimateAccepted++;
      break;
    case 'estimate rejected':
      counts.estimateRejected++;
      break;
    case 'exact accepted':
      counts.exactAccepted++;
      break;
    case 'exact rejected':
      counts.exactRejected++;
      break;
    case 'undecided':
      counts.undecided++;
      break;
    case 'estimate accepted past memory limit':
      counts.estimatePastMemoryLimit++;
      counts.estimateAccepted++;
      break;
    case 'estimate rejected past memory limit':
      counts.estimatePastMemoryLimit++;
      counts.estimateRejected++;
      break;
  }
}

/** Refuses exact and hybrid verification without shingle sets, before any pair. */
export function requireEvidence(verify: VerifyMode, similarity: ExactSimilarity | undefined): void {
  if ((verify === 'exact' || verify === 'hybrid') && similarity === undefined)
    throw new Error(`${verify} verification needs the shingle sets`);
}
