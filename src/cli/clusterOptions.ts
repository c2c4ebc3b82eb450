/** The options of `gpudedup cluster`, in groups (the order they are added is the order of its help). */
import { type Command, Option } from 'commander';
import { ENGINES, type EngineName } from '../pipeline/cluster/cluster.js';
import { addClusterCheckOptions, positiveInteger, tableOption } from './options.js';
import type { ClusterCheck, VerifyMode } from '../options.js';
import type { KeepPolicy } from '../text/keepPolicy.js';

export interface ClusterCliOptions {
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

/** Where the SQL runs and what it writes. */
export function addEngineAndOutputOptions(command: Command): Command {
  return command
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
    );
}

/** The threshold, verification, cluster check and keep policy (dedup's options of the same names). */
export function addCheckOptions(command: Command): Command {
  command
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
    );
  addClusterCheckOptions(command);
  return command.addOption(
    tableOption(
      'keep',
      '--keep <policy>',
      'document kept per cluster: first, longest, or field:NAME (the score the shards stored: sign --shard --keep ' +
        'field:NAME); ties to the earliest',
    ),
  );
}

/** --against, the report and its audit, and the corpus the HTML report reads texts from. */
export function addInspectOptions(command: Command): Command {
  return command
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
    .addOption(tableOption('idField', '--id-field <name>', '--corpus: JSONL field or Parquet column holding the id'));
}

/** The engine's resources, the Spark script and --quiet. */
export function addEngineResourceOptions(command: Command): Command {
  return command
    .option(
      '--memory-limit <size>',
      "the engine process's memory, e.g. 256MB or 4GB (default: half the machine's memory, or of its control " +
        "group's limit where lower): 70 % of it (at least 256MB) is DuckDB's memory_limit (it spills to " +
        "--temp-directory beyond it) or Spark's driver heap, the rest what they do not count; on shards with text " +
        "ranges the exact pass's shingle sets take half of the 70 % from DuckDB (past it, files in --temp-directory)",
    )
    .option('--temp-directory <dir>', 'where the engine spills')
    .option('--threads <n>', 'engine threads (Spark: local[n])', positiveInteger)
    .option('--emit-script <job.py>', 'write the Spark SQL job for spark-submit instead of running anything')
    .option('-q, --quiet', 'print errors only: no notes or summary', false);
}
