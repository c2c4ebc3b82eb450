/** `gpudedup cluster SHARD...`: the band join and connected components of signed shards, on DuckDB or Spark. */
import { Command, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import { sparkJobScript } from '../engines/spark.js';
import { ENGINES, planFor, runCluster, type ClusterConfig, type ClusterSummary, type EngineName } from '../pipeline/cluster.js';
import { counted, thousands } from '../format.js';
import { positiveInteger } from './options.js';
import { unitInterval } from './params.js';

interface ClusterCliOptions {
  engine: EngineName;
  clusters?: string;
  removed?: string;
  threshold?: number;
  maxBucketPairs: number;
  keep: 'first' | 'longest';
  memoryLimit?: string;
  tempDirectory?: string;
  threads?: number;
  emitScript?: string;
  quiet: boolean;
}

export function registerClusterCommand(program: Command): void {
  program
    .command('cluster')
    .description('join shards of `gpudedup sign --shard` on DuckDB or Spark: clusters and a removal list, as `dedup --verify estimate` gives')
    .argument('<shards...>', 'Parquet shards from `gpudedup sign --shard I/N` (all N of them)')
    .addOption(new Option('--engine <name>', 'where the SQL runs: DuckDB embedded, or a local Spark job (pyspark)').choices(ENGINES).default('duckdb'))
    .option('--clusters <file>', 'write id, cluster, kept for every document (CSV; JSONL if .jsonl; Parquet if .parquet)')
    .option('--removed <file>', 'write the ids of the removed documents, in input order (CSV with header id; JSONL if .jsonl)')
    .option('-t, --threshold <t>', "verification threshold (default: the shards')", unitInterval)
    .option('--max-bucket-pairs <n>', 'buckets up to this size pair all members; larger ones pair each with the first member and its predecessor', positiveInteger, 16)
    .addOption(new Option('--keep <policy>', 'document kept per cluster (ties to the earliest)').choices(['first', 'longest']).default('first'))
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
        maxAllPairs: options.maxBucketPairs,
        keep: options.keep,
        clusters: options.clusters,
        removed: options.removed,
        engineOptions: {
          memoryLimit: options.memoryLimit,
          tempDirectory: options.tempDirectory,
          threads: options.threads,
          onRound: (round, remaining) => {
            if (!options.quiet) process.stderr.write(`components round ${round}: ${counted(remaining, 'edge')} still ${remaining === 1 ? 'points' : 'point'} at a non-root\n`);
          },
        },
      };
      const summary = await runCluster(config);
      if (!options.quiet) printSummary(summary, options);
    });
}

async function emitScript(shards: string[], options: ClusterCliOptions): Promise<void> {
  const { plan } = await planFor({ shards, threshold: options.threshold, maxAllPairs: options.maxBucketPairs, keep: options.keep });
  await writeFile(options.emitScript!, sparkJobScript(plan));
  process.stdout.write(`wrote ${options.emitScript}: run it with\n  spark-submit ${options.emitScript} --out OUT_DIR ${shards.join(' ')}\n`);
}

function printSummary(s: ClusterSummary, options: ClusterCliOptions): void {
  const int = thousands;
  const t = s.stats.timings;
  const sec = (ms: number | undefined): string => ((ms ?? 0) / 1000).toFixed(2);
  const lines = [
    `clustered ${counted(s.documents, 'document')} from ${counted(s.meta.shard.count, 'shard')} on ${options.engine} → ${options.clusters ?? options.removed}`,
    `  clusters     ${int(s.clusters)}`,
    `  removed      ${int(s.removed)}`,
    `  kept         ${int(s.documents - s.removed)}`,
    `  parameters   threshold ${s.threshold}, ${counted(s.meta.lsh.bands, 'band')} × ${counted(s.meta.lsh.rows, 'row')}, k ${s.meta.params.k}, verify estimate, keep ${options.keep}`,
    `  candidates   ${counted(s.stats.candidates, 'pair')}, ${int(s.stats.verified)} verified; largest bucket ${int(s.stats.largestBucket)}`,
    `  components   ${counted(s.stats.rounds, 'round')} of large-star + small-star`,
    `  time         ${s.seconds.toFixed(2)} s (setup ${sec(t.setup)}, components ${sec(t.components)}, finish ${sec(t.finish)})`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
