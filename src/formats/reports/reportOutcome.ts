/** What a dedup report is built from: the dedup core's results, by the types of the stages below src/dedup. */
import type { CandidateStats } from '../../bands/candidates.js';
import type { Assignment } from '../../clusters/assignment.js';
import type { VerifiedClustering } from '../../clusters/nearDuplicates.js';
import type { VerifiedPairs } from '../../verify/verification.js';
import type { SignedPassTimings } from '../../firstPass/signedUnits.js';
import type { AuditResult } from '../../audit/audit.js';

/** CPU milliseconds of a stage, of the main thread and of the others (src/dedup/stageTimer.ts's StageCpu). */
export interface StageCpu {
  readonly mainMs: number;
  readonly otherMs: number;
}

/**
 * What it found (the pipeline's DedupOutcome fits; the app gives the same fields): the dedup core's results the report
 * reads, by the types of the stages below (no import climbs back up to src/dedup).
 */
export interface ReportOutcome {
  readonly candidateStats: CandidateStats;
  readonly verified: VerifiedPairs;
  readonly clustering: VerifiedClustering;
  readonly assignment: Assignment;
  /** Decontamination's corpus × reference candidate pairs. */
  readonly contamination?: { readonly candidates: number };
  readonly shingleSets: { readonly loaded: number; readonly loads: number; readonly overBudget: number };
  readonly signatures: { readonly count: number };
  readonly missingKeepField: number;
  readonly invalidSkipped: number;
  readonly binarySkipped: readonly string[];
  readonly backend: string;
  readonly signing?: SignedPassTimings;
  /** `--audit N`: the sample measured by exact Jaccard. */
  readonly audit?: AuditResult;
}
