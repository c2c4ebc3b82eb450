/** `gpudedup cluster SHARD...`: the band join and connected components of signed shards, on DuckDB or Spark. */
import type { Command } from 'commander';
import { candidateProbability } from '../bands/lshParams.js';
import { writeTextFile } from '../formats/files/textFile.js';
import { checkOutputs } from '../pipeline/shared/outputChecks.js';
import { sparkJobScript } from '../engines/spark.js';
import { bufferLimit, memoryLimitOf } from '../engines/engine.js';
import { planFor, runCluster, type ClusterConfig, type ClusterSummary } from '../pipeline/cluster/cluster.js';
import { counted, thousands } from '../format.js';
import { describeKeepPolicy } from '../text/keepPolicy.js';
import { schemeOf } from '../signatures/params.js';
import { maxHammingOfBands } from '../bands/simhashBands.js';
import { auditSummaryLines } from '../formats/reports/auditReport.js';
import {
  addCheckOptions,
  addEngineAndOutputOptions,
  addEngineResourceOptions,
  addInspectOptions,
  type ClusterCliOptions,
} from './clusterOptions.js';

export function registerClusterCommand(program: Command): void {
  const command = program
    .command('cluster')
    .description(
      'join shards of `gpudedup sign --shard` on DuckDB or Spark: clusters and a removal list, as `dedup` gives with ' +
        'the same options',
    )
    .argument('<shards...>', 'Parquet shards from `gpudedup sign --shard I/N` (all N of them)');
  addEngineResourceOptions(addInspectOptions(addCheckOptions(addEngineAndOutputOptions(command)))).action(
    runClusterCommand,
  );
}

async function runClusterCommand(shards: string[], options: ClusterCliOptions): Promise<void> {
  if (options.emitScript !== undefined) return emitScript(shards, options);
  if (
    [options.clusters, options.removed, options.report, options.reportHtml, options.auditFile].every(
      (p) => p === undefined,
    )
  ) {
    throw new RangeError(
      'nothing to write: give --clusters, --removed, --report, --report-html, --audit-file or --emit-script',
    );
  }
  if (options.auditFile !== undefined && options.audit === undefined)
    throw new RangeError('--audit-file needs --audit N (the sample size)');
  if (options.auditSeed !== undefined && options.audit === undefined)
    throw new RangeError('--audit-seed needs --audit N (the sample size)');
  if (options.corpus !== undefined && options.reportHtml === undefined)
    throw new RangeError('--corpus is read for the texts of --report-html: give --report-html too');
  const config = clusterConfig(shards, options);
  // Before the join: the shards' footers say what they were banded for.
  const warning = options.quiet ? undefined : thresholdWarning({ ...(await planFor(config)) });
  if (warning !== undefined) process.stderr.write(`${warning}\n`);
  const summary = await runCluster(config);
  if (options.quiet) return;
  // With an output on standard output (`--clusters -`), the summary goes to standard error.
  printSummary(
    summary,
    options,
    [options.clusters, options.removed, options.report, options.auditFile].includes('-')
      ? process.stderr
      : process.stdout,
  );
}

/** What the join is given: the options as the pipeline names them, with notes and rounds printed here. */
function clusterConfig(shards: string[], options: ClusterCliOptions): ClusterConfig {
  return {
    shards,
    engine: options.engine,
    threshold: options.threshold,
    maxBucketPairs: options.maxBucketPairs,
    keep: options.keep,
    ...checkSettings(options),
    against: options.against,
    clusters: options.clusters,
    removed: options.removed,
    inspect: {
      report: options.report,
      reportHtml: options.reportHtml,
      audit: options.audit,
      auditSeed: options.auditSeed,
      auditFile: options.auditFile,
      corpus: options.corpus,
      read: { textField: options.textField, idField: options.idField, skipInvalid: false },
    },
    engineOptions: {
      onNote: (message) => process.stderr.write(`note: ${message}\n`),
      memoryLimit: options.memoryLimit,
      tempDirectory: options.tempDirectory,
      threads: options.threads,
      onRound: (round, remaining, loop) => {
        if (options.quiet) return;
        if (loop === 'components')
          process.stderr.write(
            `components round ${round}: ${counted(remaining, 'edge')} still ${remaining === 1 ? 'points' : 'point'} ` +
              `at a non-root\n`,
          );
        if (loop === 'check')
          process.stderr.write(`cluster check round ${round}: ${counted(remaining, 'distinct text')} still to check\n`);
      },
    },
  };
}

/**
 * `-t` below the threshold the shards were banded for: pairs between the two
 * become candidates rarely, so most are missed; the S-curve says how rarely.
 */
export function thresholdWarning(s: Pick<ClusterSummary, 'threshold' | 'meta'>): string | undefined {
  const { bands, rows } = s.meta.lsh;
  if (!(s.threshold < s.meta.threshold)) return undefined;
  const percent = (t: number): string => `${(candidateProbability(t, bands, rows) * 100).toFixed(1)} %`;
  return (
    `warning: the shards were banded for threshold ${s.meta.threshold} (${bands} bands × ${rows} rows): a pair at J = ` +
    `${s.threshold} becomes a candidate ` +
    `with probability ${percent(s.threshold)} (${percent(s.meta.threshold)} at ${s.meta.threshold}), so pairs between ` +
    `the two are missed: sign the shards again with -t ${s.threshold}`
  );
}

async function emitScript(shards: string[], options: ClusterCliOptions): Promise<void> {
  await checkOutputs(
    [{ flag: '--emit-script', path: options.emitScript! }],
    shards.map((path) => ({ path, role: 'a shard' })),
  );
  const { plan } = await planFor({
    shards,
    engine: 'spark',
    threshold: options.threshold,
    maxBucketPairs: options.maxBucketPairs,
    keep: options.keep,
    against: options.against,
    ...checkSettings(options),
  });
  await writeTextFile(options.emitScript!, sparkJobScript(plan));
  process.stdout.write(
    `wrote ${options.emitScript}: run it with\n  spark-submit ${options.emitScript} --out OUT_DIR ` +
      `${shards.join(' ')}\n`,
  );
}

function checkSettings(
  o: ClusterCliOptions,
): Pick<ClusterConfig, 'verify' | 'clusterCheck' | 'chainDelta' | 'maxRepresentatives' | 'estimateError'> {
  return {
    verify: o.verify,
    clusterCheck: o.clusterCheck,
    chainDelta: o.chainDelta,
    maxRepresentatives: o.maxRepresentatives,
    estimateError: o.estimateError,
  };
}

function printSummary(s: ClusterSummary, options: ClusterCliOptions, stream: NodeJS.WriteStream): void {
  const int = thousands;
  const t = s.stats.timings;
  const sec = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(2);
  const simhash = schemeOf(s.meta.params) === 'simhash';
  const lines = [
    `clustered ${counted(s.documents, 'document')} from ${counted(s.meta.shard.count, 'shard')} on ${options.engine} ` +
      `→ ${options.clusters ?? options.removed ?? options.report ?? options.reportHtml ?? options.auditFile}`,
    `  clusters     ${int(s.clusters)}`,
    `  removed      ${int(s.removed)}`,
    `  kept         ${int(s.documents - s.removed)}`,
    `  parameters   ${simhash ? `simhash, Hamming ≤ ${maxHammingOfBands(s.meta.lsh)} (threshold ${s.threshold})` : `threshold ${s.threshold}`}, ` +
      `${counted(s.meta.lsh.bands, simhash ? 'block table' : 'band')} × ${counted(s.meta.lsh.rows, simhash ? 'bit' : 'row')}, ` +
      `k ${s.meta.params.k}, verify ${options.verify}, cluster check ${options.clusterCheck}, keep ` +
      `${describeKeepPolicy(options.keep)}`,
    `  candidates   ${counted(s.stats.candidates, 'pair')}, ${int(s.stats.verified)} verified; largest bucket ` +
      `${int(s.stats.largestBucket)}`,
    `  exact        ${counted(s.stats.exactPairs, 'pair')} measured by exact ${simhash ? 'angle' : 'Jaccard'}`,
    ...(options.against === undefined
      ? []
      : [`  against      ${counted(s.stats.contaminatedGroups, 'distinct text')} matched the reference set, removed`]),
    `  components   ${counted(s.stats.rounds, 'round')} of large-star + small-star; ` +
      `${counted(s.stats.checkRounds, 'round')} of the cluster check`,
    ...auditSummaryLines(s.report?.audit ?? null),
    `  time         ${s.seconds.toFixed(2)} s (setup ${sec(t.setup)}, components ${sec(t.components)}, finish ` +
      `${sec(t.finish)}${t.inspect === undefined ? '' : `, inspect ${sec(t.inspect)}`})`,
    ...peakLines(s.stats.peaks),
    memoryLine(options, s.hostSetBytes),
  ];
  stream.write(lines.join('\n') + '\n');
}

/** Each phase's peak resident set, where the engine measured it. */
function peakLines(peaks: Record<string, number> | undefined): string[] {
  const entries = Object.entries(peaks ?? {});
  if (entries.length === 0) return [];
  const mib = (bytes: number): string => `${thousands(Math.round(bytes / 2 ** 20))} MiB`;
  return [`  peak RSS     ${entries.map(([phase, bytes]) => `${phase} ${mib(bytes)}`).join(', ')}`];
}

/** The memory limit the engine ran under, its own share of it, and the exact pass's sets' where they had one. */
function memoryLine(options: ClusterCliOptions, hostSetBytes: number | undefined): string {
  const limit = memoryLimitOf(options);
  const given = options.memoryLimit === undefined ? ' (the default: half the memory available)' : '';
  const engine = options.engine === 'spark' ? "Spark's driver heap" : "DuckDB's memory_limit";
  const sets =
    hostSetBytes === undefined
      ? ''
      : ` less what the exact pass's shingle sets hold (at most ${Math.round(hostSetBytes / 1e6)}MB; past it, files)`;
  return `  memory       --memory-limit ${limit}${given}, ${engine} ${bufferLimit(limit)}${sets}`;
}
