/** `gpudedup cluster SHARD...`: the band join and connected components of signed shards, on DuckDB or Spark. */
import { type Command, Option } from 'commander';
import { candidateProbability } from '../bands/lshParams.js';
import { writeTextFile } from '../formats/files/textFile.js';
import { checkOutputs } from '../pipeline/shared/outputChecks.js';
import { sparkJobScript } from '../engines/spark.js';
import {
  ENGINES,
  planFor,
  runCluster,
  type ClusterConfig,
  type ClusterSummary,
  type EngineName,
} from '../pipeline/cluster/cluster.js';
import { counted, thousands } from '../format.js';
import { positiveInteger, tableOption } from './options.js';
import type { ClusterCheck, VerifyMode } from '../options.js';
import { describeKeepPolicy, type KeepPolicy } from '../text/keepPolicy.js';
import { auditSummaryLines } from '../formats/reports/auditReport.js';

interface ClusterCliOptions {
  engine: EngineName;
  clusters?: string;
  removed?: string;
  threshold?: number;
  maxBucketPairs: number;
  keep: KeepPolicy;
  verify: VerifyMode;
  clusterCheck: ClusterCheck;
  chainDelta: number;
  maxRepresentatives: number;
  estimateError: number;
  against?: string[];
  memoryLimit?: string;
  tempDirectory?: string;
  threads?: number;
  emitScript?: string;
  report?: string;
  reportHtml?: string;
  audit?: number;
  auditSeed?: string;
  auditFile?: string;
  corpus?: string[];
  textField: string;
  idField: string;
  quiet: boolean;
}

export function registerClusterCommand(program: Command): void {
  program
    .command('cluster')
    .description(
      'join shards of `gpudedup sign --shard` on DuckDB or Spark: clusters and a removal list, as `dedup` gives with ' +
        'the same options',
    )
    .argument('<shards...>', 'Parquet shards from `gpudedup sign --shard I/N` (all N of them)')
    .addOption(
      new Option('--engine <name>', 'where the SQL runs: DuckDB embedded, or a local Spark job (pyspark)')
        .choices(ENGINES)
        .default('duckdb'),
    )
    .option(
      '--clusters <file>',
      'write id, cluster, kept for every document (CSV; JSONL if .jsonl; Parquet if .parquet)',
    )
    .option(
      '--removed <file>',
      'write the ids of the removed documents, in input order (CSV with header id; JSONL if .jsonl)',
    )
    .addOption(
      tableOption('threshold', '-t, --threshold <t>', "verification threshold (default: the shards')", {
        withDefault: false,
      }),
    )
    .addOption(
      tableOption(
        'maxBucketPairs',
        '--max-bucket-pairs <n>',
        'buckets up to this size pair all members; larger ones pair each with the first member and its predecessor',
      ),
    )
    .addOption(
      tableOption(
        'verify',
        '--verify <mode>',
        'candidate verification, as dedup: hybrid (the estimate where it is sure, exact Jaccard of the stored shingle ' +
          'sets inside its margin), estimate, exact, or none',
      ),
    )
    .addOption(
      tableOption(
        'estimateError',
        '--estimate-error <a>',
        'hybrid: chance that the estimate decides a pair at J = t wrongly; sets the margin',
      ),
    )
    .addOption(
      tableOption(
        'clusterCheck',
        '--cluster-check <check>',
        'representative: every removed document must reach t − chain-delta against the kept one; none: single linkage',
      ),
    )
    .addOption(
      tableOption(
        'chainDelta',
        '--chain-delta <d>',
        'representative check: removed documents reach t − d against the kept document (0: t itself)',
      ),
    )
    .addOption(
      tableOption(
        'maxRepresentatives',
        '--max-representatives <n>',
        'representative check: a member is compared with at most n representatives, then kept alone',
      ),
    )
    .addOption(
      tableOption(
        'keep',
        '--keep <policy>',
        'document kept per cluster: first, longest, or field:NAME (the score the shards stored: sign --shard --keep ' +
          'field:NAME); ties to the earliest',
      ),
    )
    .option(
      '--against <ref.parquet>',
      'reference shards (`sign REF --shard 1/1 -o ref.parquet`, same parameters): remove corpus documents ' +
        'near-duplicate to one, as dedup --against; repeat for several',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--report <file.json>',
      "write the join's summary as JSON (dedup --report's fields where they mean the same)",
    )
    .option(
      '--report-html <file.html>',
      'write one self-contained HTML page: the summary, the S-curve, the similarity histogram, the audit and the ' +
        'largest clusters (with their diffs given --corpus)',
    )
    .addOption(
      tableOption(
        'audit',
        '--audit <n>',
        'measure exact Jaccard on a seeded sample: n accepted pairs per similarity bin and n removed documents; the ' +
          'report gives the precision with 95 % intervals (needs shards with shingle sets)',
      ),
    )
    .addOption(
      tableOption('auditSeed', '--audit-seed <u64>', "seed of the audit's sample (default: the shards' --seed)"),
    )
    .option(
      '--audit-file <file>',
      'with --audit: write the sampled pairs and removed documents with their exact Jaccard (CSV; JSONL or Parquet by the name)',
    )
    .option(
      '--corpus <file>',
      'the corpus the shards were signed from, as given to sign (repeat for several): --report-html shows the texts ' +
        'of its largest clusters, found by id',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(
      tableOption('textField', '--text-field <name>', '--corpus: JSONL field or Parquet column holding the text'),
    )
    .addOption(tableOption('idField', '--id-field <name>', '--corpus: JSONL field or Parquet column holding the id'))
    .option('--memory-limit <size>', 'engine memory, e.g. 256MB or 4GB (DuckDB spills to --temp-directory beyond it)')
    .option('--temp-directory <dir>', 'where the engine spills')
    .option('--threads <n>', 'engine threads (Spark: local[n])', positiveInteger)
    .option('--emit-script <job.py>', 'write the Spark SQL job for spark-submit instead of running anything')
    .option('-q, --quiet', 'print errors only: no notes or summary', false)
    .action(runClusterCommand);
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
  const lines = [
    `clustered ${counted(s.documents, 'document')} from ${counted(s.meta.shard.count, 'shard')} on ${options.engine} ` +
      `→ ${options.clusters ?? options.removed ?? options.report ?? options.reportHtml ?? options.auditFile}`,
    `  clusters     ${int(s.clusters)}`,
    `  removed      ${int(s.removed)}`,
    `  kept         ${int(s.documents - s.removed)}`,
    `  parameters   threshold ${s.threshold}, ${counted(s.meta.lsh.bands, 'band')} × ` +
      `${counted(s.meta.lsh.rows, 'row')}, k ${s.meta.params.k}, verify ${options.verify}, cluster check ` +
      `${options.clusterCheck}, keep ${describeKeepPolicy(options.keep)}`,
    `  candidates   ${counted(s.stats.candidates, 'pair')}, ${int(s.stats.verified)} verified; largest bucket ` +
      `${int(s.stats.largestBucket)}`,
    `  exact        ${counted(s.stats.exactPairs, 'pair')} measured by exact Jaccard`,
    ...(options.against === undefined
      ? []
      : [`  against      ${counted(s.stats.contaminatedGroups, 'distinct text')} matched the reference set, removed`]),
    `  components   ${counted(s.stats.rounds, 'round')} of large-star + small-star; ` +
      `${counted(s.stats.checkRounds, 'round')} of the cluster check`,
    ...auditSummaryLines(s.report?.audit ?? null),
    `  time         ${s.seconds.toFixed(2)} s (setup ${sec(t.setup)}, components ${sec(t.components)}, finish ` +
      `${sec(t.finish)}${t.inspect === undefined ? '' : `, inspect ${sec(t.inspect)}`})`,
  ];
  stream.write(lines.join('\n') + '\n');
}
