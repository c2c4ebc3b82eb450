/**
 * `cluster --report`, `--report-html`, `--audit-file`: the report built from the read inspection
 * (clusterInspect.ts) and the rows streamed back, and the files written from them.
 */
import { showChosenClusters } from '../../clusters/largestClusters.js';
import { buildClusterReport, type ClusterReport, type ClusterReportInput } from '../../engines/clusterReport.js';
import { writeTextFile } from '../../formats/files/textFile.js';
import { htmlReport, type PageReport } from '../../formats/reports/htmlReport.js';
import type { ShardMeta } from '../../formats/shards/shardFile.js';
import { DEFAULT_READ, type ReadOptions } from '../../io/documents.js';
import { listInputFiles, readDocuments } from '../../io/readDocuments.js';
import { similarityHistogramSvg } from '../../plots/histogram.js';
import { sCurveSvg } from '../../plots/sCurve.js';
import { shingleOptionsOf, type SignatureParams } from '../../signatures/params.js';
import { idfTableLoaded } from '../../shingles/idfWeights.js';
import type { ShingleOptions } from '../../shingles/shingles.js';
import { writeAuditRows } from '../shared/writeAudit.js';
import { estimateOf, type InspectSettings, type Inspection } from './clusterInspect.js';

/**
 * The texts of `ids`, from one pass over the corpus (ids as `sign` named them: give the files as they were given to
 * it).
 */
export async function textsById(
  paths: readonly string[],
  read: ReadOptions,
  ids: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for await (const doc of readDocuments(await listInputFiles(paths), read)) {
    if (ids.has(doc.id)) texts.set(doc.id, doc.text);
    if (texts.size === ids.size) break;
  }
  return texts;
}

/** What the join was asked and what its rows gave: the report's input but for the inspection's own counts and audit. */
export interface InspectionContext extends Omit<ClusterReportInput, 'counts' | 'audit'> {
  /**
   * From the rows streamed back: documents, removed, clusters, and the shown clusters' numbers by their kept document's
   * id.
   */
  readonly rows: {
    readonly documents: number;
    readonly removed: number;
    readonly clusters: number;
    readonly numbers: ReadonlyMap<string, number>;
  };
  /** A line for the user. */
  readonly note: (message: string) => void;
}

/** Builds the report and writes --report, --audit-file and --report-html; returns the report. */
export async function writeInspection(
  inspection: Inspection,
  s: InspectSettings,
  context: InspectionContext,
): Promise<ClusterReport> {
  const { rows } = context;
  const report = buildClusterReport({
    ...context,
    counts: { ...inspection.counts, clusters: rows.clusters },
    audit: inspection.audit,
  });
  if (report.documents !== rows.documents || report.removed !== rows.removed) {
    throw new Error(
      `internal: the join's counts (${report.documents} documents, ${report.removed} removed) differ from its rows' ` +
        `(${rows.documents}, ${rows.removed})`,
    );
  }
  await writeInspectionFiles(
    inspection,
    s,
    { report, meta: context.meta, threshold: context.threshold, numbers: rows.numbers },
    context.note,
  );
  if (s.report !== undefined) await writeTextFile(s.report, JSON.stringify(report, null, 2) + '\n');
  return report;
}

/** Writes --audit-file and --report-html from the inspection. */
async function writeInspectionFiles(
  inspection: Inspection,
  s: InspectSettings,
  page: {
    readonly report: PageReport;
    readonly meta: ShardMeta;
    readonly threshold: number;
    readonly numbers: ReadonlyMap<string, number>;
  },
  note: (message: string) => void,
): Promise<void> {
  if (s.auditFile !== undefined && inspection.audit !== undefined) {
    const id = (position: number): string => inspection.auditIds.get(position)!;
    await writeAuditRows(s.auditFile, inspection.audit, {
      pair: (p) => [id(p.a), id(p.b)],
      removal: (r) => [id(r.removed), id(r.kept)],
    });
  }
  if (s.reportHtml === undefined) return;
  const { meta, threshold } = page;
  const wanted = new Set(inspection.largest.flatMap((c) => [c.kept.id, ...c.removed.map((m) => m.id)]));
  const texts =
    s.corpus === undefined || s.corpus.length === 0
      ? new Map<string, string>()
      : await textsById(s.corpus, s.read ?? DEFAULT_READ, wanted);
  if (s.corpus !== undefined && texts.size < wanted.size)
    note(
      `--report-html: ${wanted.size - texts.size} of the ${wanted.size} documents shown are not in --corpus by id ` +
        `(shown without their text)`,
    );
  const numbered = inspection.largest.map((c) => ({ ...c, cluster: page.numbers.get(c.kept.id)! }));
  const clusters = showChosenClusters(
    numbered,
    { id: (m) => m.id, text: (m) => texts.get(m.id), sameText: (a, b) => a.grp === b.grp },
    comparedAs(meta.params, note),
  );
  const similarities = new Float64Array(inspection.histogram.reduce((sum, h) => sum + h.pairs, 0));
  let at = 0;
  for (const { agree, pairs } of inspection.histogram)
    similarities.fill(estimateOf(agree, meta.params.k, meta.params.slotBits), at, (at += pairs));
  const histogramSvg = similarityHistogramSvg({ similarities, threshold, measure: 'estimate' });
  await writeTextFile(
    s.reportHtml,
    htmlReport({
      title: 'gpudedup cluster report',
      report: page.report,
      sCurveSvg: sCurveSvg({ ...meta.lsh, threshold }),
      histogramSvg,
      clusters,
    }),
  );
}

/**
 * The shingle options the page compares texts by: the shards' own, but for idf weights whose table this run does not
 * hold (cluster reads shards, not the corpus's table): plain sets then, said in a note.
 */
function comparedAs(params: SignatureParams, note: (message: string) => void): ShingleOptions {
  if (params.weights !== 'idf' || (params.idf !== undefined && idfTableLoaded(params.idf)))
    return shingleOptionsOf(params);
  note('--report-html: the shards weigh shingles by idf, whose table cluster does not have: texts compared as sets');
  const { weights: _weights, idf: _idf, ...plain } = params;
  return shingleOptionsOf(plain);
}
