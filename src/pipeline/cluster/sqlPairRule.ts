/**
 * `cluster`'s pair decisions as the SQL takes them: slot-count bounds (sqlParts.ts), SimHash's Hamming limit included.
 */
import type { SlotBits } from '../../bands/signatureMatrix.js';
import { minimumAgreement } from '../../engines/clusterSql.js';
import type { SqlPairRule } from '../../engines/sqlParts.js';
import { defaultOf, type VerifyMode } from '../../options.js';
import { angularCosineFloor } from '../../verify/angular.js';
import { estimateBounds } from '../../verify/estimateBounds.js';

/**
 * A pair decision of pairDecision.ts as slot-count bounds (sqlParts.ts):
 * estimate accepts from minimumAgreement, hybrid by estimateBounds, exact
 * always measures, none accepts all.
 */
export function sqlPairRule(
  verify: VerifyMode,
  threshold: number,
  k: number,
  slotBits: SlotBits,
  estimateError = defaultOf('estimateError'),
  simhash = false,
): SqlPairRule {
  const bounds = agreementBounds(verify, threshold, k, slotBits, estimateError);
  if (!simhash) return { ...bounds, threshold };
  // SimHash: the fingerprint's equal bits are the agreeing slots, the exact measure the angle's (sqlParts.ts), and a
  // pair beyond the threshold's Hamming distance is rejected whatever the mode, as verdictOfEqualSlots does.
  const least = minimumAgreement(threshold, k);
  return {
    acceptFrom: Math.max(bounds.acceptFrom, least),
    rejectUpTo: Math.max(bounds.rejectUpTo, least - 1),
    threshold,
    simhash: { cosineFloor: angularCosineFloor(threshold) },
  };
}

/** The agreeing slots from which a mode accepts, and up to which it rejects. */
function agreementBounds(
  verify: VerifyMode,
  threshold: number,
  k: number,
  slotBits: SlotBits,
  estimateError: number,
): { acceptFrom: number; rejectUpTo: number } {
  switch (verify) {
    case 'none':
      return { acceptFrom: 0, rejectUpTo: -1 };
    case 'estimate': {
      const m = minimumAgreement(threshold, k);
      return { acceptFrom: m, rejectUpTo: m - 1 };
    }
    case 'exact':
      return { acceptFrom: k + 1, rejectUpTo: -1 };
    case 'hybrid': {
      const { acceptFrom, rejectUpTo } = estimateBounds(k, threshold, estimateError, slotBits);
      return { acceptFrom, rejectUpTo };
    }
  }
}
