/**
 * `--report-html FILE`: the largest near-duplicate clusters, their texts read
 * once more from the corpus (only theirs are held), each removed member
 * compared with the kept document (clusters/compareTexts.ts, the tab's diff),
 * and the page (formats/htmlReport.ts) written atomically.
 */
import type { Assignment } from '../clusters/assignment.js';
import { compareTexts } from '../clusters/compareTexts.js';
import type { DocumentTable } from '../clusters/documentTable.js';
import type { DedupReport } from '../formats/dedupReport.js';
import { htmlReport, type HtmlCluster } from '../formats/htmlReport.js';
import { writeTextFile } from '../formats/textFile.js';
import type { ReadOptions } from '../io/documents.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../plots/histogram.js';
import { sCurveSvg } from '../plots/sCurve.js';
import { shingleOptionsOf } from '../signatures/params.js';
import type { DedupConfig, StageProgress } from './config.js';
import type { DedupOutcome } from './dedup.js';
import { rereadCorpus } from './reread.js';

/** Clusters shown, and removed members shown per cluster. */
export const HTML_CLUSTERS = 10;
export const HTML_MEMBERS = 8;

interface ChosenCluster {
  readonly cluster: number;
  readonly size: number;
  readonly kept: number;
  /** Removed members shown, in input order. */
  readonly removed: number[];
}

/** The largest clusters of two or more distinct texts (ties: lower cluster number), with their kept and first removed documents. */
export function largestClusters(assignment: Assignment, table: DocumentTable, count = HTML_CLUSTERS, perCluster = HTML_MEMBERS): ChosenCluster[] {
  const { cluster, kept } = assignment;
  const clusters = assignment.counts.clusters;
  const sizes = new Uint32Array(clusters);
  const keptOf = new Int32Array(clusters).fill(-1);
  const mixed = new Uint8Array(clusters); // a member whose text differs from the kept one's
  for (let d = 0; d < cluster.length; d++) {
    sizes[cluster[d]]++;
    if (kept[d] === 1) keptOf[cluster[d]] = d;
  }
  for (let d = 0; d < cluster.length; d++) if (keptOf[cluster[d]] >= 0 && table.group(d) !== table.group(keptOf[cluster[d]])) mixed[cluster[d]] = 1;
  const order: number[] = [];
  for (let c = 0; c < clusters; c++) if (mixed[c] === 1) order.push(c);
  order.sort((a, b) => sizes[b] - sizes[a] || a - b);
  const chosen = order.slice(0, count).map((c): ChosenCluster => ({ cluster: c, size: sizes[c], kept: keptOf[c], removed: [] }));
  const byCluster = new Map(chosen.map((c) => [c.cluster, c]));
  for (let d = 0; d < cluster.length; d++) {
    const c = byCluster.get(cluster[d]);
    if (c !== undefined && d !== c.kept && c.removed.length < perCluster) c.removed.push(d);
  }
  return chosen;
}

/** The ids and texts of `wanted` documents, from one more pass over the corpus. */
async function textsOf(outcome: DedupOutcome, read: ReadOptions, wanted: ReadonlySet<number>, progress: StageProgress): Promise<Map<number, { id: string; text: string }>> {
  const found = new Map<number, { id: string; text: string }>();
  try {
    for await (const doc of rereadCorpus(outcome.files, read, outcome.table.documents, 'for --report-html', progress)) {
      if (wanted.has(doc.index)) found.set(doc.index, { id: doc.id, text: doc.text });
    }
  } finally {
    progress.stop();
  }
  return found;
}

export async function htmlClusters(outcome: DedupOutcome, config: DedupConfig, progress: StageProgress): Promise<HtmlCluster[]> {
  const chosen = largestClusters(outcome.assignment, outcome.table);
  const texts = await textsOf(outcome, config.read, new Set(chosen.flatMap((c) => [c.kept, ...c.removed])), progress);
  const shingle = shingleOptionsOf(config.params);
  const { table } = outcome;
  return chosen.map((c) => {
    const kept = texts.get(c.kept)!;
    const members = c.removed.map((d) => {
      const doc = texts.get(d)!;
      const exactDuplicate = table.group(d) === table.group(c.kept);
      return { id: doc.id, exactDuplicate, comparison: exactDuplicate ? undefined : compareTexts(kept.text, doc.text, shingle) };
    });
    return { cluster: c.cluster, size: c.size, keptId: kept.id, members };
  });
}

export async function writeHtmlReport(path: string, config: DedupConfig, outcome: DedupOutcome, report: DedupReport, progress: StageProgress): Promise<void> {
  const clusters = await htmlClusters(outcome, config, progress);
  const sCurve = sCurveSvg({ ...config.lsh, threshold: config.threshold });
  const histogram = similarityHistogramSvg(verifiedPairsHistogram(outcome.verified, config.threshold));
  await writeTextFile(path, htmlReport({ report, sCurveSvg: sCurve, histogramSvg: histogram, clusters }));
}
