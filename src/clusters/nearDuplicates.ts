/** Helpers of dedupSigned.ts between verification and clustering. */
import type { PairList } from '../bands/pairSet.js';
import { signatureAgreement, type SignatureMatrix } from '../bands/signatureMatrix.js';
import { clusterPairs, type ClusterCheck, type Clustering } from './clustering.js';
import type { ExactSimilarity, VerifyMode } from './verification.js';

export interface ClusterVerifiedOptions {
  readonly threshold: number;
  readonly verify: VerifyMode;
  readonly clusterCheck: ClusterCheck;
  /** Preference order of documents (negative: a is kept over b), e.g. DocumentTable.groupComparator(). */
  readonly compare: (a: number, b: number) => number;
  /** Required when verify is 'exact'. */
  readonly exactSimilarity?: ExactSimilarity;
}

/** Clusters verified pairs; the representative check measures similarity the way the pairs were verified. */
export function clusterVerified(
  m: SignatureMatrix,
  verified: PairList,
  options: ClusterVerifiedOptions,
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
