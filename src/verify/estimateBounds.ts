/**
 * Where the signature estimate can decide a pair on its own (hybrid
 * verification and the chain check).
 *
 * The number X of the k slots on which two signatures agree is Binomial(k, p)
 * with p = J for 64-bit slots (distinct shingle hashes never share a slot
 * value: the hash is a bijection mod P). With 32-bit slots two different
 * values can agree in their low words by chance, p = J + (1 − J)·2⁻³², a
 * shift below 3·10⁻¹⁰ that the bounds still include.
 *
 * For a threshold t and an error rate α, the bounds are exact binomial
 * quantiles at the hardest case J = t:
 *   accept when X ≥ acceptFrom, the smallest x with P(Bin(k, p(t)) ≥ x) ≤ α,
 *   reject when X ≤ rejectUpTo, the largest x with P(Bin(k, p(t)) ≤ x) ≤ α,
 *   otherwise (inside the margin) compute the exact Jaccard.
 * P(X ≤ x) falls and P(X ≥ x) rises with J, so a pair with J ≥ t is rejected
 * by the estimate with probability ≤ α, and a pair with J < t accepted with
 * probability ≤ α. In normal terms the margin is about t ± z·√(t(1−t)/k) with
 * z = Φ⁻¹(1 − α): 3.09 for α = 0.001, ±0.11 at t = 0.8, k = 128.
 */
import type { SlotBits } from '../bands/signatureMatrix.js';
import { defaultOf } from '../options.js';

export interface EstimateBounds {
  /** Agreeing slots from which the estimate accepts (may be k + 1: never). */
  readonly acceptFrom: number;
  /** Agreeing slots up to which the estimate rejects (may be −1: never). */
  readonly rejectUpTo: number;
  readonly k: number;
}

/** The default error rate of an estimate decision at J = t. */
export const DEFAULT_ESTIMATE_ERROR = defaultOf('estimateError');

/** Binomial(k, p) probabilities P(X = x), x = 0 … k, summed in log space (no overflow for large k). */
function binomialPmf(k: number, p: number): Float64Array {
  const pmf = new Float64Array(k + 1);
  if (p <= 0) {
    pmf[0] = 1;
    return pmf;
  }
  if (p >= 1) {
    pmf[k] = 1;
    return pmf;
  }
  let logTerm = k * Math.log1p(-p);
  const logOdds = Math.log(p) - Math.log1p(-p);
  for (let x = 0; x <= k; x++) {
    pmf[x] = Math.exp(logTerm);
    logTerm += Math.log((k - x) / (x + 1)) + logOdds;
  }
  return pmf;
}

export function estimateBounds(
  k: number,
  threshold: number,
  errorRate: number,
  slotBits: SlotBits = 64,
): EstimateBounds {
  if (!(errorRate > 0 && errorRate < 0.5))
    throw new RangeError(`the estimate's error rate must be in (0, 0.5), got ${errorRate}`);
  // Slots of b < 64 stored bits also agree by chance when the minima differ: P(equal) = J + (1 − J)·2^−b.
  const p = slotBits === 64 ? threshold : threshold + (1 - threshold) * 2 ** -slotBits;
  const pmf = binomialPmf(k, p);
  let acceptFrom = k + 1;
  let upper = 0; // P(X ≥ acceptFrom)
  while (acceptFrom > 0 && upper + pmf[acceptFrom - 1] <= errorRate) upper += pmf[--acceptFrom];
  let rejectUpTo = -1;
  let lower = 0; // P(X ≤ rejectUpTo)
  while (rejectUpTo < k && lower + pmf[rejectUpTo + 1] <= errorRate) lower += pmf[++rejectUpTo];
  return { acceptFrom, rejectUpTo, k };
}

/** 1: the estimate accepts, 0: it rejects, 2: inside the margin, exact Jaccard decides. */
export type EstimateDecision = 0 | 1 | 2;

export function decideByEstimate(agreeing: number, bounds: EstimateBounds): EstimateDecision {
  if (agreeing >= bounds.acceptFrom) return 1;
  if (agreeing <= bounds.rejectUpTo) return 0;
  return 2;
}
