/**
 * The whole `gpudedup dedup` job: runDedup, then the writing pass (skipped
 * when nothing but the report is written), then the report.
 */
import { checkKeptOutput } from '../formats/keptDocuments.js';
import type { ParquetCompression } from '../formats/parquetFile.js';
import { listInputFiles, totalInputBytes } from '../io/readDocuments.js';
import { checkOutputs, type NamedOutput } from './outputChecks.js';
import { join } from 'node:path';
import { writeTextFile } from '../formats/textFile.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../plots/histogram.js';
import { sCurveSvg } from '../plots/sCurve.js';
import { SILENT_HOOKS, type DedupConfig, type DedupHooks } from './config.js';
import { runDedup, type DedupOutcome } from './dedup.js';
import { buildReport, writeReport, type DedupReport } from './report.js';
import { writeDedupOutputs, type DedupOutputPaths } from './writeOutputs.js';

export interface DedupOutputs extends DedupOutputPaths {
  readonly report?: string;
  /** Compute everything, write only the report. */
  readonly dryRun?: boolean;
  /** A directory for the run's SVG plots: the S-curve of its banding and the histogram of its verified pairs' similarities. */
  readonly plots?: string;
  /** Codec of Parquet outputs (default snappy). */
  readonly parquetCompression?: ParquetCompression;
}

export async function dedupJob(config: DedupConfig, outputs: DedupOutputs, hooks: DedupHooks = SILENT_HOOKS): Promise<{ outcome: DedupOutcome; report: DedupReport }> {
  const inputs = await listInputFiles(config.inputs);
  await checkOutputs(namedOutputs(outputs), [...inputs, ...(await listInputFiles(config.against))]);
  if (outputs.out !== undefined) await checkKeptOutput(outputs.out, inputs);
  const outcome = await runDedup(config, hooks);
  const timings = { ...outcome.timings };
  const paths: DedupOutputPaths = { out: outputs.out, clusters: outputs.clusters, pairs: outputs.pairs, contamination: outputs.contamination };
  if (!outputs.dryRun && Object.values(paths).some((p) => p !== undefined)) {
    const started = performance.now();
    await writeDedupOutputs(outcome, paths, config.read, hooks.stage('writing', totalInputBytes(outcome.files), 'bytes'), { parquetCompression: outputs.parquetCompression });
    timings.writing = performance.now() - started;
  }
  const report = buildReport(config, outcome, timings);
  if (outputs.report !== undefined) await writeReport(outputs.report, report);
  if (outputs.plots !== undefined && !outputs.dryRun) await writePlots(outputs.plots, config, outcome);
  return { outcome, report };
}

async function writePlots(dir: string, config: DedupConfig, outcome: DedupOutcome): Promise<void> {
  await writeTextFile(join(dir, 's-curve.svg'), sCurveSvg({ ...config.lsh, threshold: config.threshold }));
  await writeTextFile(join(dir, 'similarity-histogram.svg'), similarityHistogramSvg(verifiedPairsHistogram(outcome.verified, config.threshold)));
}

/** The outputs as the command line names them, for messages. */
export function namedOutputs(outputs: DedupOutputs): NamedOutput[] {
  const named: [string, string | undefined][] = [
    ['-o', outputs.out],
    ['--clusters', outputs.clusters],
    ['--pairs', outputs.pairs],
    ['--contamination', outputs.contamination],
    ['--report', outputs.report],
  ];
  return named.filter((entry): entry is [string, string] => entry[1] !== undefined).map(([flag, path]) => ({ flag, path }));
}
