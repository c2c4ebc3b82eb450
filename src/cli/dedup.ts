/** `gpudedup dedup`: a corpus in, the deduplicated corpus, its clusters and a report out. */
import { type Command, Option } from 'commander';
import { stat } from 'node:fs/promises';
import { readsOnce } from '../io/readDocuments.js';
import { describeKeepPolicy, type KeepPolicy } from '../text/keepPolicy.js';
import type { DedupConfig, DedupHooks } from '../pipeline/shared/config.js';
import { dedupJob } from '../pipeline/dedup/dedupJob.js';
import type { ClusterCheck } from '../clusters/clustering.js';
import { usesShingleSets, type VerifyMode } from '../verify/verification.js';
import { formatSummary } from '../pipeline/shared/report.js';
import { readSignatureParams } from '../formats/shards/signatureFile.js';
import { PARQUET_COMPRESSIONS, type ParquetCompression } from '../formats/parquet/parquetFile.js';
import { makeParams, schemeOf, type SignatureParams } from '../signatures/params.js';
import {
  addInputOptions,
  addSignatureOptions,
  readOptionsFrom,
  signatureParamsFrom,
  tableOption,
  type InputCliOptions,
  type SignatureCliOptions,
} from './options.js';
import { addLshOptions, byteSize, lshParamsFrom, type LshCliOptions } from './params.js';
import { stageBar } from './progress.js';
import { applyClustersCommand } from './applyClusters.js';
import { containmentCommand, type ContainmentCliOptions } from './dedupContainment.js';

type DedupCliOptions = InputCliOptions &
  SignatureCliOptions &
  LshCliOptions & {
    out?: string;
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

export function registerDedupCommand(program: Command): void {
  const command = program
    .command('dedup')
    .description(
      'remove near-duplicate documents: MinHash LSH banding, verification, clustering, one document kept per cluster',
    )
    .argument(
      '[inputs...]',
      'JSONL, Parquet or plain-text files, directories of them, or - for standard input (gzip and zstd are detected)',
    )
    .option(
      '-o, --out <file>',
      'kept documents in input order: JSONL (lines verbatim; .jsonl.gz/.jsonl.zst compressed) or Parquet (.parquet)',
    )
    .addOption(
      tableOption(
        'verify',
        '--verify <mode>',
        'candidate verification: hybrid (the estimate where it is sure, exact Jaccard inside its margin), signature ' +
          'agreement, exact Jaccard of the shingle sets, or none',
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
        'document kept per cluster: first, longest, or field:NAME (highest numeric value); ties to the earliest',
      ),
    )
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
    )
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
    )
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
    .option('--temp-directory <dir>', 'where spilled signatures go (default: the system temporary directory)');
  addLshOptions(addSignatureOptions(addInputOptions(command))).action(
    async (inputs: string[], options: DedupCliOptions, cmd: Command) => {
      if (options.clustersFrom !== undefined) return applyClustersCommand(inputs, options);
      if (options.containment !== undefined)
        return containmentCommand(inputs, options as unknown as ContainmentCliOptions);
      checkCompression(options, cmd);
      const config = await configFrom(inputs, options, cmd);
      await runDedupCommand(config, options);
    },
  );
}

async function configFrom(inputs: string[], options: DedupCliOptions, cmd: Command): Promise<DedupConfig> {
  const keep = options.keep;
  const verify = verifyModeFrom(inputs, options, cmd);
  let params = signatureParamsFrom(
    options,
    (options.slotBits ?? 64) < 32 ? lshParamsFrom(options, options.k, usesShingleSets(verify)) : undefined,
  );
  if (options.signatures !== undefined) params = await paramsOfSignatureFile(options.signatures, options, cmd);
  if (inputs.length === 0) {
    if (options.signatures === undefined)
      throw new RangeError('no input: give corpus files (or - for standard input), or --signatures');
    if (options.out !== undefined)
      throw new RangeError('-o needs the corpus as input: the kept documents are copied from it');
    if (usesShingleSets(verify))
      throw new RangeError(`--verify ${verify} needs the corpus as input: shingle sets are recomputed from the text`);
    if (keep.kind !== 'first') throw new RangeError(`--keep ${describeKeepPolicy(keep)} needs the corpus as input`);
  }
  if (
    !options.dryRun &&
    [
      options.out,
      options.clusters,
      options.pairs,
      options.contamination,
      options.report,
      options.plots,
      options.auditFile,
      options.reportHtml,
    ].every((p) => p === undefined)
  ) {
    throw new RangeError(
      'nothing to write: give -o, --clusters, --pairs, --contamination, --report, --plots, --audit-file or ' +
        '--report-html (or --dry-run)',
    );
  }
  checkAuditOptions(inputs, options);
  if (options.contamination !== undefined && options.against === undefined)
    throw new RangeError('--contamination needs --against');
  if (options.plots !== undefined) await checkPlotsDirectory(options.plots);
  // Standard input can be read once: enough for the signing pass, not for the writing pass or --verify exact's shingle
  // pass.
  const writes =
    !options.dryRun &&
    [options.out, options.clusters, options.pairs, options.contamination].some((p) => p !== undefined);
  const once = inputs.find(readsOnce);
  if (once !== undefined && (writes || usesShingleSets(verify))) {
    throw new RangeError(
      `${readOnceName(once)} can be read only once, but dedup reads the corpus again to write -o, --clusters, --pairs or ` +
        `--contamination and for --verify exact or hybrid: save it to a file, or run \`gpudedup sign ` +
        `${once === '-' ? '-' : 'FILE'} -o sigs.npy\` and then \`gpudedup dedup --signatures sigs.npy\``,
    );
  }
  return {
    inputs,
    read: readOptionsFrom(options, () => undefined),
    params,
    backend: options.backend,
    threads: options.threads,
    threshold: options.threshold,
    lsh: params.bandKeys ?? lshParamsFrom(options, params.k, usesShingleSets(verify)), // b-bit signatures band from their stored keys
    verify,
    clusterCheck: options.clusterCheck,
    chainDelta: options.chainDelta,
    maxRepresentatives: options.maxRepresentatives,
    estimateError: options.estimateError,
    keep,
    against: options.against ?? [],
    signatures: options.signatures,
    maxBucketPairs: options.maxBucketPairs,
    memoryLimitBytes: options.memoryLimit,
    tempDirectory: options.tempDirectory,
    audit: options.audit,
    auditSeed: options.auditSeed,
  };
}

/** The audit measures exact Jaccard on texts: it needs the corpus, readable again; its file needs it asked for. */
function checkAuditOptions(inputs: string[], options: DedupCliOptions): void {
  if (options.auditFile !== undefined && options.audit === undefined)
    throw new RangeError('--audit-file needs --audit N (the sample size)');
  if (options.auditSeed !== undefined && options.audit === undefined)
    throw new RangeError('--audit-seed needs --audit N (the sample size)');
  if (options.audit === undefined && options.reportHtml === undefined) return;
  const flag = options.audit !== undefined ? '--audit' : '--report-html';
  if (inputs.length === 0) throw new RangeError(`${flag} needs the corpus as input: it reads the texts again`);
  const once = inputs.find(readsOnce);
  if (once !== undefined)
    throw new RangeError(
      `${flag} reads the corpus again, and ${readOnceName(once)} can be read only once: save it to a file`,
    );
}

/** Standard input or a pipe, in a message. */
const readOnceName = (path: string): string => (path === '-' ? 'standard input (-)' : `${path} (a pipe)`);

/** --plots names a directory, created when missing: a file there is refused before any work. */
async function checkPlotsDirectory(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info !== undefined && !info.isDirectory())
    throw new RangeError(`--plots ${path}: is a file; give a directory (it is created if missing)`);
}

/**
 * --verify, where hybrid (the default) falls back to estimate when the corpus
 * cannot be read again for shingle sets: no corpus input (clustering from a
 * signature file alone) or standard input, with a note. Given explicitly, it is refused later.
 */
function verifyModeFrom(inputs: string[], options: DedupCliOptions, cmd: Command): VerifyMode {
  const once = inputs.find(readsOnce);
  const rereadable = inputs.length > 0 && once === undefined;
  if (!rereadable && cmd.getOptionValueSource('verify') !== 'cli' && options.verify === 'hybrid') {
    const why = once === undefined ? 'without the corpus' : `${readOnceName(once)} is read once, so`;
    if (!options.quiet)
      process.stderr.write(
        `note: ${why} shingle sets cannot be read for exact Jaccard: pairs are decided by the signature estimate ` +
          `(--verify estimate)\n`,
      );
    return 'estimate';
  }
  return options.verify;
}

/** `--compression` sets the codec of Parquet outputs: given with none, it would do nothing, so it is refused. */
function checkCompression(options: DedupCliOptions, cmd: Command): void {
  if (cmd.getOptionValueSource('compression') !== 'cli') return;
  const outputs = [options.out, options.clusters, options.pairs, options.contamination].filter(
    (p): p is string => p !== undefined,
  );
  if (outputs.some((p) => p.toLowerCase().endsWith('.parquet'))) return;
  const named =
    outputs.length === 0
      ? 'there is no output'
      : `${outputs.join(', ')} ${outputs.length === 1 ? 'is' : 'are'} not Parquet`;
  throw new RangeError(
    `--compression ${options.compression} applies to Parquet outputs (.parquet), but ${named}: JSON Lines and CSV are ` +
      `compressed by their name (.jsonl.zst, .csv.gz)`,
  );
}

/**
 * The parameters of a signature file, with any signature option given
 * explicitly on the command line checked against it (readSignatureFile refuses
 * differences, naming them).
 */
async function paramsOfSignatureFile(path: string, options: DedupCliOptions, cmd: Command): Promise<SignatureParams> {
  const p = await readSignatureParams(path);
  const given = (name: string): boolean => cmd.getOptionValueSource(name) === 'cli';
  const slotBits = (given('slotBits') && options.slotBits) || p.slotBits;
  return makeParams({
    scheme: given('scheme') ? options.scheme : schemeOf(p),
    k: given('k') ? options.k : p.k,
    seed: given('seed') ? options.seed : p.seed,
    shingle: given('shingle') ? options.shingle : p.shingle,
    n: given('ngram') ? options.ngram : p.n,
    nfkc: given('nfkc') ? options.nfkc : p.normalize.nfkc,
    stripPunctuation: given('stripPunctuation') ? options.stripPunctuation : p.normalize.stripPunctuation,
    slotBits,
    // The band layout of stored keys was fixed when signing; --bands/--rows given here must match it.
    bandKeys: slotBits >= 32 ? undefined : given('bands') || given('rows') ? lshParamsFrom(options, p.k) : p.bandKeys,
  });
}

async function runDedupCommand(config: DedupConfig, options: DedupCliOptions): Promise<void> {
  const hooks: DedupHooks = {
    note: (message) => {
      if (!options.quiet) process.stderr.write(`${message}\n`);
    },
    stage: (label, total, unit) => stageBar(label, total, unit, options.quiet),
  };
  const { report } = await dedupJob(config, { ...options, parquetCompression: options.compression }, hooks);
  const destination = options.dryRun
    ? '(dry run: nothing written but the report)'
    : (options.out ??
      options.clusters ??
      options.pairs ??
      options.contamination ??
      options.report ??
      options.plots ??
      options.auditFile ??
      options.reportHtml ??
      '');
  // With an output on standard output (`-o -`), the summary goes to standard error.
  const toStdout = [options.out, options.clusters, options.pairs, options.contamination, options.report].includes('-');
  if (!options.quiet) (toStdout ? process.stderr : process.stdout).write(formatSummary(report, destination));
}
