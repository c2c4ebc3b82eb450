/**
 * `cluster --report FILE`: the join's summary as JSON, with the field names
 * of dedup's report (dedupReport.ts) where they mean the same, so the two
 * compare field by field and the HTML page (htmlReport.ts) shows either.
 * Pure.
 */
import type { AuditResult } from '../audit/audit.js';
import type { EngineStats } from './engine.js';
import { auditReport } from '../formats/reports/auditReport.js';
import { reportParameters, type ReportConfig } from '../formats/reports/dedupReport.js';
import type { ShardMeta } from '../formats/shards/shardFile.js';

export const CLUSTER_REPORT_FORMAT = 'gpudedup-cluster-report';

/** Document counts from the join (inspectSql.ts `counts`), as assignment.ts counts them in dedup. */
export interface JoinCounts {
  readonly documents: number;
  readonly empty: number;
  readonly distinctTexts: number;
  readonly clusters: number;
  readonly nearDuplicateClusters: number;
  readonly contaminated: number;
  readonly removed: number;
}

/** What the join was asked (dedup's ReportConfig, its inputs the shards) and what it found. */
export interface ClusterReportInput
  extends Pick<
    ReportConfig,
    'against' | 'threshold' | 'verify' | 'clusterCheck' | 'keep' | 'estimateError' | 'chainDelta' | 'maxRepresentatives'
  > {
  readonly shards: readonly string[];
  /** e.g. "duckdb", "spark local[2]". */
  readonly backend: string;
  readonly meta: ShardMeta;
  readonly counts: JoinCounts;
  readonly stats: EngineStats;
  readonly audit?: AuditResult;
}

export function buildClusterReport(i: ClusterReportInput) {
  const c = i.counts;
  const s = i.stats;
  return {
    format: CLUSTER_REPORT_FORMAT,
    version: 1,
    inputs: i.shards,
    against: i.against,
    backend: i.backend,
    documents: c.documents,
    empty: c.empty,
    exactDuplicates: c.documents - c.empty - c.distinctTexts,
    distinctTexts: c.distinctTexts,
    clusters: c.clusters,
    nearDuplicateClusters: c.nearDuplicateClusters,
    contaminated: c.contaminated,
    removed: c.removed,
    kept: c.documents - c.removed,
    parameters: reportParameters({ ...i, inputs: i.shards, params: i.meta.params, lsh: i.meta.lsh }),
    candidates: {
      pairs: s.candidates,
      verified: s.verified,
      largestBucket: s.largestBucket,
      exactPairs: s.exactPairs,
      contaminatedGroups: s.contaminatedGroups,
    },
    components: { rounds: s.rounds, checkRounds: s.checkRounds },
    /**
     * `--audit N`: measured precision and removed share below t − δ, with 95 % Wilson intervals (null without --audit).
     */
    audit: auditReport(i.audit),
    seconds: Object.fromEntries(
      Object.entries(s.timings).map(([phase, ms]) => [phase, Number((ms / 1000).toFixed(3))]),
    ),
    /** Each phase's peak resident set in MiB (see EngineStats.peaks); empty where the system gives none. */
    peakMiB: Object.fromEntries(
      Object.entries(s.peaks ?? {}).map(([phase, bytes]) => [phase, Math.round(bytes / 2 ** 20)]),
    ),
    /**
     * Each step of each phase (a loop's step summed over its rounds, `runs`): seconds, the process's CPU seconds
     * (all threads) user and system, pages first touched, peak resident set in MiB (null where the system gives
     * none); the host step's parts as `step.part`. Empty where the engine gives none (Spark).
     */
    steps: (s.steps ?? []).map((c) => ({
      phase: c.phase,
      step: c.step,
      runs: c.runs,
      seconds: Number((c.ms / 1000).toFixed(3)),
      userSeconds: Number((c.userMs / 1000).toFixed(3)),
      systemSeconds: Number((c.systemMs / 1000).toFixed(3)),
      minorFaults: c.minorFaults,
      peakMiB: c.peakBytes === undefined ? null : Math.round(c.peakBytes / 2 ** 20),
    })),
  };
}

export type ClusterReport = ReturnType<typeof buildClusterReport>;
