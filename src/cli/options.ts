/** Command-line options shared by the commands that read and sign documents. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ReadOptions } from '../io/documents.js';
import { OPTIONS, type OptionName, type OptionSpec, type WeightsName } from '../options.js';
import {
  makeParams,
  type ParamSlotBits,
  type SchemeName,
  type SignatureParams,
  type StoredBandLayout,
} from '../signatures/params.js';
import type { BackendChoice } from '../firstPass/node/resolveBackend.js';
import { prepareIdfTable } from '../pipeline/shared/idfPass.js';

export interface InputCliOptions {
  textField: string;
  idField: string;
  skipInvalid: boolean;
  strict: boolean;
  quiet: boolean;
}

export interface SignatureCliOptions {
  scheme: SchemeName;
  weights: WeightsName;
  k: number;
  /** Absent: the scheme's default (makeParams). */
  seed?: string;
  shingle: 'word' | 'char' | 'auto';
  ngram: number;
  nfkc: boolean;
  stripPunctuation: boolean;
  /** Absent: the scheme's default (makeParams). */
  slotBits?: ParamSlotBits;
  backend: BackendChoice;
  threads?: number;
  /** With --weights idf: the document-frequency table, read when it exists, else counted and written there. */
  idf?: string;
}

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** The options-table entry behind each option tableOption made: the CLI reference (npm run docs) shows its rule. */
const TABLE_SPECS = new WeakMap<Option, OptionSpec<unknown>>();
export const tableSpecOf = (option: Option): OptionSpec<unknown> | undefined => TABLE_SPECS.get(option);

/**
 * A commander option of the options table (src/options.ts): its check parses
 * the argument (so the CLI's message for a bad value is the library's and the
 * tab's), its choices show in the help, and its default is the table's
 * (`withDefault: false` where this command's default differs, e.g. cluster's threshold).
 */
export function tableOption(name: OptionName, flags: string, description: string, { withDefault = true } = {}): Option {
  const spec = OPTIONS[name];
  if (!flags.split(/[ ,]+/).includes(spec.flag))
    throw new Error(`the flag of option ${name} is ${spec.flag}, not in "${flags}"`);
  const option = new Option(flags, description);
  TABLE_SPECS.set(option, spec as OptionSpec<unknown>);
  if (spec.choices) option.choices(spec.choices); // for the help; the parser below replaces commander's check
  if (flags.includes('<')) {
    option.argParser((text: string) => {
      try {
        return spec.parse(text);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
    });
  }
  if (withDefault && spec.default !== undefined) option.default(spec.default, name === 'keep' ? 'first' : undefined);
  return option;
}

export function addInputOptions(command: Command): Command {
  return command
    .addOption(tableOption('textField', '--text-field <name>', 'JSONL field or Parquet column holding the text'))
    .addOption(
      tableOption(
        'idField',
        '--id-field <name>',
        'JSONL field or Parquet column holding the id (else the line or row number)',
      ),
    )
    .option('--skip-invalid', 'skip malformed lines (counted in the summary) instead of failing', false)
    .option('--strict', 'refuse binary files (NUL bytes, mostly invalid UTF-8) instead of skipping them', false)
    .option('-q, --quiet', 'print errors only: no progress bar, notes, warnings or summary', false);
}

export function addSignatureOptions(command: Command): Command {
  return command
    .addOption(
      tableOption(
        'scheme',
        '--scheme <name>',
        'classic: k hash functions; oph: one hash into k bins, densified; datasketch-*: datasketch 2.0 MinHash, bit for bit',
      ),
    )
    .addOption(
      tableOption(
        'weights',
        '--weights <name>',
        'none: shingle sets; counts: a shingle seen c times counts c times (weighted Jaccard of the counts); idf: a ' +
          'shingle weighs min(8, 1 + floor(log2(N / df))) by its document frequency',
      ),
    )
    .option(
      '--idf <file>',
      'with --weights idf: the document-frequency table, read if it exists, else counted from the inputs and ' +
        'written there (without it the table is counted and not kept)',
    )
    .addOption(tableOption('k', '-k, --k <hashes>', 'slots per signature (hash functions, or OPH bins)'))
    .addOption(
      tableOption(
        'seed',
        '--seed <u64>',
        '64-bit seed of the hash family (decimal or 0x hex; default 42, for datasketch-* 1, its MinHash seed)',
        { withDefault: false },
      ),
    )
    .addOption(tableOption('shingle', '--shingle <mode>', 'shingles: word n-grams, char n-grams, or auto per document'))
    .addOption(tableOption('n', '-n, --ngram <n>', 'shingle length: tokens (word) or code points (char)'))
    .addOption(tableOption('nfkc', '--nfkc', 'apply Unicode NFKC normalization first'))
    .addOption(
      tableOption('stripPunctuation', '--strip-punctuation', 'turn Unicode punctuation and symbols into spaces'),
    )
    .addOption(
      tableOption(
        'slotBits',
        '--slot-bits <bits>',
        'bits kept per slot (default 64; 32 halves memory; 1–16: b-bit slots with band keys of the full values; ' +
          'datasketch-*: its dtype)',
        { withDefault: false },
      ),
    )
    .addOption(
      tableOption('backend', '--backend <name>', 'signing backend; auto = WebGPU if Dawn finds an adapter, else CPU'),
    )
    .addOption(
      tableOption(
        'threads',
        '--threads <n>',
        'worker threads of the CPU backend (default: one per core, at most one per MiB of input)',
      ),
    );
}

/**
 * With --weights idf, the identity of the run's table: read from --idf FILE, or counted from the inputs (and written
 * to FILE when given), and registered for the signers; undefined otherwise (--idf alone is refused).
 */
export async function idfIdentityFrom(
  inputs: readonly string[],
  options: SignatureCliOptions & InputCliOptions,
): Promise<string | undefined> {
  if (options.weights !== 'idf') {
    if (options.idf !== undefined) throw new RangeError('--idf FILE goes with --weights idf');
    return undefined;
  }
  // Refused before counting, as makeParams would refuse it after.
  if (options.scheme.startsWith('datasketch'))
    throw new RangeError(`--weights idf is not datasketch's: --scheme ${options.scheme} signs shingle sets`);
  const shingling = {
    shingle: options.shingle,
    n: options.ngram,
    nfkc: options.nfkc,
    stripPunctuation: options.stripPunctuation,
  };
  const read = readOptionsFrom(options, () => undefined);
  const note = (line: string): void => {
    if (!options.quiet) process.stderr.write(`${line}\n`);
  };
  return (await prepareIdfTable({ inputs, read, shingling, file: options.idf, note })).identity;
}

export function readOptionsFrom(options: InputCliOptions, onInvalid: (message: string) => void): ReadOptions {
  return {
    textField: options.textField,
    idField: options.idField,
    skipInvalid: options.skipInvalid,
    strict: options.strict,
    onInvalid,
  };
}

/**
 * `bandKeys`: the band layout b-bit slots store keys for (from the LSH options); ignored for 32 and 64 bits. `idf`:
 * the identity of the run's idf table (idfIdentityFrom), with --weights idf.
 */
export function signatureParamsFrom(
  options: SignatureCliOptions,
  bandKeys?: StoredBandLayout,
  idf?: string,
): SignatureParams {
  return makeParams({
    idf,
    bandKeys: (options.slotBits ?? 64) < 32 ? bandKeys : undefined,
    scheme: options.scheme,
    weights: options.weights,
    k: options.k,
    seed: options.seed,
    shingle: options.shingle,
    n: options.ngram,
    nfkc: options.nfkc,
    stripPunctuation: options.stripPunctuation,
    slotBits: options.slotBits,
  });
}

/** The cluster check and the hybrid margin, the same flags on dedup and cluster. */
export function addClusterCheckOptions(command: Command): Command {
  return command
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
    );
}
