/** `gpudedup cluster SHARD...`: the band join and connected components of signed shards, on DuckDB or Spark. */
import { Command, Option } from 'commander';
import { candidateProbability } from '../bands/lshParams.js';
import { writeTextFile } from '../formats/textFile.js';
import { checkOutputs } from '../pipeline/outputChecks.js';
import { sparkJobScript } from '../engines/spark.js';
import { ENGINES, planFor, runCluster, type ClusterConfig, type ClusterSummary, type EngineName } from '../pipeline/cluster.js';
import { counted, thousands } from '../format.js';
import { positiveInteger, tableOption } from './options.js';
import type { ClusterCheck, VerifyMode } from '../options.js';
import { describeKeepPolicy, type KeepPolicy } from '../clusters/keepPolicy.js';

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
  quiet: boolean;
}

export function registerClusterCommand(program: Command): void {
  program
    .command('cluster')
    .description('join shards of `gpudedup sign --shard` on DuckDB or Spark: clusters and a removal list, as `dedup` gives with the same options')
    .argument('<shards...>', 'Parquet shards from `gpudedup sign --shard I/N` (all N of them)')
    .addOption(new Option('--engine <name>', 'where the SQL runs: DuckDB embedded, or a local Spark job (pyspark)').choices(ENGINES).default('duckdb'))
    .option('--clusters <file>', 'write id, cluster, kept for every document (CSV; JSONL if .jsonl; Parquet if .parquet)')
    .option('--removed <file>', 'write the ids of the removed documents, in input order (CSV with header id; JSONL if .jsonl)')
    .addOption(tableOption('threshold', '-t, --threshold <t>', "verification threshold (default: the shards')", { withDefault: false }))
    .addOption(tableOption('maxBucketPairs', '--max-bucket-pairs <n>', 'buckets up to this size pair all members; larger ones pair each with the first member and its predecessor'))
    .addOption(tableOption('verify', '--verify <mode>', 'candidate verification, as dedup: hybrid (the estimate where it is sure, exact Jaccard of the stored shingle sets inside its margin), estimate, exact, or none'))
    .addOption(tableOption('estimateError', '--estimate-error <a>', "hybrid: chance that the estimate decides a pair at J = t wrongly; sets the margin"))
    .addOption(tableOption('clusterCheck', '--cluster-check <check>', 'representative: every removed document must reach t − chain-delta against the kept one; none: single linkage'))
    .addOption(tableOption('chainDelta', '--chain-delta <d>', 'representative check: removed documents reach t − d against the kept document (0: t itself)'))
    .addOption(tableOption('maxRepresentatives', '--max-representatives <n>', 'representative check: a member is compared with at most n representatives, then kept alone'))
    .addOption(tableOption('keep', '--keep <policy>', 'document kept per cluster: first, longest, or field:NAME (the score the shards stored: sign --shard --keep field:NAME); ties to the earliest'))
    .option('--against <ref.parquet>', 'reference shards (`sign REF --shard 1/1 -o ref.parquet`, same parameters): remove corpus documents near-duplicate to one, as dedup --against; repeat for several', (value: string, previous: string[] = []) => [...previous, value])
    .option('--memory-limit <size>', 'engine memory, e.g. 256MB or 4GB (DuckDB spills to --temp-directory beyond it)')
    .option('--temp-directory <dir>', 'where the engine spills')
    .option('--threads <n>', 'engine threads (Spark: local[n])', positiveInteger)
    .option('--emit-script <job.py>', 'write the Spark SQL job for spark-submit instead of running anything')
    .option('-q, --quiet', 'print errors only: no notes or summary', false)
    .action(async (shards: string[], options: ClusterCliOptions) => {
      if (options.emitScript !== undefined) return emitScript(shards, options);
      if (options.clusters === undefined && options.removed === undefined) throw new RangeError('nothing to write: give --clusters, --removed or --emit-script');
      const config: ClusterConfig = {
        shards,
        engine: options.engine,
        threshold: options.threshold,
        maxBucketPairs: options.maxBucketPairs,
        keep: options.keep,
        ...checkSettings(options),
        against: options.against,
        clusters: options.clusters,
        removed: options.removed,
        engineOptions: {
          memoryLimit: options.memoryLimit,
          tempDirectory: options.tempDirectory,
          threads: options.threads,
          onRound: (round, remaining, loop) => {
            if (options.quiet) return;
            if (loop === 'components') process.stderr.write(`components round ${round}: ${counted(remaining, 'edge')} still ${remaining === 1 ? 'points' : 'point'} at a non-root\n`);
            if (loop === 'check') process.stderr.write(`cluster check round ${round}: ${counted(remaining, 'distinct text')} still to check\n`);
          },
        },
      };
      // Before the join: the shards' footers say what they were banded for.
      const warning = options.quiet ? undefined : thresholdWarning({ ...(await planFor(config)) });
      if (warning !== undefined) process.stderr.write(`${warning}\n`);
      const summary = await runCluster(config);
      if (options.quiet) return;
      // With an output on standard output (`--clusters -`), the summary goes to standard error.
      printSummary(summary, options, [options.clusters, options.removed].includes('-') ? process.stderr : process.stdout);
    });
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
    `warning: the shards were banded for threshold ${s.meta.threshold} (${bands} bands × ${rows} rows): a pair at J = ${s.threshold} becomes a candidate ` +
    `with probability ${percent(s.threshold)} (${percent(s.meta.threshold)} at ${s.meta.threshold}), so pairs between the two are missed: sign the shards again with -t ${s.threshold}`
  );
}

async function emitScript(shards: string[], options: ClusterCliOptions): Promise<void> {
  await checkOutputs([{ flag: '--emit-script', path: options.emitScript! }], shards.map((path) => ({ path, role: 'a shard' })));
  const { plan } = await planFor({ shards, threshold: options.threshold, maxBucketPairs: options.maxBucketPairs, keep: options.keep, against: options.against, ...checkSettings(options) });
  await writeTextFile(options.emitScript!, sparkJobScript(plan));
  process.stdout.write(`wrote ${options.emitScript}: run it with\n  spark-submit ${options.emitScript} --out OUT_DIR ${shards.join(' ')}\n`);
}

function checkSettings(o: ClusterCliOptions): Pick<ClusterConfig, 'verify' | 'clusterCheck' | 'chainDelta' | 'maxRepresentatives' | 'estimateError'> {
  return { verify: o.verify, clusterCheck: o.clusterCheck, chainDelta: o.chainDelta, maxRepresentatives: o.maxRepresentatives, estimateError: o.estimateError };
}

function printSummary(s: ClusterSummary, options: ClusterCliOptions, stream: NodeJS.WriteStream): void {
  const int = thousands;
  const t = s.stats.timings;
  const sec = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(2);
  const lines = [
    `clustered ${counted(s.documents, 'document')} from ${counted(s.meta.shard.count, 'shard')} on ${options.engine} → ${options.clusters ?? options.removed}`,
    `  clusters     ${int(s.clusters)}`,
    `  removed      ${int(s.removed)}`,
    `  kept         ${int(s.documents - s.removed)}`,
    `  parameters   threshold ${s.threshold}, ${counted(s.meta.lsh.bands, 'band')} × ${counted(s.meta.lsh.rows, 'row')}, k ${s.meta.params.k}, verify ${options.verify}, cluster check ${options.clusterCheck}, keep ${describeKeepPolicy(options.keep)}`,
    `  candidates   ${counted(s.stats.candidates, 'pair')}, ${int(s.stats.verified)} verified; largest bucket ${int(s.stats.largestBucket)}`,
    `  exact        ${counted(s.stats.exactPairs, 'pair')} measured by exact Jaccard`,
    ...(options.against === undefined ? [] : [`  against      ${counted(s.stats.contaminatedGroups, 'distinct text')} matched the reference set, removed`]),
    `  components   ${counted(s.stats.rounds, 'round')} of large-star + small-star; ${counted(s.stats.checkRounds, 'round')} of the cluster check`,
    `  time         ${s.seconds.toFixed(2)} s (setup ${sec(t.setup)}, components ${sec(t.components)}, finish ${sec(t.finish)})`,
  ];
  stream.write(lines.join('\n') + '\n');
}
