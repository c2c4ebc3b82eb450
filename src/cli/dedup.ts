/** `gpudedup dedup`: a corpus in, the deduplicated corpus, its clusters and a report out. */
import type { Command } from 'commander';
import type { DedupConfig, DedupHooks } from '../pipeline/shared/config.js';
import { dedupJob } from '../pipeline/dedup/dedupJob.js';
import { dedupSubstringsJob, type SubstringsSection } from '../pipeline/dedupSubstrings/dedupSubstrings.js';
import { usesShingleSets } from '../verify/verification.js';
import { formatSummary, type DedupReport } from '../pipeline/shared/report.js';
import { readSignatureParams } from '../formats/shards/signatureFile.js';
import { makeParams, schemeOf, weightsOf, type SignatureParams } from '../signatures/params.js';
import {
  addInputOptions,
  addSignatureOptions,
  idfIdentityFrom,
  readOptionsFrom,
  signatureParamsFrom,
} from './options.js';
import { addLshOptions, lshParamsFrom } from './params.js';
import { stageBar } from './progress.js';
import { formatSubstringsSummary } from './substrings.js';
import { spanSearchFrom } from './substringsOptions.js';
import { applyClustersCommand } from './applyClusters.js';
import { containmentCommand, type ContainmentCliOptions } from './dedupContainment.js';
import {
  addAgainstAndTableOptions,
  addReportOptions,
  addRunOptions,
  addSubstringsOptions,
  addVerificationOptions,
  type DedupCliOptions,
} from './dedupOptions.js';
import {
  checkAuditOptions,
  checkCompression,
  checkPlotsDirectory,
  checkReadOnce,
  checkSomethingToWrite,
  checkSubstringsOptions,
  checkWithoutCorpus,
  readsCorpusTwice,
  verifyModeFrom,
} from './dedupChecks.js';
import { spoolStreams } from '../pipeline/shared/spool.js';
import { checkInputPaths } from '../io/readDocuments.js';
import { addSimhashOptions, simhashRun } from './simhashOptions.js';

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
    );
  const withTables = addSubstringsOptions(addAgainstAndTableOptions(addVerificationOptions(command)));
  const withOptions = addRunOptions(addReportOptions(withTables));
  addSimhashOptions(addLshOptions(addSignatureOptions(addInputOptions(withOptions)))).action(
    async (inputs: string[], options: DedupCliOptions, cmd: Command) => {
      checkSubstringsOptions(options, cmd);
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
  await checkInputPaths(inputs); // a missing corpus first, before what the flags lack
  checkSomethingToWrite(options);
  // A stream read twice is copied first, so the run is the file's: same verification, bands and outputs.
  if (readsCorpusTwice(options))
    await spoolStreams(inputs, options.tempDirectory, (line) => options.quiet || process.stderr.write(`${line}\n`));
  const verify = verifyModeFrom(inputs, options, cmd);
  const params =
    options.signatures !== undefined
      ? await paramsOfSignatureFile(options.signatures, inputs, options, cmd)
      : signatureParamsFrom(
          options,
          (options.slotBits ?? 64) < 32 ? lshParamsFrom(options, options.k, usesShingleSets(verify)) : undefined,
          await idfIdentityFrom(inputs, options),
        );
  if (inputs.length === 0) checkWithoutCorpus(options, verify);
  checkAuditOptions(inputs, options);
  if (options.contamination !== undefined && options.against === undefined)
    throw new RangeError('--contamination needs --against');
  if (options.plots !== undefined) await checkPlotsDirectory(options.plots);
  checkReadOnce(inputs, options, verify);
  const simhash = schemeOf(params) === 'simhash' ? simhashRun(options.maxHamming, cmd, verify) : undefined;
  return {
    inputs,
    read: readOptionsFrom(options, () => undefined),
    params,
    backend: options.backend,
    threads: options.threads,
    threshold: simhash?.threshold ?? options.threshold,
    // b-bit signatures band from their stored keys; SimHash by Manku's block tables (simhashOptions.ts)
    lsh: simhash?.lsh ?? params.bandKeys ?? lshParamsFrom(options, params.k, usesShingleSets(verify)),
    verify: simhash?.verify ?? verify,
    clusterCheck: options.clusterCheck,
    chainDelta: options.chainDelta,
    maxRepresentatives: options.maxRepresentatives,
    estimateError: options.estimateError,
    keep: options.keep,
    against: options.against ?? [],
    signatures: options.signatures,
    maxBucketPairs: options.maxBucketPairs,
    memoryLimitBytes: options.memoryLimit,
    tempDirectory: options.tempDirectory,
    audit: options.audit,
    auditSeed: options.auditSeed,
  };
}

/**
 * The parameters of a signature file, with any signature option given
 * explicitly on the command line checked against it (readSignatureFile refuses
 * differences, naming them).
 */
async function paramsOfSignatureFile(
  path: string,
  inputs: string[],
  options: DedupCliOptions,
  cmd: Command,
): Promise<SignatureParams> {
  const p = await readSignatureParams(path);
  const given = (name: string): boolean => cmd.getOptionValueSource(name) === 'cli';
  const slotBits = (given('slotBits') && options.slotBits) || p.slotBits;
  const weights = given('weights') ? options.weights : weightsOf(p);
  if (weights !== weightsOf(p) && (weights === 'idf' || p.weights === 'idf'))
    throw new RangeError(`${path} holds signatures of other weights (weights: ${weights} vs ${weightsOf(p)})`);
  return makeParams({
    idf: weights === 'idf' ? await idfOfSignatureFile(path, p, inputs, options) : undefined,
    scheme: given('scheme') ? options.scheme : schemeOf(p),
    weights,
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

/**
 * The idf table of signatures weighted by idf: where the corpus is shingled again (or --idf FILE is given), the run's
 * table (read, or counted from the corpus) must be the one the signatures record; refused in one line otherwise.
 */
async function idfOfSignatureFile(
  path: string,
  p: SignatureParams,
  inputs: string[],
  options: DedupCliOptions,
): Promise<string | undefined> {
  if (inputs.length === 0 && options.idf === undefined) return p.idf;
  const identity = await idfIdentityFrom(inputs, { ...options, weights: 'idf' });
  if (identity !== p.idf)
    throw new RangeError(`${path} was signed with another idf table (idf: ${String(p.idf)} vs ${String(identity)})`);
  return identity;
}

async function runDedupCommand(config: DedupConfig, options: DedupCliOptions): Promise<void> {
  const hooks: DedupHooks = {
    note: (message) => {
      if (!options.quiet) process.stderr.write(`${message}\n`);
    },
    stage: (label, total, unit) => stageBar(label, total, unit, options.quiet),
  };
  const outputs = { ...options, parquetCompression: options.compression };
  const { out } = options;
  const job =
    options.substrings && out !== undefined
      ? await dedupSubstringsJob(config, { ...outputs, out }, spanSearchFrom(options), hooks)
      : await dedupJob(config, outputs, hooks);
  const report: DedupReport & { substrings?: SubstringsSection } = job.report;
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
  const toStdout = [
    options.out,
    options.clusters,
    options.pairs,
    options.contamination,
    options.report,
    options.spans,
  ].includes('-');
  const substrings = report.substrings && formatSubstringsSummary(report.substrings, destination);
  if (!options.quiet)
    (toStdout ? process.stderr : process.stdout).write(formatSummary(report, destination) + (substrings ?? ''));
}
