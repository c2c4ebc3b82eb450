/**
 * The whole `gpudedup dedup` job: runDedup, then the writing pass (skipped
 * when nothing but the report is written), then the report.
 */
import { checkKeptOutput } from '../../formats/keptDocuments.js';
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';
import { listInputFiles, totalInputBytes } from '../../io/readDocuments.js';
import type { NamedOutput } from '../shared/outputChecks.js';
import { dedupPreflight, PLOT_FILES } from './preflight.js';
import { join } from 'node:path';
import { nodeStageWorkers } from '../../dedup/node/stageWorkers.js';
import { collectGarbage } from '../../workers/collect.js';
import { writeTextFile } from '../../formats/files/textFile.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../../plots/histogram.js';
import { sCurveSvg } from '../../plots/sCurve.js';
import { runThreads, SILENT_HOOKS, type DedupConfig, type DedupHooks } from '../shared/config.js';
import { dedupInputBytes, runDedup, type DedupOutcome } from './dedup.js';
import { buildReport, writeReport, type DedupReport } from '../shared/report.js';
import { auditDocuments, writeAuditFile } from '../shared/writeAudit.js';
import { rereadCorpus } from './reread.js';
import { writeHtmlReport } from './htmlReport.js';
import { writeDedupOutputs, type DedupOutputPaths } from './writeOutputs.js';
import { cpuSince } from '../../dedup/stageTimer.js';
import { nodeCpuClock } from '../shared/cpuClock.js';

export interface DedupOutputs extends DedupOutputPaths {
  readonly report?: string;
  /** Compute everything, write only the report. */
  readonly dryRun?: boolean;
  /**
   * A directory for the run's SVG plots: the S-curve of its banding and the histogram of its verified pairs'
   * similarities.
   */
  readonly plots?: string;
  /** `--audit-file`: the audit's sample with exact Jaccard (CSV, JSONL or Parquet by the name); needs config.audit. */
  readonly auditFile?: string;
  /** `--report-html`: one self-contained HTML page (formats/reports/htmlReport.ts). */
  readonly reportHtml?: string;
  /** Codec of Parquet outputs (default snappy). */
  readonly parquetCompression?: ParquetCompression;
}

export async function dedupJob(
  config: DedupConfig,
  outputs: DedupOutputs,
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<{ outcome: DedupOutcome; report: DedupReport }> {
  await dedupPreflight(config, namedOutputs(outputs), outputs.dryRun ? undefined : outputs.plots);
  if (outputs.out !== undefined) await checkKeptOutput(outputs.out, await listInputFiles(config.inputs));
  const outcome = await runDedup(config, hooks);
  const timings = { ...outcome.timings };
  const cpu = { ...outcome.cpu };
  const paths: DedupOutputPaths = {
    out: outputs.out,
    clusters: outputs.clusters,
    pairs: outputs.pairs,
    contamination: outputs.contamination,
  };
  if (!outputs.dryRun && Object.values(paths).some((p) => p !== undefined)) {
    const started = performance.now();
    const clock = nodeCpuClock();
    const cpuStarted = clock?.();
    // The candidates' rows and the stages' tables, dropped with runDedup's stages: not resident while writing (1 M
    // runs peaked here, 0.5 GiB of rows still held as the writing pass's buffers came).
    collectGarbage();
    await writeOutputs(config, outcome, paths, hooks, outputs.parquetCompression);
    timings.writing = performance.now() - started;
    const writingCpu = cpuSince(clock, cpuStarted);
    if (writingCpu !== undefined) cpu.writing = writingCpu;
  }
  const report = buildReport(config, outcome, timings, cpu);
  if (outputs.report !== undefined) await writeReport(outputs.report, report);
  if (outputs.auditFile !== undefined && outcome.audit !== undefined && !outputs.dryRun) {
    const ids = await documentIds(outcome, config, auditDocuments(outcome.audit, outcome.table), hooks);
    await writeAuditFile(outputs.auditFile, outcome.audit, outcome.table, ids, outputs.parquetCompression);
  }
  if (outputs.plots !== undefined && !outputs.dryRun) await writePlots(outputs.plots, config, outcome);
  if (outputs.reportHtml !== undefined && !outputs.dryRun)
    await writeHtmlReport(
      outputs.reportHtml,
      config,
      outcome,
      report,
      hooks.stage('report page', totalInputBytes(outcome.files), 'bytes'),
    );
  return { outcome, report };
}

/** The writing pass, its tables' rows made on stage workers when the run has more than one thread. */
async function writeOutputs(
  config: DedupConfig,
  outcome: DedupOutcome,
  paths: DedupOutputPaths,
  hooks: DedupHooks,
  parquetCompression: ParquetCompression | undefined,
): Promise<void> {
  const threads = runThreads(config.threads, dedupInputBytes(config, outcome.files));
  const workers = threads > 1 ? nodeStageWorkers(threads) : undefined;
  try {
    const progress = hooks.stage('writing', totalInputBytes(outcome.files), 'bytes');
    await writeDedupOutputs(outcome, paths, config.read, progress, {
      parquetCompression,
      tableWorkers: workers?.tables,
      keptWorkers: workers?.copies,
    });
  } finally {
    workers?.destroy();
  }
}

async function writePlots(dir: string, config: DedupConfig, outcome: DedupOutcome): Promise<void> {
  const [sCurve, histogram] = PLOT_FILES;
  await writeTextFile(join(dir, sCurve), sCurveSvg({ ...config.lsh, threshold: config.threshold }));
  await writeTextFile(
    join(dir, histogram),
    similarityHistogramSvg(verifiedPairsHistogram(outcome.verified, config.threshold)),
  );
}

/**
 * The ids of `docs`: recorded by the first pass, or from a signature file alone; with `--signatures` and the
 * corpus (no records), from one more pass that keeps only theirs.
 */
async function documentIds(
  outcome: DedupOutcome,
  config: DedupConfig,
  docs: ReadonlySet<number>,
  hooks: DedupHooks,
): Promise<(doc: number) => string> {
  const { records, presignedIds } = outcome;
  if (records !== undefined) return (d) => records.id(d);
  if (presignedIds !== undefined || outcome.files.length === 0) return (d) => presignedIds?.[d] ?? String(d);
  const found = new Map<number, string>();
  const progress = hooks.stage('audit ids', totalInputBytes(outcome.files), 'bytes');
  try {
    for await (const doc of rereadCorpus(
      outcome.files,
      config.read,
      outcome.table.documents,
      "to name the audit's documents",
      progress,
    ))
      if (docs.has(doc.index)) found.set(doc.index, doc.id);
  } finally {
    progress.stop();
  }
  return (d) => found.get(d)!;
}

/** The outputs as the command line names them, for messages. */
export function namedOutputs(outputs: DedupOutputs): NamedOutput[] {
  const named: [string, string | undefined][] = [
    ['-o', outputs.out],
    ['--clusters', outputs.clusters],
    ['--pairs', outputs.pairs],
    ['--contamination', outputs.contamination],
    ['--report', outputs.report],
    ['--audit-file', outputs.auditFile],
    ['--report-html', outputs.reportHtml],
  ];
  return named
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([flag, path]) => ({ flag, path }));
}
