/**
 * The dedup summary: the JSON report (`--report`, the app's report download)
 * and the lines printed at the end of a run. Pure: the CLI's pipeline and the
 * browser app build it from the same fields.
 */
import { approximateThreshold, candidateProbability } from '../../bands/lshParams.js';
import { describeKeepPolicy } from '../../text/keepPolicy.js';
import { counted, namesOf, thousands } from '../../format.js';
import type { LshParams } from '../../bands/lshParams.js';
import type { ReportOutcome, StageCpu } from './reportOutcome.js';

export type { ReportOutcome, StageCpu } from './reportOutcome.js';
import type { OptionValues } from '../../options.js';
import type { SignatureParams } from '../../signatures/params.js';
import { DEFAULT_MAX_REPRESENTATIVES } from '../../clusters/clustering.js';
import { DEFAULT_ESTIMATE_ERROR } from '../../verify/estimateBounds.js';
import { DEFAULT_CHAIN_DELTA } from '../../clusters/nearDuplicates.js';
import type { DecisionCounts } from '../../verify/pairDecision.js';
import { auditReport, auditSummaryLines } from './auditReport.js';

export const REPORT_FORMAT = 'gpudedup-dedup-report';

/** What a run was asked to do (the pipeline's DedupConfig fits). */
export interface ReportConfig
  extends Pick<OptionValues, 'threshold' | 'verify' | 'clusterCheck' | 'keep'>,
    Partial<Pick<OptionValues, 'estimateError' | 'chainDelta' | 'maxRepresentatives'>> {
  readonly inputs: readonly string[];
  readonly signatures?: string;
  readonly against: readonly string[];
  readonly params: SignatureParams;
  readonly lsh: LshParams;
}

export function buildReport(
  config: ReportConfig,
  outcome: ReportOutcome,
  timings: Record<string, number>,
  cpu: Record<string, StageCpu> = {},
) {
  const { counts } = outcome.assignment;
  return {
    format: REPORT_FORMAT,
    version: 1,
    inputs: config.inputs,
    signatures: config.signatures ?? null,
    against: config.against,
    documents: counts.documents,
    empty: counts.empty,
    exactDuplicates: counts.exactDuplicates,
    distinctTexts: outcome.signatures.count,
    clusters: counts.clusters,
    nearDuplicateClusters: counts.nearDuplicateClusters,
    contaminated: counts.contaminated,
    removed: counts.removed,
    kept: counts.kept,
    parameters: reportParameters(config),
    candidates: {
      pairs: outcome.verified.candidates,
      verified: outcome.verified.a.length,
      buckets: outcome.candidateStats.buckets,
      bigBuckets: outcome.candidateStats.bigBuckets,
      largestBucket: outcome.candidateStats.largestBucket,
      splitByRepresentativeCheck: outcome.clustering.splitOff,
      referenceCandidates: outcome.contamination?.candidates ?? 0,
    },
    /**
     * How candidate pairs were decided: by the signature estimate, by exact Jaccard (hybrid: only inside the margin).
     */
    verification: decisions(outcome.verified.decided),
    /** The representative check: comparisons with representatives at t − δ, and how they were decided. */
    clusterCheck: {
      threshold: config.clusterCheck === 'representative' ? outcome.clustering.checkThreshold : null,
      comparisons: outcome.clustering.comparisons,
      splitOff: outcome.clustering.splitOff,
      keptAloneAfterMaxRepresentatives: outcome.clustering.exhausted,
      ...decisions(outcome.clustering.checkDecided),
    },
    shingleSets: outcome.shingleSets,
    /**
     * `--audit N`: measured precision and removed share below t − δ, with 95 % Wilson intervals (null without --audit).
     */
    audit: auditReport(outcome.audit),
    missingKeepField: outcome.missingKeepField,
    invalidSkipped: outcome.invalidSkipped,
    binarySkipped: outcome.binarySkipped,
    backend: outcome.backend,
    ...timeFields(outcome, timings, cpu),
  };
}

/** The parameters a run used, defaults filled in (dedup's report and cluster's). */
export function reportParameters(config: ReportConfig) {
  const { bands, rows } = config.lsh;
  return {
    threshold: config.threshold,
    bands,
    rows,
    approximateThreshold: approximateThreshold(bands, rows),
    candidateProbabilityAtThreshold: candidateProbability(config.threshold, bands, rows),
    verify: config.verify,
    estimateErrorRate: config.verify === 'hybrid' ? (config.estimateError ?? DEFAULT_ESTIMATE_ERROR) : null,
    clusterCheck: config.clusterCheck,
    chainDelta: config.clusterCheck === 'representative' ? (config.chainDelta ?? DEFAULT_CHAIN_DELTA) : null,
    maxRepresentatives:
      config.clusterCheck === 'representative' ? (config.maxRepresentatives ?? DEFAULT_MAX_REPRESENTATIVES) : null,
    keep: describeKeepPolicy(config.keep),
    signature: config.params,
  };
}

function decisions(d: DecisionCounts) {
  return {
    byEstimate: { accepted: d.estimateAccepted, rejected: d.estimateRejected },
    byExact: { accepted: d.exactAccepted, rejected: d.exactRejected },
    /** Hybrid check comparisons inside the margin without loaded shingle sets: failed, never removed unverified. */
    undecided: d.undecided,
    /** Of byEstimate: pairs that needed exact Jaccard but whose shingle sets passed --memory-limit. */
    byEstimatePastMemoryLimit: d.estimatePastMemoryLimit,
  };
}

/** Seconds per stage (wall), CPU seconds per stage, and the signing stages' split. */
function timeFields(outcome: ReportOutcome, timings: Record<string, number>, cpu: Record<string, StageCpu>) {
  return {
    seconds: Object.fromEntries(Object.entries(timings).map(([stage, ms]) => [stage, seconds(ms)])),
    /** CPU seconds a stage, main thread and others; empty where no thread's time is told (the tab, not Linux). */
    cpuSeconds: cpuSeconds(cpu),
    /** Within the signing stages: waiting for shingles, and in the signer (not overlapped with shingling). */
    signingSeconds: {
      shingling: seconds(outcome.signing?.shingleMs ?? 0),
      signing: seconds(outcome.signing?.signMs ?? 0),
    },
  };
}

function cpuSeconds(cpu: Record<string, StageCpu>): Record<string, { main: number; other: number }> {
  return Object.fromEntries(
    Object.entries(cpu).map(([stage, t]) => [stage, { main: seconds(t.mainMs), other: seconds(t.otherMs) }]),
  );
}

const seconds = (ms: number): number => Number((ms / 1000).toFixed(3));

export type DedupReport = ReturnType<typeof buildReport>;

/**
 * Every count of how comparisons were decided, so the parts add up to them:
 * the estimate's and exact Jaccard's (each shown where the mode uses it or it
 * decided any), those decided by the estimate past --memory-limit among the
 * estimate's, and the undecided (which `undecided` says what became of).
 */
function decidedLine(d: ReturnType<typeof decisions>, verify: string, undecided: string, exact: string): string {
  const parts: string[] = [];
  if (verify !== 'exact' || d.byEstimate.accepted + d.byEstimate.rejected > 0) {
    const pastLimit =
      d.byEstimatePastMemoryLimit > 0
        ? `, ${thousands(d.byEstimatePastMemoryLimit)} of these because their shingle sets passed --memory-limit`
        : '';
    parts.push(
      `by estimate ${thousands(d.byEstimate.accepted)} accepted, ${thousands(d.byEstimate.rejected)} ` +
        `rejected${pastLimit}`,
    );
  }
  if (verify === 'exact' || verify === 'hybrid' || d.byExact.accepted + d.byExact.rejected > 0) {
    parts.push(`by ${exact} ${thousands(d.byExact.accepted)} accepted, ${thousands(d.byExact.rejected)} rejected`);
  }
  if (d.undecided > 0) parts.push(`${thousands(d.undecided)} undecided, ${undecided}`);
  return parts.join('; ');
}

export { namesOf };

export function formatSummary(report: DedupReport, destination: string): string {
  const lines = [
    `deduplicated ${counted(report.documents, 'document')} → ${destination}`,
    ...countLines(report),
    ...decisionLines(report),
    ...skipLines(report),
    `  backend             ${report.backend}`,
    `  time                ${timeLine(report)}`,
  ];
  return lines.join('\n') + '\n';
}

/** The summary's counts: documents in, what became of them, what was kept. */
function countLines(report: DedupReport): string[] {
  const int = thousands;
  return [
    `  documents in        ${int(report.documents)}`,
    `  empty               ${int(report.empty)} (kept, never clustered)`,
    `  exact duplicates    ${int(report.exactDuplicates)} ` +
      `(${counted(report.distinctTexts, 'distinct non-empty text')} signed)`,
    `  near-dup clusters   ${int(report.nearDuplicateClusters)} (clusters of two or more distinct texts)`,
    ...(report.against.length > 0
      ? [`  contaminated        ${int(report.contaminated)} (near-duplicates of the reference set, removed)`]
      : []),
    `  removed             ${int(report.removed)}`,
    `  kept                ${int(report.kept)}`,
  ];
}

/** The parameters, the candidates and how they and the clusters were decided. */
function decisionLines(report: DedupReport): string[] {
  const int = thousands;
  const p = report.parameters;
  const c = report.candidates;
  const v = report.verification;
  const check = report.clusterCheck;
  // SimHash's exact decisions measure the angle between the shingle vectors (exactJaccard.ts), MinHash's Jaccard.
  const exact = p.signature.scheme.startsWith('simhash') ? 'exact angle' : 'exact Jaccard';
  return [
    `  parameters          threshold ${p.threshold}, ${counted(p.bands, 'band')} × ${counted(p.rows, 'row')} (S-curve ` +
      `midpoint ≈ ${p.approximateThreshold.toFixed(3)}, ` +
      `P(candidate) ${p.candidateProbabilityAtThreshold.toFixed(3)} at the threshold), verify ${p.verify}, cluster ` +
      `check ${p.clusterCheck}` +
      (p.chainDelta !== null ? ` (removed ≥ ${check.threshold?.toFixed(2)} to the kept)` : '') +
      `, keep ${p.keep}`,
    `  candidates          ${counted(c.pairs, 'pair')}, ${int(c.verified)} verified; largest bucket ` +
      `${int(c.largestBucket)}` +
      (c.splitByRepresentativeCheck > 0
        ? `; ${int(c.splitByRepresentativeCheck)} split off by the representative check`
        : ''),
    ...(p.verify === 'none' ? [] : [`  decided             ${decidedLine(v, p.verify, 'rejected', exact)}`]),
    ...(check.comparisons > 0
      ? [
          `  cluster check       ${counted(check.comparisons, 'comparison')} ` +
            `(${decidedLine(check, p.verify === 'none' ? 'estimate' : p.verify, 'kept', exact)})` +
            (check.keptAloneAfterMaxRepresentatives > 0
              ? `; ${int(check.keptAloneAfterMaxRepresentatives)} kept alone after ` +
                `${counted(p.maxRepresentatives ?? 0, 'representative')}`
              : ''),
        ]
      : []),
  ];
}

/** The audit, what was skipped and the warnings. */
function skipLines(report: DedupReport): string[] {
  const p = report.parameters;
  return [
    ...auditSummaryLines(report.audit),
    ...(report.invalidSkipped > 0
      ? [`  skipped             ${counted(report.invalidSkipped, 'invalid line')} (--skip-invalid)`]
      : []),
    ...(report.binarySkipped.length > 0
      ? [
          `  skipped             ${counted(report.binarySkipped.length, 'binary file')} ` +
            `(${namesOf(report.binarySkipped)})`,
        ]
      : []),
    ...(report.missingKeepField > 0
      ? [
          `  warning             ${counted(report.missingKeepField, 'document')} had no numeric value for --keep ` +
            `${p.keep} (ranked last)`,
        ]
      : []),
  ];
}

/** Total seconds, then each stage's (signing split into shingling and signing). */
function timeLine(report: DedupReport): string {
  const total = Object.values(report.seconds).reduce((s, x) => s + x, 0);
  const split = report.signingSeconds;
  const stages = Object.entries(report.seconds)
    .map(
      ([stage, s]) =>
        `${stage} ${s.toFixed(2)}` +
        (stage === 'read + sign'
          ? ` [shingling ${split.shingling.toFixed(2)}, signing ${split.signing.toFixed(2)}]`
          : ''),
    )
    .join(', ');
  return `${total.toFixed(2)} s (${stages})`;
}
