/** The options of `gpudedup dedup`, in groups (the order they are added is the order of its help). */
import { type Command, Option } from 'commander';
import type { KeepPolicy } from '../text/keepPolicy.js';
import type { ClusterCheck } from '../clusters/clustering.js';
import type { VerifyMode } from '../verify/verification.js';
import { PARQUET_COMPRESSIONS, type ParquetCompression } from '../formats/parquet/parquetFile.js';
import { addClusterCheckOptions, tableOption, type InputCliOptions, type SignatureCliOptions } from './options.js';
import { byteSize, type LshCliOptions } from './params.js';
import { addSpanOptions, type SpanCliOptions } from './substringsOptions.js';

export type DedupCliOptions = InputCliOptions &
  SignatureCliOptions &
  LshCliOptions &
  SpanCliOptions & {
    out?: string;
    substrings: boolean;
    verify: VerifyMode;
    clusterCheck: ClusterCheck;
    chainDelta: number;
    maxRepresentatives: number;
    estimateError: number;
    keep: KeepPolicy;
    against?: string[];
    clusters?: string;
    pairs?: string;
    contamination?: string;
    report?: string;
    signatures?: string;
    dryRun: boolean;
    maxBucketPairs: number;
    /** --scheme simhash only (simhashOptions.ts). */
    maxHamming: number;
    compression: ParquetCompression;
    clustersFrom?: string;
    plots?: string;
    memoryLimit?: number;
    tempDirectory?: string;
    audit?: number;
    auditSeed?: string;
    auditFile?: string;
    reportHtml?: string;
    containment?: number;
  };

/** Verification, the cluster check and the keep policy. */
export function addVerificationOptions(command: Command): Command {
  command.addOption(
    tableOption(
      'verify',
      '--verify <mode>',
      'candidate verification: hybrid (the estimate where it is sure, exact Jaccard inside its margin), signature ' +
        'agreement, exact Jaccard of the shingle sets, or none',
    ),
  );
  addClusterCheckOptions(command);
  return command.addOption(
    tableOption(
      'keep',
      '--keep <policy>',
      'document kept per cluster: first, longest, or field:NAME (highest numeric value); ties to the earliest',
    ),
  );
}

/** --against and the tables written besides the kept documents. */
export function addAgainstAndTableOptions(command: Command): Command {
  return command
    .option(
      '--against <file>',
      'a reference file or directory (e.g. an eval set): remove corpus documents that are near-duplicates of it; ' +
        'repeat for several',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--clusters <file>',
      'write id, cluster, kept for every document (CSV; JSONL or Parquet if the name ends in .jsonl or .parquet)',
    )
    .addOption(
      new Option('--compression <codec>', 'compression of Parquet outputs')
        .choices(PARQUET_COMPRESSIONS)
        .default('snappy'),
    )
    .option('--pairs <file>', 'write the verified near-duplicate pairs with their estimated (and exact) Jaccard')
    .option(
      '--contamination <file>',
      'with --against: each removed document, the reference document it matched, and their similarity',
    )
    .addOption(
      tableOption(
        'containment',
        '--containment <c>',
        "with --against: remove the documents holding at least this share of a reference document's shingles, |ref ∩ " +
          'doc| / |ref| (an item inside a long document), instead of near-duplicates',
      ),
    );
}

/** `--substrings` (the exact-substring search on the kept documents) and the flags it shares with `substrings`. */
export function addSubstringsOptions(command: Command): Command {
  command.option(
    '--substrings',
    "then cut the kept documents' repeated spans as `gpudedup substrings` does (on them alone, in input order): -o " +
      'gets the kept documents with their spans cut',
    false,
  );
  return addSpanOptions(command, 'with --substrings: ');
}

/** The report, its audit and HTML page, and the inputs that replace signing or clustering. */
export function addReportOptions(command: Command): Command {
  return command
    .option('--report <file.json>', 'write the summary as JSON')
    .option(
      '--signatures <file>',
      'use signatures from `gpudedup sign` of the same inputs (.npy or .parquet) instead of signing',
    )
    .option(
      '--clusters-from <file>',
      'apply a clusters table (from `gpudedup cluster` or --clusters) in one pass: write its kept documents to -o',
    )
    .addOption(
      tableOption(
        'audit',
        '--audit <n>',
        'measure exact Jaccard on a seeded sample: n accepted pairs per similarity bin and n removed documents; the ' +
          'report gives the precision with 95 % intervals',
      ),
    )
    .addOption(tableOption('auditSeed', '--audit-seed <u64>', "seed of the audit's sample (default: --seed)"))
    .option(
      '--audit-file <file>',
      'with --audit: write the sampled pairs and removed documents with their exact Jaccard (CSV; JSONL or Parquet by the name)',
    )
    .option(
      '--report-html <file.html>',
      'write one self-contained HTML page: the summary, the S-curve, the similarity histogram, the audit and the ' +
        'largest clusters with their diffs',
    );
}

/** --dry-run, the plots, and the limits of the run. */
export function addRunOptions(command: Command): Command {
  return command
    .option('--dry-run', 'compute everything, write only the report', false)
    .option(
      '--plots <dir>',
      'write s-curve.svg (the banding) and similarity-histogram.svg (the verified pairs) into this directory',
    )
    .addOption(
      tableOption(
        'maxBucketPairs',
        '--max-bucket-pairs <n>',
        'buckets up to this size pair all members; larger ones pair each with the first member',
      ),
    )
    .option(
      '--memory-limit <size>',
      "memory for the run's data (signatures, shingle sets, per-document tables, banding), e.g. 1.5GiB (default: 1 " +
        'GiB, or a quarter of RAM if less); past their shares, signatures and shingle sets spill to --temp-directory',
      byteSize,
    )
    .option(
      '--temp-directory <dir>',
      'where spilled signatures and a copy of standard input or a pipe read twice go (default: the system temporary ' +
        "directory), and --substrings' kept documents (default: beside -o)",
    );
}
