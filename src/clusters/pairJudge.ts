/**
 * One pair's decision at a threshold, the way verification measures it:
 * by the signature estimate, by exact Jaccard, or hybrid (the estimate where
 * it is sure, exact Jaccard inside the margin of estimateBounds.ts). Candidate
 * verification and the chain check of clustering.ts both judge through it,
 * each at its own threshold, and it counts how each pair was decided.
 */
import { equalSlots, signatureAgreement, type SignatureMatrix } from '../bands/signatureMatrix.js';
import { DEFAULT_ESTIMATE_ERROR, decideByEstimate, estimateBounds, type EstimateBounds } from './estimateBounds.js';
import type { ExactSimilarity, VerifyMode } from './verification.js';

export interface DecisionCounts {
  estimateAccepted: number;
  estimateRejected: number;
  exactAccepted: number;
  exactRejected: number;
  /** Hybrid pairs inside the margin whose shingle sets were not loaded: rejected (see `known`). */
  undecided: number;
  /** Of the estimate's decisions: pairs that needed exact Jaccard but whose sets passed the memory limit (`missingSets: 'estimate'`). */
  estimatePastMemoryLimit: number;
}

export const noDecisions = (): DecisionCounts => ({ estimateAccepted: 0, estimateRejected: 0, exactAccepted: 0, exactRejected: 0, undecided: 0, estimatePastMemoryLimit: 0 });

export interface PairJudgeOptions {
  readonly mode: VerifyMode;
  readonly threshold: number;
  readonly signatures: SignatureMatrix;
  /** Needed for exact and hybrid. */
  readonly exactSimilarity?: ExactSimilarity;
  /**
   * Whether both shingle sets are at hand; a pair that needs exact Jaccard
   * without them is rejected and counted undecided (never accepted unverified).
   * Without it, exactSimilarity is always called.
   */
  readonly known?: (a: number, b: number) => boolean;
  /**
   * A pair needing exact Jaccard without its sets: rejected and counted
   * undecided (the default: the cluster check, which never removes unverified),
   * or decided by the estimate at the threshold (candidate verification, when
   * the sets did not fit the memory limit).
   */
  readonly missingSets?: 'reject' | 'estimate';
  /** Hybrid: the estimate's error rate at J = threshold (default 0.001). */
  readonly errorRate?: number;
}

export class PairJudge {
  readonly counts: DecisionCounts = noDecisions();
  /** Of the last judged pair: the estimate, and the exact Jaccard (NaN when not computed). */
  estimate = 0;
  exact = Number.NaN;
  private readonly bounds?: EstimateBounds;

  constructor(private readonly options: PairJudgeOptions) {
    const { mode, threshold, signatures } = options;
    if ((mode === 'exact' || mode === 'hybrid') && options.exactSimilarity === undefined) throw new Error(`${mode} verification needs the shingle sets`);
    if (mode === 'hybrid') this.bounds = estimateBounds(signatures.k, threshold, options.errorRate ?? DEFAULT_ESTIMATE_ERROR, signatures.slotBits);
  }

  /** True when the pair reaches the threshold. */
  passes(a: number, b: number): boolean {
    const { mode, threshold, signatures, known } = this.options;
    const counts = this.counts;
    this.estimate = signatureAgreement(signatures, a, b);
    this.exact = Number.NaN;
    if (mode === 'none') return true;
    const byEstimate = mode === 'estimate' ? Number(this.estimate >= threshold) : mode === 'hybrid' ? decideByEstimate(equalSlots(signatures, a, b), this.bounds!) : 2;
    if (byEstimate !== 2) {
      if (byEstimate === 1) counts.estimateAccepted++;
      else counts.estimateRejected++;
      return byEstimate === 1;
    }
    if (known !== undefined && !known(a, b)) {
      if (this.options.missingSets !== 'estimate') {
        counts.undecided++;
        return false;
      }
      counts.estimatePastMemoryLimit++;
      const pass = this.estimate >= threshold;
      if (pass) counts.estimateAccepted++;
      else counts.estimateRejected++;
      return pass;
    }
    this.exact = this.options.exactSimilarity!(a, b);
    const pass = this.exact >= threshold;
    if (pass) counts.exactAccepted++;
    else counts.exactRejected++;
    return pass;
  }

  /** Hybrid only: true when the estimate alone cannot decide the pair (exact Jaccard will be needed). */
  needsExact(a: number, b: number): boolean {
    const { mode, signatures } = this.options;
    if (mode === 'exact') return true;
    if (mode !== 'hybrid') return false;
    return decideByEstimate(equalSlots(signatures, a, b), this.bounds!) === 2;
  }
}
