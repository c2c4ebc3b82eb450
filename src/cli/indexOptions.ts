/**
 * The options of the index commands: an index's parameters (from the options table), how it is opened, what add writes.
 */
import { type Command, Option } from 'commander';
import { usesShingleSets } from '../verify/verification.js';
import type { ReadOptions } from '../io/documents.js';
import type { IndexOptions, OpenOptions } from '../lshIndex/diskIndex.js';
import { PARQUET_COMPRESSIONS, type ParquetCompression } from '../formats/parquet/parquetFile.js';
import type { VerifyMode } from '../options.js';
import type { IndexAddOutputs } from '../pipeline/index/indexAdd.js';
import type { DedupHooks } from '../pipeline/shared/config.js';
import {
  addInputOptions,
  addSignatureOptions,
  readOptionsFrom,
  tableOption,
  type InputCliOptions,
  type SignatureCliOptions,
} from './options.js';
import { addLshOptions, lshParamsFrom, type LshCliOptions } from './params.js';
import { stageBar } from './progress.js';
import { addSimhashOptions, simhashRun } from './simhashOptions.js';

export type CreateCliOptions = SignatureCliOptions &
  LshCliOptions & {
    verify: VerifyMode;
    estimateError: number;
    maxBucketPairs: number;
    storeSets: boolean;
    maxHamming: number;
  };

export type AddCliOptions = InputCliOptions &
  Pick<SignatureCliOptions, 'backend' | 'threads'> & {
    out?: string;
    matches?: string;
    report?: string;
    all: boolean;
    compression: ParquetCompression;
    tempDirectory?: string;
  };

/** The parameters `index create` fixes for the life of the index. */
export function addIndexParameterOptions(command: Command): Command {
  addSimhashOptions(
    addLshOptions(addSignatureOptions(command)),
    "--scheme simhash: matches are fingerprints within h of 64 bits (Manku's block tables; exact angle inside the margin)",
  );
  return command
    .addOption(
      tableOption(
        'verify',
        '--verify <mode>',
        'how a candidate match is decided: hybrid (the estimate where it is sure, exact Jaccard inside its margin), ' +
          'signature estimate, exact Jaccard, or none',
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
        'maxBucketPairs',
        '--max-bucket-pairs <n>',
        'buckets up to this size pair all members; larger ones pair each with the first member',
      ),
    )
    .option(
      '--no-store-sets',
      'do not keep shingle sets in the index (smaller; matches are then decided by the estimate alone)',
    );
}

/** What `index add` (and `index create DIR CORPUS…`) reads and writes. */
export function addAddOptions(command: Command, { withBackend }: { withBackend: boolean }): Command {
  const withInput = addInputOptions(command);
  if (withBackend) {
    withInput
      .addOption(
        tableOption('backend', '--backend <name>', 'signing backend; auto = WebGPU if Dawn finds an adapter, else CPU'),
      )
      .addOption(tableOption('threads', '--threads <n>', 'worker threads of the CPU backend (default: one per core)'));
  }
  return withInput
    .option(
      '-o, --out <file>',
      'the added documents in input order, as dedup -o writes kept ones: JSONL (lines verbatim; .gz/.zst compressed) ' +
        'or Parquet (.parquet)',
    )
    .option(
      '--matches <file>',
      'one row per match: id, matched (the indexed or earlier document), estimate, exact (CSV; .jsonl or .parquet by the name)',
    )
    .option('--report <file.json>', 'write the summary as JSON')
    .option('--all', 'append every document (ids must still be new); only report the matches', false)
    .option(
      '--temp-directory <dir>',
      'where standard input or a pipe is copied when -o copies its lines as they came in (default: the system ' +
        'temporary directory)',
    )
    .addOption(
      new Option('--compression <codec>', 'compression of Parquet outputs')
        .choices(PARQUET_COMPRESSIONS)
        .default('snappy'),
    );
}

/**
 * `idf`: the identity of the index's idf table (idfIdentityFrom), with --weights idf. `cmd`, where given, tells which
 * flags were given: --scheme simhash bands by --max-hamming and refuses --threshold, --bands and --rows (simhashRun).
 */
export function indexOptionsFrom(options: CreateCliOptions, idf?: string, cmd?: Command): IndexOptions {
  const simhash = options.scheme === 'simhash';
  if (simhash && cmd !== undefined) simhashRun(options.maxHamming, cmd, options.verify);
  if (!simhash && cmd?.getOptionValueSource('maxHamming') === 'cli')
    throw new RangeError('--max-hamming applies to --scheme simhash only (its block tables)');
  // Not given: the scheme's default (64, or a datasketch scheme's dtype), never a flag the user did not give.
  const slotBits = options.slotBits;
  if (slotBits !== undefined && slotBits !== 32 && slotBits !== 64)
    throw new RangeError(
      `--slot-bits ${slotBits}: an index stores 32- or 64-bit slots (b-bit slots are for signature files)`,
    );
  const exact = usesShingleSets(options.verify);
  if (!options.storeSets && options.verify === 'exact')
    throw new RangeError(
      '--verify exact needs the shingle sets: drop --no-store-sets, or choose --verify hybrid or estimate',
    );
  return {
    scheme: options.scheme,
    weights: options.weights,
    idf,
    seed: options.seed,
    k: options.k,
    shingle: options.shingle,
    n: options.ngram,
    nfkc: options.nfkc,
    stripPunctuation: options.stripPunctuation,
    slotBits,
    threshold: simhash ? undefined : options.threshold,
    lsh: simhash ? undefined : lshParamsFrom(options, options.k, exact && options.storeSets),
    ...(simhash ? { maxHamming: options.maxHamming } : {}),
    verify: options.verify,
    estimateError: options.estimateError,
    maxBucketPairs: options.maxBucketPairs,
    storeSets: options.storeSets && exact,
  };
}

export function openOptionsFrom(
  options: Partial<Pick<SignatureCliOptions, 'backend' | 'threads'>>,
  readOnly = false,
): OpenOptions {
  return { backend: options.backend, threads: options.threads, readOnly };
}

export function addOutputsFrom(options: AddCliOptions): IndexAddOutputs {
  return {
    out: options.out,
    matches: options.matches,
    report: options.report,
    parquetCompression: options.compression,
  };
}

export function readFrom(options: InputCliOptions): ReadOptions {
  return readOptionsFrom(options, () => undefined);
}

export function cliHooks(quiet: boolean): DedupHooks {
  return {
    note: (message) => {
      if (!quiet) process.stderr.write(`${message}\n`);
    },
    stage: (label, total, unit) => stageBar(label, total, unit, quiet),
  };
}
