/**
 * `cluster --report`, `--report-html`, `--audit`: the join's summary, its
 * measured precision and its page, built from the rows of the inspection
 * queries (src/engines/inspectSql.ts) the engine ran after the join. The
 * audit is measured by the code dedup's is (audit/audit.ts: the same bins,
 * intervals and report fields); the page is dedup's page (formats/reports/htmlReport.ts)
 * with the largest clusters' texts read from `--corpus`, matched by id. Here the rows are read; inspectionFiles.ts
 * writes the report and the files.
 */
import {
  AUDIT_BIN_EDGES,
  auditBin,
  measureAudit,
  type AuditResult,
  type AuditSample,
  type SampledPair,
  type SampledRemoval,
} from '../../audit/audit.js';
import { agreementEstimate } from '../../bands/signatureMatrix.js';
import { SHOWN_CLUSTERS, SHOWN_MEMBERS, type ClusterToShow } from '../../clusters/largestClusters.js';
import type { InspectRow, Inspected } from '../../engines/engine.js';
import { REMOVED_STRATUM, sampleSeeds, type InspectOptions } from '../../engines/inspectSql.js';
import type { JoinCounts } from '../../engines/clusterReport.js';
import type { ShardMeta } from '../../formats/shards/shardFile.js';
import type { ReadOptions } from '../../io/documents.js';
import { parseU64 } from '../../math/u64.js';

/** What `cluster` was asked to inspect. */
export interface InspectSettings {
  readonly report?: string;
  readonly reportHtml?: string;
  /** `--audit N`: pairs per bin, and removed documents, sampled. */
  readonly audit?: number;
  /** Default: the shards' signature seed, as dedup's default is its --seed. */
  readonly auditSeed?: string | number;
  readonly auditFile?: string;
  /** `--corpus`: the signed corpus, read again for the page's texts. */
  readonly corpus?: readonly string[];
  readonly read?: ReadOptions;
}

export const wantsInspection = (s: InspectSettings): boolean =>
  s.report !== undefined || s.reportHtml !== undefined || s.audit !== undefined;

/**
 * The similarity estimate of `agree` equal slots of k, as signatureAgreement gives it (Li and König's for b-bit slots).
 */
export const estimateOf = agreementEstimate;

/** The inspection part of the plan: bins as slot counts, the page's sizes, the audit's seed as two residues. */
export function inspectOptionsFor(
  meta: ShardMeta,
  s: InspectSettings,
  rangeOffsets?: readonly number[],
): InspectOptions {
  const { k, slotBits } = meta.params;
  const leastAgreement = (edge: number): number => {
    for (let m = 0; m <= k; m++) if (estimateOf(m, k, slotBits) >= edge) return m;
    return k + 1;
  };
  return {
    binFloors: AUDIT_BIN_EDGES.map(leastAgreement),
    largest: { clusters: SHOWN_CLUSTERS, members: SHOWN_MEMBERS },
    audit:
      s.audit === undefined
        ? undefined
        : { perBin: s.audit, ...sampleSeeds(parseU64(String(s.auditSeed ?? meta.params.seed))) },
    rangeOffsets,
  };
}

const num = (row: InspectRow, key: string): number => Number(row[key]);

/** A member of a shown cluster, as the join names it. */
interface JoinMember {
  readonly id: string;
  readonly position: number;
  readonly grp: number | null;
}

/** What the inspection queries gave, read. */
export interface Inspection {
  readonly counts: Omit<JoinCounts, 'clusters'>;
  /** Verified pairs by equal slots. */
  readonly histogram: readonly { readonly agree: number; readonly pairs: number }[];
  /**
   * The largest clusters of two or more distinct texts, largest first, numbered by label (the position of their first
   * document).
   */
  readonly largest: readonly ClusterToShow<JoinMember>[];
  readonly audit?: AuditResult;
  /** Ids of the positions the audit names. */
  readonly auditIds: ReadonlyMap<number, string>;
}

export function readInspection(
  inspected: Inspected,
  meta: ShardMeta,
  threshold: number,
  chainDelta: number,
  s: InspectSettings,
): Inspection {
  const [c] = inspected.counts;
  const counts = {
    documents: num(c, 'documents'),
    empty: num(c, 'empty'),
    distinctTexts: num(c, 'distinct_texts'),
    nearDuplicateClusters: num(c, 'near_duplicate_clusters'),
    contaminated: num(c, 'contaminated'),
    removed: num(c, 'removed'),
  };
  const histogram = inspected.histogram
    .map((r) => ({ agree: num(r, 'agree'), pairs: num(r, 'pairs') }))
    .sort((a, b) => a.agree - b.agree);
  const auditIds = new Map<number, string>();
  const audit =
    s.audit === undefined
      ? undefined
      : measuredAudit(inspected, histogram, meta, auditIds, {
          perBin: s.audit,
          seed: s.auditSeed ?? meta.params.seed,
          threshold,
          chainDelta,
        });
  return { counts, histogram, largest: largestClusters(inspected.largest), audit, auditIds };
}

/**
 * The `largest` rows (each candidate cluster's kept document and first removed members) as the SHOWN_CLUSTERS largest,
 * ties to the earlier cluster.
 */
function largestClusters(rows: readonly InspectRow[]): ClusterToShow<JoinMember>[] {
  const byLabel = new Map<number, { size: number; kept?: JoinMember; removed: JoinMember[] }>();
  for (const r of rows) {
    const label = num(r, 'cluster');
    const cluster = byLabel.get(label) ?? { size: num(r, 'size'), removed: [] };
    byLabel.set(label, cluster);
    const member = { id: String(r.id), position: num(r, 'position'), grp: r.grp === null ? null : num(r, 'grp') };
    if (num(r, 'kept') === 1) cluster.kept = member;
    else cluster.removed.push(member);
  }
  return [...byLabel.entries()]
    .sort(([la, a], [lb, b]) => b.size - a.size || la - lb)
    .slice(0, SHOWN_CLUSTERS)
    .map(([label, c]) => {
      if (c.kept === undefined)
        throw new Error(`internal: cluster ${label} of the join's largest has no kept document`);
      // The cluster's number is filled in from the rows' stream (`numbered`); the label orders clusters the same way.
      return {
        cluster: label,
        size: c.size,
        kept: c.kept,
        removed: c.removed.sort((a, b) => a.position - b.position).slice(0, SHOWN_MEMBERS),
      };
    });
}

/** The audit of audit/audit.ts from the sample the join drew and measured. */
function measuredAudit(
  inspected: Inspected,
  histogram: Inspection['histogram'],
  meta: ShardMeta,
  ids: Map<number, string>,
  settings: { perBin: number; seed: string | number; threshold: number; chainDelta: number },
): AuditResult {
  const { k, slotBits } = meta.params;
  const estimate = (agree: number): number => estimateOf(agree, k, slotBits);
  // Bin populations two ways: the SQL's bin of each pair, and auditBin of each histogram entry; they must agree.
  const binPairs = AUDIT_BIN_EDGES.map(() => 0);
  for (const { agree, pairs } of histogram) binPairs[auditBin(estimate(agree))] += pairs;
  const population = new Map(inspected.audit_populations.map((r) => [num(r, 'stratum'), num(r, 'n')]));
  binPairs.forEach((n, h) => {
    if ((population.get(h) ?? 0) !== n)
      throw new Error(`internal: the join put ${population.get(h) ?? 0} pairs in audit bin ${h}, its histogram ${n}`);
  });
  const rows = [...inspected.audit_sample].sort(
    (a, b) => num(a, 'stratum') - num(b, 'stratum') || num(a, 'sample_rank') - num(b, 'sample_rank'),
  );
  const exact = new Map<string, number>();
  const pairs: SampledPair[] = [];
  const removals: SampledRemoval[] = [];
  for (const r of rows) {
    const [x, y, xSet, ySet] = [num(r, 'x'), num(r, 'y'), num(r, 'x_set'), num(r, 'y_set')];
    const [common, nx, ny] = [num(r, 'common'), num(r, 'nx'), num(r, 'ny')];
    // exactJaccard's arithmetic: 0 when a set is empty, else |A ∩ B| / |A ∪ B|.
    exact.set(`${xSet},${ySet}`, nx === 0 || ny === 0 ? 0 : common / (nx + ny - common));
    ids.set(x, String(r.x_id));
    ids.set(y, String(r.y_id));
    const stratum = num(r, 'stratum');
    if (stratum === REMOVED_STRATUM) removals.push({ removed: x, kept: y, removedGroup: xSet, keptGroup: ySet });
    else pairs.push({ bin: stratum, a: x, b: y, estimate: estimate(num(r, 'agree')) });
  }
  const sample: AuditSample = {
    perBin: settings.perBin,
    binPairs,
    pairs,
    removedPopulation: population.get(REMOVED_STRATUM) ?? 0,
    removals,
  };
  return measureAudit(sample, (a, b) => exact.get(`${a},${b}`)!, settings);
}
