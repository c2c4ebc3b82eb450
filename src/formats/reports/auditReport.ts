/**
 * The audit (src/audit/audit.ts) in the JSON report and the summary:
 * per similarity bin and overall, the measured precision (sampled accepted
 * pairs with exact J ≥ t) and the share of sampled removed documents below
 * t − δ (and below t), each with its 95 % Wilson interval. Pure and
 * browser-safe: the tab's report is built by the same code.
 */
import type { AuditResult, Proportion } from '../../audit/audit.js';
import { sixDecimals, thousands } from '../../format.js';

/** Six decimals, as the other tables; NaN (nothing sampled) as null. */
const round = (x: number): number | null => (Number.isFinite(x) ? sixDecimals(x) : null);

function share(p: Proportion) {
  return { count: p.count, sampled: p.sampled, share: round(p.share), low: round(p.low), high: round(p.high) };
}

export function auditReport(audit: AuditResult | undefined) {
  if (audit === undefined) return null;
  const { precision } = audit;
  return {
    /** Accepted pairs sampled per bin of estimated similarity, and removed documents sampled. */
    perBin: audit.perBin,
    seed: audit.seed,
    threshold: audit.threshold,
    chainThreshold: round(audit.chainThreshold),
    /**
     * Accepted pairs by estimated similarity (signature agreement): precision = sampled pairs with exact J ≥ threshold.
     */
    bins: audit.bins.map((b) => ({ from: b.from, to: b.to, pairs: b.pairs, ...share(b.precision) })),
    /** The bins' precisions weighted by their pairs; interval at Kish's effective sample size. */
    precision: {
      share: round(precision.share),
      low: round(precision.low),
      high: round(precision.high),
      sampled: precision.sampled,
      pairs: precision.pairs,
      effectiveSample: round(precision.effectiveSample),
    },
    /**
     * Documents removed as near-duplicates (text differing from the kept one's), measured against their kept document.
     */
    removed: {
      population: audit.removed.population,
      belowChainThreshold: share(audit.removed.belowChainThreshold),
      belowThreshold: share(audit.removed.belowThreshold),
    },
  };
}

export type AuditReport = NonNullable<ReturnType<typeof auditReport>>;

const percent = (x: number | null): string => (x === null ? '–' : `${(100 * x).toFixed(2)} %`);
const range = (low: number | null, high: number | null): string => `[${percent(low)}, ${percent(high)}]`;

/** The summary's lines for the audit. */
export function auditSummaryLines(audit: AuditReport | null): string[] {
  if (audit === null) return [];
  const p = audit.precision;
  const below = audit.removed.belowChainThreshold;
  return [
    `  audit precision     ${percent(p.share)} ${range(p.low, p.high)} of accepted pairs reach J ${audit.threshold} ` +
      `(${thousands(p.sampled)} of ${thousands(p.pairs)} sampled in ${audit.bins.length} bins, seed ${audit.seed})`,
    `  audit removed       ${percent(below.share)} ${range(below.low, below.high)} below J ${audit.chainThreshold} to ` +
      `the kept document ` +
      `(${thousands(below.sampled)} of ${thousands(audit.removed.population)} near-duplicate removals sampled; ` +
      `${percent(audit.removed.belowThreshold.share)} below ${audit.threshold})`,
  ];
}
