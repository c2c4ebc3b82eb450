/**
 * Decontamination: which corpus documents are near-duplicates of a reference
 * document (an evaluation set), and of which one. Corpus and reference are
 * banded together, but only corpus × reference pairs are made and verified, so
 * the reference set is never deduplicated against itself and corpus documents
 * are not compared with each other here.
 */
import { concatBandKeys, matrixBandKeys, type BandKeySource } from '../bands/bandKeySource.js';
import { findCandidates, type CandidateStats, type Candidates } from '../bands/candidates.js';
import type { LshParams } from '../bands/lshParams.js';
import type { SetMeasure } from './exactJaccard.js';
import { concatMatrices, type SignatureMatrix } from '../bands/signatureMatrix.js';
import {
  verifiedSimilarity,
  verifyPairs,
  type ExactSimilarity,
  type VerifiedPairs,
  type VerifyMode,
} from './verification.js';

export interface ContaminationOptions extends LshParams {
  readonly threshold: number;
  readonly verify: VerifyMode;
  /**
   * For exact verification, in the combined numbering: corpus document i is i,
   * reference document j is corpus.count + j.
   */
  readonly exactSimilarity?: ExactSimilarity;
  /** Whether both sets are held (combined numbering); without them a pair is decided by the estimate. */
  readonly known?: (a: number, b: number) => boolean;
  readonly maxBucketPairs?: number;
  /** Hybrid verification: the estimate's error rate at the threshold. */
  readonly estimateError?: number;
  /** What exact decisions measure (SimHash's angle: then a pair beyond the threshold's Hamming distance is rejected). */
  readonly measure?: SetMeasure;
}

export interface ReferenceMatches {
  /** For each corpus document, the best-matching reference document, or −1. */
  readonly match: Int32Array;
  /** Its similarity: exact Jaccard where it was computed, else the signature estimate. */
  readonly similarity: Float64Array;
  readonly estimate: Float64Array;
  readonly candidates: number;
  readonly candidateStats: CandidateStats;
}

/** The corpus × reference candidate pairs, in the combined numbering (reference j is corpus.count + j). */
export function referenceCandidates(
  corpus: BandKeySource,
  reference: SignatureMatrix,
  options: ContaminationOptions,
): Candidates {
  const keys = concatBandKeys(corpus, matrixBandKeys(reference, options));
  const isReference = new Uint8Array(keys.count);
  isReference.fill(1, corpus.count);
  return findCandidates(keys, { ...options, reference: isReference });
}

/** The corpus × reference candidate pairs and the rows that verify them, for callers that load shingle sets first. */
export function contaminationCandidates(
  corpus: SignatureMatrix,
  reference: SignatureMatrix,
  options: ContaminationOptions,
) {
  return {
    combined: concatMatrices(corpus, reference),
    candidates: referenceCandidates(matrixBandKeys(corpus, options), reference, options),
  };
}

export function findContamination(
  corpus: SignatureMatrix,
  reference: SignatureMatrix,
  options: ContaminationOptions,
): ReferenceMatches {
  const { combined, candidates } = contaminationCandidates(corpus, reference, options);
  return matchReferences(candidates, combined, corpus.count, options);
}

/** Verifies corpus × reference candidates (combined numbering) and keeps each corpus document's best match. */
export function matchReferences(
  candidates: Candidates,
  combined: SignatureMatrix,
  corpusCount: number,
  options: Pick<
    ContaminationOptions,
    'threshold' | 'verify' | 'exactSimilarity' | 'estimateError' | 'known' | 'measure'
  >,
): ReferenceMatches {
  // only these: callers pass wider settings
  const { verify, threshold, exactSimilarity, estimateError, known, measure } = options;
  const verified = verifyPairs(candidates, {
    verify,
    threshold,
    signatures: combined,
    exactSimilarity,
    estimateError,
    known,
    measure,
  });
  return {
    ...bestReferenceMatches(verified, corpusCount),
    candidates: candidates.a.length,
    candidateStats: candidates.stats,
  };
}

/** For each corpus document, its best verified reference match (combined numbering: references follow the corpus). */
export function bestReferenceMatches(verified: VerifiedPairs, corpusCount: number) {
  const match = new Int32Array(corpusCount).fill(-1);
  const similarity = new Float64Array(corpusCount);
  const estimate = new Float64Array(corpusCount);
  // Pairs come sorted by (a, b) and a < b, so a is the corpus document and b the reference:
  // keeping strictly better matches leaves the earliest reference document on ties.
  for (let i = 0; i < verified.a.length; i++) {
    const doc = verified.a[i];
    const score = verifiedSimilarity(verified, i);
    if (match[doc] < 0 || score > similarity[doc]) {
      match[doc] = verified.b[i] - corpusCount;
      similarity[doc] = score;
      estimate[doc] = verified.estimate[i];
    }
  }
  return { match, similarity, estimate };
}
