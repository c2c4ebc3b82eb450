/**
 * The in-memory core of dedup, after signing: band → verify → cluster, on the
 * signatures of the distinct (exact-group) documents. Callers that verify
 * exactly call the two halves separately, loading the shingle sets of the
 * candidate documents in between (see `candidateDocuments`).
 */
import { findCandidates, type CandidateStats, type Candidates } from '../bands/candidates.js';
import type { LshParams } from '../bands/lshParams.js';
import type { PairList } from '../bands/pairSet.js';
import { signatureAgreement, type SignatureMatrix } from '../bands/signatureMatrix.js';
import { clusterPairs, type ClusterCheck, type Clustering } from './clustering.js';
import { verifyPairs, type ExactSimilarity, type VerifiedPairs, type VerifyMode } from './verification.js';

export interface NearDuplicateOptions extends LshParams {
  readonly threshold: number;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  /** Preference order of documents (negative: a is kept over b), e.g. DocumentTable.groupComparator(). */
  readonly compare: (a: number, b: number) => number;
  /** Required when verify is 'exact'. */
  readonly exactSimilarity?: ExactSimilarity;
  readonly maxAllPairs?: number;
  /** Only documents flagged 1 take part (e.g. not those removed by decontamination). */
  readonly include?: Uint8Array;
  readonly onBand?: (bandsDone: number) => void;
  readonly onVerified?: (pairsDone: number) => void;
}

export interface NearDuplicates {
  readonly candidateStats: CandidateStats;
  readonly verified: VerifiedPairs;
  readonly clustering: Clustering;
}

export function findNearDuplicates(m: SignatureMatrix, options: NearDuplicateOptions): NearDuplicates {
  const candidates = findCandidates(m, options);
  return verifyAndCluster(m, candidates, options);
}

export function verifyAndCluster(m: SignatureMatrix, candidates: Candidates, options: NearDuplicateOptions): NearDuplicates {
  const verified = verifyPairs(candidates, options.verify, options.threshold, m, options.exactSimilarity, options.onVerified);
  return { candidateStats: candidates.stats, verified, clustering: clusterVerified(m, verified, options) };
}

/** Clusters verified pairs; the representative check measures similarity the way the pairs were verified. */
export function clusterVerified(
  m: SignatureMatrix,
  verified: PairList,
  options: Pick<NearDuplicateOptions, 'verify' | 'exactSimilarity' | 'clusterCheck' | 'compare' | 'threshold'>,
): Clustering {
  const similarity =
    options.verify === 'exact' ? options.exactSimilarity! : (a: number, b: number) => signatureAgreement(m, a, b);
  return clusterPairs(m.count, verified, {
    check: options.clusterCheck,
    compare: options.compare,
    similarity,
    threshold: options.threshold,
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
