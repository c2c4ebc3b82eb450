/** Helpers of dedupSigned.ts between verification and clustering. */
import type { PairList } from '../bands/pairSet.js';
import type { SignatureMatrix } from '../bands/signatureMatrix.js';
import { defaultOf } from '../options.js';
import { clusterPairs, clusterPairsInRounds, type ClusterCheck, type Clustering } from './clustering.js';
import { PAIR_DECISIONS, type ExactPairs } from '../verify/exactWorkers.js';
import {
  countDecision,
  decidePair,
  estimateVerdict,
  isAccepted,
  noDecisions,
  pairRule,
  requireEvidence,
  type DecisionCounts,
  type ExactEvidence,
  type ExactSimilarity,
  type PairRule,
} from '../verify/pairDecision.js';
import type { SetMeasure } from '../verify/exactJaccard.js';
import type { VerifyMode } from '../options.js';

/** δ: a removed document must reach t − δ against the document kept in its place. */
export const DEFAULT_CHAIN_DELTA = defaultOf('chainDelta');

export interface ClusterVerifiedOptions {
  readonly threshold: number;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  /** Preference order of documents (negative: a is kept over b), e.g. DocumentTable.groupComparator(). */
  readonly compare: (a: number, b: number) => number;
  /** Required when verify is 'exact' or 'hybrid'. */
  readonly exactSimilarity?: ExactSimilarity;
  /** Hybrid: whether both shingle sets are loaded; a pair inside the margin without them fails the check. */
  readonly known?: (a: number, b: number) => boolean;
  /**
   * A comparison without its sets fails (default), or is decided by the estimate: their sets passed the memory limit.
   */
  readonly missingSets?: 'reject' | 'estimate';
  /** The representative check's threshold is threshold − chainDelta (default 0.1; 0 for the threshold itself). */
  readonly chainDelta?: number;
  /** Representatives a member is compared with at most (default 8). */
  readonly maxRepresentatives?: number;
  /** Hybrid: the estimate's error rate at the check's threshold. */
  readonly estimateError?: number;
  /** What exact decisions measure, as verification's (Jaccard when absent; SimHash's angular similarity). */
  readonly measure?: SetMeasure;
}

export interface VerifiedClustering extends Clustering {
  /** How the representative check's comparisons were decided. */
  readonly checkDecided: DecisionCounts;
  /** The check's threshold, t − δ. */
  readonly checkThreshold: number;
}

/** Clusters verified pairs; the representative check measures similarity the way the pairs were verified, at t − δ. */
export function clusterVerified(
  m: SignatureMatrix,
  verified: PairList,
  options: ClusterVerifiedOptions,
): VerifiedClustering {
  const checkThreshold = options.threshold - (options.chainDelta ?? DEFAULT_CHAIN_DELTA);
  if (!checks(options, checkThreshold)) {
    const clustering = clusterPairs(m.count, verified, { check: 'none', compare: options.compare });
    return { ...clustering, checkDecided: noDecisions(), checkThreshold };
  }
  const rule = checkRule(m, options, checkThreshold);
  requireEvidence(rule.verify, options.exactSimilarity);
  const evidence: ExactEvidence | undefined = options.exactSimilarity && {
    similarity: options.exactSimilarity,
    known: options.known,
    missingSets: options.missingSets,
  };
  const counts = noDecisions();
  const clustering = clusterPairs(m.count, verified, {
    check: 'representative',
    compare: options.compare,
    passes: (rep, member) => {
      const decision = decidePair(rule, m, rep, member, evidence);
      countDecision(counts, decision);
      return isAccepted(decision);
    },
    maxRepresentatives: options.maxRepresentatives,
  });
  return { ...clustering, checkDecided: counts, checkThreshold };
}

/**
 * clusterVerified with the representative check's comparisons decided on workers that read every set where it lies
 * (so none is ever missing), a round at a time; `onProgress` gets the members settled.
 */
export async function clusterVerifiedOn(
  m: SignatureMatrix,
  verified: PairList,
  options: ClusterVerifiedOptions,
  workers: ExactPairs,
  onProgress?: (settled: number) => void,
): Promise<VerifiedClustering> {
  const checkThreshold = options.threshold - (options.chainDelta ?? DEFAULT_CHAIN_DELTA);
  if (!checks(options, checkThreshold)) return clusterVerified(m, verified, options);
  const rule = checkRule(m, options, checkThreshold);
  const counts = noDecisions();
  const clustering = await clusterPairsInRounds(m.count, verified, {
    check: 'representative',
    compare: options.compare,
    maxRepresentatives: options.maxRepresentatives,
    onProgress,
    decide: async (round) => {
      const passed = new Uint8Array(round.a.length);
      await workers.decide(m, round, rule, (from, batch) => {
        for (let i = 0; i < batch.decisions.length; i++) {
          const decision = PAIR_DECISIONS[batch.decisions[i]];
          countDecision(counts, decision);
          passed[from + i] = isAccepted(decision) ? 1 : 0;
        }
      });
      return passed;
    },
  });
  return { ...clustering, checkDecided: counts, checkThreshold };
}

function checks(options: ClusterVerifiedOptions, checkThreshold: number): boolean {
  return options.clusterCheck !== 'none' && checkThreshold > 0;
}

/** The check decides as verification did, at t − δ; with verify none it still needs a measure: the estimate. */
function checkRule(m: SignatureMatrix, options: ClusterVerifiedOptions, threshold: number): PairRule {
  const verify = options.verify === 'none' ? 'estimate' : options.verify;
  return pairRule(verify, threshold, m, options.estimateError, options.measure);
}

/**
 * Hybrid: the groups whose shingle sets the representative check will likely
 * need, found by running it on the pairs the estimate did not reject (accepted
 * or inside the margin), with the estimate standing in for exact Jaccard.
 * Loading them with verification's sets saves a second pass in most runs.
 */
export function checkSetsLikelyNeeded(
  m: SignatureMatrix,
  notRejected: PairList,
  options: ClusterVerifiedOptions,
  needed: Uint8Array,
): void {
  const checkThreshold = options.threshold - (options.chainDelta ?? DEFAULT_CHAIN_DELTA);
  if (options.verify !== 'hybrid' || !checks(options, checkThreshold)) return;
  const rule = checkRule(m, options, checkThreshold);
  const estimateOnly = pairRule('estimate', checkThreshold, m);
  clusterPairs(m.count, notRejected, {
    check: 'representative',
    compare: options.compare,
    passes: (rep, member) => {
      if (estimateVerdict(rule, m, rep, member) === 'exact') needed[rep] = needed[member] = 1;
      return estimateVerdict(estimateOnly, m, rep, member) === 'accept';
    },
    maxRepresentatives: options.maxRepresentatives,
  });
}

/** Flags the documents that appear in any pair: those whose shingle sets exact verification needs. */
export function candidateDocuments(count: number, pairs: PairList): Uint8Array {
  const flags = new Uint8Array(count);
  for (let i = 0; i < pairs.a.length; i++) {
    flags[pairs.a[i]] = 1;
    flags[pairs.b[i]] = 1;
  }
  return flags;
}
