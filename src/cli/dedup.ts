/** `gpudedup dedup`: a corpus in, the deduplicated corpus, its clusters and a report out. */
import { Command, Option } from 'commander';
import { resolve } from 'node:path';
import { parseKeepPolicy } from '../clusters/keepPolicy.js';
import type { DedupConfig, DedupHooks } from '../pipeline/config.js';
import { dedupJob } from '../pipeline/dedupJob.js';
import { CLUSTER_CHECKS, type ClusterCheck } from '../clusters/clustering.js';
import { VERIFY_MODES, type VerifyMode } from '../clusters/verification.js';
import { formatSummary } from '../pipeline/report.js';
import { readSignatureParams } from '../formats/signatureFile.js';
import { makeParams, type SignatureParams } from '../signatures/params.js';
import { addInputOptions, addSignatureOptions, positiveInteger, readOptionsFrom, signatureParamsFrom, type InputCliOptions, type SignatureCliOptions } from './options.js';
import { addLshOptions, lshParamsFrom, type LshCliOptions } from './params.js';
import { stageBar } from './progress.js';
import { join } from 'node:path';
import { writeTextFile } from '../formats/textFile.js';
import { similarityHistogramSvg } from '../plots/histogram.js';
import { sCurveSvg } from '../plots/sCurve.js';

type DedupCliOptions = InputCliOptions &
  SignatureCliOptions &
  LshCliOptions & {
    out?: string;
    verify: VerifyMode;
    clusterCheck: ClusterCheck;
    keep: string;
    against?: string[];
    clusters?: string;
    pairs?: string;
    contamination?: string;
    report?: string;
    signatures?: string;
    dryRun: boolean;
    maxBucketPairs: number;
    plots?: string;
  };

export function registerDedupCommand(program: Command): void {
  const command = program
    .command('dedup')
    .description('remove near-duplicate documents: MinHash LSH banding, verification, clustering, one document kept per cluster')
    .argument('[inputs...]', 'JSONL files, plain-text files, directories of them, or - for standard input (gzip is detected)')
    .option('-o, --out <file.jsonl>', 'kept documents as JSONL, in input order, lines verbatim')
    .addOption(new Option('--verify <mode>', 'candidate verification: signature agreement, exact Jaccard of the shingle sets, or none').choices(VERIFY_MODES).default('estimate'))
    .addOption(new Option('--cluster-check <check>', 'representative: every member must reach the threshold against the kept document').choices(CLUSTER_CHECKS).default('none'))
    .option('--keep <policy>', 'document kept per cluster: first, longest, or field:NAME (highest numeric value); ties to the earliest', 'first')
    .option('--against <files...>', 'reference set (e.g. an eval set): remove corpus documents that are near-duplicates of any of it')
    .option('--clusters <file>', 'write id, cluster, kept for every document (CSV; JSONL if the name ends in .jsonl)')
    .option('--pairs <file>', 'write the verified near-duplicate pairs with their estimated (and exact) Jaccard')
    .option('--contamination <file>', 'with --against: each removed document, the reference document it matched, and their similarity')
    .option('--report <file.json>', 'write the summary as JSON')
    .option('--signatures <file.npy>', 'use signatures from `gpudedup sign` of the same inputs instead of signing')
    .option('--dry-run', 'compute everything, write only the report', false)
    .option('--plots <dir>', 'write s-curve.svg (the banding) and similarity-histogram.svg (the verified pairs) into this directory')
    .option('--max-bucket-pairs <n>', 'buckets up to this size pair all members; larger ones pair each with the first member', positiveInteger, 16);
  addLshOptions(addSignatureOptions(addInputOptions(command))).action(async (inputs: string[], options: DedupCliOptions, cmd: Command) => {
    const config = await configFrom(inputs, options, cmd);
    await runDedupCommand(config, options);
  });
}

async function configFrom(inputs: string[], options: DedupCliOptions, cmd: Command): Promise<DedupConfig> {
  const keep = parseKeepPolicy(options.keep);
  let params = signatureParamsFrom(options);
  if (options.signatures !== undefined) params = await paramsOfSignatureFile(options.signatures, options, cmd);
  if (inputs.length === 0) {
    if (options.signatures === undefined) throw new RangeError('no input: give corpus files (or - for standard input), or --signatures');
    if (options.out !== undefined) throw new RangeError('-o needs the corpus as input: the kept documents are copied from it');
    if (options.verify === 'exact') throw new RangeError('--verify exact needs the corpus as input: shingle sets are recomputed from the text');
    if (keep.kind !== 'first') throw new RangeError(`--keep ${options.keep} needs the corpus as input`);
  }
  if (!options.dryRun && [options.out, options.clusters, options.pairs, options.contamination, options.report, options.plots].every((p) => p === undefined)) {
    throw new RangeError('nothing to write: give -o, --clusters, --pairs, --contamination, --report or --plots (or --dry-run)');
  }
  if (options.contamination !== undefined && options.against === undefined) throw new RangeError('--contamination needs --against');
  // Two outputs under one name would share one .partial file and overwrite each other.
  const named = new Map<string, string>();
  const outputs: [string, string | undefined][] = [
    ['-o', options.out],
    ['--clusters', options.clusters],
    ['--pairs', options.pairs],
    ['--contamination', options.contamination],
    ['--report', options.report],
  ];
  for (const [flag, path] of outputs) {
    if (path === undefined) continue;
    const other = named.get(resolve(path));
    if (other !== undefined) throw new RangeError(`${other} and ${flag} both name ${path}: give each output its own file`);
    named.set(resolve(path), flag);
  }
  // Standard input can be read once: enough for the signing pass, not for the writing pass or --verify exact's shingle pass.
  const writes = !options.dryRun && [options.out, options.clusters, options.pairs, options.contamination].some((p) => p !== undefined);
  if (inputs.includes('-') && (writes || options.verify === 'exact')) {
    throw new RangeError(
      'standard input (-) can be read only once, but dedup reads the corpus again to write -o, --clusters, --pairs or ' +
        '--contamination and for --verify exact: save it to a file, or run `gpudedup sign - -o sigs.npy` and then `gpudedup dedup --signatures sigs.npy`',
    );
  }
  return {
    inputs,
    read: readOptionsFrom(options, () => undefined),
    params,
    backend: options.backend,
    cpuThreads: options.threads,
    threshold: options.threshold,
    lsh: lshParamsFrom(options, params.k),
    verify: options.verify,
    clusterCheck: options.clusterCheck,
    keep,
    against: options.against ?? [],
    signatures: options.signatures,
    maxAllPairs: options.maxBucketPairs,
  };
}

/**
 * The parameters of a signature file, with any signature option given
 * explicitly on the command line checked against it (readSignatureFile refuses
 * differences, naming them).
 */
async function paramsOfSignatureFile(path: string, options: DedupCliOptions, cmd: Command): Promise<SignatureParams> {
  const p = await readSignatureParams(path);
  const given = (name: string): boolean => cmd.getOptionValueSource(name) === 'cli';
  return makeParams({
    k: given('k') ? options.k : p.k,
    seed: given('seed') ? options.seed : p.seed,
    shingle: given('shingle') ? options.shingle : p.shingle,
    n: given('ngram') ? options.ngram : p.n,
    nfkc: given('nfkc') ? options.nfkc : p.normalize.nfkc,
    stripPunctuation: given('stripPunctuation') ? options.stripPunctuation : p.normalize.stripPunctuation,
    slotBits: given('slotBits') ? options.slotBits : p.slotBits,
  });
}

async function runDedupCommand(config: DedupConfig, options: DedupCliOptions): Promise<void> {
  const hooks: DedupHooks = {
    note: (message) => {
      if (!options.quiet || message.startsWith('warning')) process.stderr.write(`${message}\n`);
    },
    stage: (label, total, unit) => stageBar(label, total, unit, options.quiet),
  };
  const { report, outcome } = await dedupJob(config, options, hooks);
  if (options.plots !== undefined) {
    const { verified } = outcome;
    await writeTextFile(join(options.plots, 's-curve.svg'), sCurveSvg({ ...config.lsh, threshold: config.threshold }));
    const histogram = { similarities: verified.exact ?? verified.estimate, threshold: config.threshold, measure: verified.exact ? 'exact Jaccard' : 'estimate' };
    await writeTextFile(join(options.plots, 'similarity-histogram.svg'), similarityHistogramSvg(histogram));
  }
  const destination = options.dryRun
    ? '(dry run: nothing written but the report)'
    : (options.out ?? options.clusters ?? options.pairs ?? options.contamination ?? options.report ?? options.plots ?? '');
  process.stdout.write(formatSummary(report, destination));
}
