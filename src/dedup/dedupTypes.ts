/** The settings and inputs the in-memory dedup core's stages share (dedupSigned.ts, dedupStages.ts). */
import type { Candidates } from '../bands/candidates.js';
import type { LshParams } from '../bands/lshParams.js';
import type { SignatureMatrix } from '../bands/signatureMatrix.js';
import type { DocumentTable } from '../exact/documentTable.js';
import type { OptionValues, VerificationOptions } from '../options.js';
import type { ReferenceMatches } from '../verify/decontaminate.js';
import type { SetMeasure } from '../verify/exactJaccard.js';

/**
 * The options as src/options.ts types them (defaults there): threshold, verify and clusterCheck given, the rest
 * optional.
 */
export interface DedupSettings
  extends Pick<OptionValues, 'threshold' | 'verify' | 'clusterCheck'>,
    Partial<Omit<VerificationOptions, 'verify' | 'clusterCheck'>> {
  readonly lsh: LshParams;
  /**
   * Exact and hybrid: most bytes of shingle sets loaded (default: no limit); past it, their pairs are decided by
   * the estimate. Unused with a source that reads each set when compared (ShingleSetSource.fetch).
   */
  readonly shingleSetBytes?: number;
  /** What exact decisions measure: Jaccard (default), or for SimHash the angular similarity 1 − θ / π. */
  readonly measure?: SetMeasure;
}

/**
 * A reference set (decontamination), signed with the corpus's parameters; `sets` are needed for exact and hybrid
 * verification.
 */
export interface SignedReference {
  readonly ids: readonly string[];
  readonly rows: SignatureMatrix;
  readonly sets?: readonly Uint32Array[];
}

export interface Contamination extends ReferenceMatches {
  readonly referenceIds: readonly string[];
  /** 1 for each corpus group matched by the reference set. */
  readonly flags: Uint8Array;
  readonly removedGroups: number;
}

/** The corpus once banded: the rows verification and clustering read (all, or the candidates' when spilled). */
export interface HeldCorpus {
  readonly table: DocumentTable;
  readonly signatures: SignatureMatrix;
}

/** Corpus × reference candidates, and the rows that verify them, corpus first. */
export interface ReferencePairs {
  readonly combined: SignatureMatrix;
  readonly pairs: Candidates;
}
