/**
 * `--report-html FILE`: the largest near-duplicate clusters
 * (clusters/largestClusters.ts), their texts read once more from the corpus
 * (only theirs are held), each removed member compared with the kept document
 * (the tab's diff), and the page (formats/reports/htmlReport.ts) written atomically.
 */
import { largestClusters, showClusters } from '../../clusters/largestClusters.js';
import type { DedupReport } from '../../formats/reports/dedupReport.js';
import { htmlReport, type HtmlCluster } from '../../formats/reports/htmlReport.js';
import { writeTextFile } from '../../formats/files/textFile.js';
import type { ReadOptions } from '../../io/documents.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../../plots/histogram.js';
import { sCurveSvg } from '../../plots/sCurve.js';
import { shingleOptionsOf } from '../../signatures/params.js';
import type { DedupConfig, StageProgress } from '../shared/config.js';
import type { DedupOutcome } from './dedup.js';
import { rereadCorpus } from './reread.js';

/** The ids and texts of `wanted` documents, from one more pass over the corpus. */
async function textsOf(
  outcome: DedupOutcome,
  read: ReadOptions,
  wanted: ReadonlySet<number>,
  progress: StageProgress,
): Promise<Map<number, { id: string; text: string }>> {
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

export async function htmlClusters(
  outcome: DedupOutcome,
  config: DedupConfig,
  progress: StageProgress,
): Promise<HtmlCluster[]> {
  const chosen = largestClusters(outcome.assignment, outcome.table);
  const texts = await textsOf(outcome, config.read, new Set(chosen.flatMap((c) => [c.kept, ...c.removed])), progress);
  return showClusters(
    chosen,
    outcome.table,
    (d) => texts.get(d)!.id,
    (d) => texts.get(d)?.text,
    shingleOptionsOf(config.params),
  );
}

export async function writeHtmlReport(
  path: string,
  config: DedupConfig,
  outcome: DedupOutcome,
  report: DedupReport,
  progress: StageProgress,
): Promise<void> {
  const clusters = await htmlClusters(outcome, config, progress);
  const sCurve = sCurveSvg({ ...config.lsh, threshold: config.threshold });
  const histogram = similarityHistogramSvg(verifiedPairsHistogram(outcome.verified, config.threshold));
  await writeTextFile(path, htmlReport({ report, sCurveSvg: sCurve, histogramSvg: histogram, clusters }));
}
