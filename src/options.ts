/**
 * The one table of the dedup and sign options: each option's name, flag,
 * default, range and check, defined once. The library (src/api.ts), the CLI
 * (src/cli: commander's defaults, choices and parsers come from here) and the
 * tab (web/main.ts: its form's defaults and checks) all read it, so the same
 * bad value gets the same message everywhere: "k must be an integer from 1 to
 * 4096, got 100000". The code name of an option is its flag in camelCase.
 *
 * Browser-safe: no `node:` import, and nothing that imports this file back.
 */
import { fieldName, flag, integer, isU64, keep, oneOf, real, spec, type OptionSpec } from './optionChecks.js';

// The spec type and the message are part of the table's interface (src/index.ts, the CLI and the index use them).
export { optionError, type OptionSpec } from './optionChecks.js';

/** How verification decides a candidate pair (verification.ts). */
export type VerifyMode = 'estimate' | 'exact' | 'hybrid' | 'none';
/** How clustering checks a member against the document kept in its place (clustering.ts). */
export type ClusterCheck = 'none' | 'representative';
/**
 * The signing schemes (hashFamily.ts): classic MinHash, one-permutation hashing, or datasketch 2.0's
 * (datasketchFamily.ts).
 */
export type SchemeName =
  | 'classic'
  | 'oph'
  | 'simhash'
  | 'datasketch-affine32'
  | 'datasketch-affine64'
  | 'datasketch-legacy';
/** How shingles weigh: a set (each once), or counted (countWeights.ts: c occurrences are c elements). */
export type WeightsName = 'none' | 'counts' | 'idf';
/** Shingles: word n-grams, code-point n-grams, or chosen per document (shingles.ts). */
export type ShingleMode = 'word' | 'char' | 'auto';
/** Which backend signs: WebGPU if Dawn (or the browser) finds an adapter, else the CPU; or one forced. */
export type BackendChoice = 'cpu' | 'webgpu' | 'auto';
/** Bits kept per stored slot: 32 and 64 everywhere, 1–16 (b-bit slots) for stored signatures only. */
export type ParamSlotBits = 1 | 2 | 4 | 8 | 16 | 32 | 64;

export const VERIFY_MODES: readonly VerifyMode[] = ['hybrid', 'estimate', 'exact', 'none'];
export const CLUSTER_CHECKS: readonly ClusterCheck[] = ['representative', 'none'];
export const SLOT_BITS: readonly ParamSlotBits[] = [1, 2, 4, 8, 16, 32, 64];
export const BACKENDS: readonly BackendChoice[] = ['auto', 'cpu', 'webgpu'];
export const SCHEME_NAMES: readonly SchemeName[] = [
  'classic',
  'oph',
  'simhash',
  'datasketch-affine32',
  'datasketch-affine64',
  'datasketch-legacy',
];
export const SHINGLE_MODES: readonly ShingleMode[] = ['word', 'char', 'auto'];
export const WEIGHTS: readonly WeightsName[] = ['none', 'counts', 'idf'];
/** Which occurrences of a repeated span `substrings` cuts: every one but the first (input order), or every one. */
export type CutMode = 'later' | 'all';
export const CUT_MODES: readonly CutMode[] = ['later', 'all'];
/**
 * What `substrings --against` does with a corpus document that shares an n-gram with a reference (decontaminate.ts).
 */
export type ContaminationAction = 'remove' | 'cut' | 'report';
export const CONTAMINATION_ACTIONS: readonly ContaminationAction[] = ['remove', 'cut', 'report'];
/** GPT-3's decontamination n: `--min-tokens` with `--against` when not given. */
export const CONTAMINATION_MIN_TOKENS = 13;

/** The table. Keys are the code names; `OPTIONS.k.default` is the one place k's default is written. */
export const OPTIONS = {
  // What a signature is (recorded in every signature file).
  scheme: oneOf<SchemeName>('scheme', '--scheme', 'classic', SCHEME_NAMES),
  weights: oneOf<WeightsName>('weights', '--weights', 'none', WEIGHTS),
  k: integer('k', '--k', 128, 1, 4096),
  seed: spec<string | number>(
    'seed',
    '--seed',
    '42',
    'a 64-bit unsigned integer (decimal or 0x hex)',
    isU64,
    (text) => text,
  ),
  shingle: oneOf<ShingleMode>('shingle', '--shingle', 'word', SHINGLE_MODES),
  /** The shingle length: `n` in the library and in signature files (the short flag is -n). */
  n: integer('n', '--ngram', 5, 1, 1000),
  nfkc: flag('nfkc', '--nfkc'),
  stripPunctuation: flag('stripPunctuation', '--strip-punctuation'),
  slotBits: oneOf<ParamSlotBits>('slotBits', '--slot-bits', 64, SLOT_BITS),
  // Who signs.
  backend: oneOf<BackendChoice>('backend', '--backend', 'auto', BACKENDS),
  /** Default: defaultThreads (one per core, no more than the input's bytes can feed). */
  threads: integer('threads', '--threads', undefined, 1),
  batchSize: integer('batchSize', '--batch-size', 2048, 1),
  // Banding.
  threshold: real('threshold', '--threshold', 0.8, 'a number strictly between 0 and 1', (t) => t > 0 && t < 1),
  /** Default (with rows): the optimizer's choice for the threshold. */
  bands: integer('bands', '--bands', undefined, 1),
  rows: integer('rows', '--rows', undefined, 1),
  /** The recall-first weights (lshParams.ts, DEDUP_WEIGHTS): every candidate is verified afterwards. */
  fpWeight: real('fpWeight', '--fp-weight', 0.1, 'a non-negative number', (w) => w >= 0),
  fnWeight: real('fnWeight', '--fn-weight', 0.9, 'a non-negative number', (w) => w >= 0),
  /** Default: DEFAULT_RECALL_AT_THRESHOLD (0.999; less where k cannot reach it) with --verify exact or hybrid, else 0. */
  recallAtThreshold: real(
    'recallAtThreshold',
    '--recall-at-threshold',
    undefined,
    'a number from 0 up to (not including) 1',
    (p) => p >= 0 && p < 1,
  ),
  maxBucketPairs: integer('maxBucketPairs', '--max-bucket-pairs', 16, 1),
  /** --scheme simhash: near-duplicates differ in at most this many of 64 bits (Manku's block tables, bands/simhashBands.ts). */
  maxHamming: integer('maxHamming', '--max-hamming', 3, 1, 31),
  // Verification and clustering.
  verify: oneOf<VerifyMode>('verify', '--verify', 'hybrid', VERIFY_MODES),
  estimateError: real(
    'estimateError',
    '--estimate-error',
    0.001,
    'a number strictly between 0 and 1',
    (a) => a > 0 && a < 1,
  ),
  clusterCheck: oneOf<ClusterCheck>('clusterCheck', '--cluster-check', 'representative', CLUSTER_CHECKS),
  chainDelta: real(
    'chainDelta',
    '--chain-delta',
    0.1,
    'a number from 0 up to (not including) 1',
    (d) => d >= 0 && d < 1,
  ),
  maxRepresentatives: integer('maxRepresentatives', '--max-representatives', 8, 1),
  keep,
  // The audit (audit.ts): exact Jaccard of a seeded sample of the decisions.
  /** Pairs sampled per similarity bin, and removed documents sampled; default: no audit. */
  audit: integer('audit', '--audit', undefined, 1),
  /** Default: the signature seed (--seed). */
  auditSeed: spec<string | number>(
    'auditSeed',
    '--audit-seed',
    undefined,
    'a 64-bit unsigned integer (decimal or 0x hex)',
    isU64,
    (text) => text,
  ),
  // Queries of an index (`query --top`, serve's `"top"`): a bound on the work one query asks for.
  top: integer('top', '--top', undefined, 1, 10_000),
  /**
   * |Q ∩ X| / |Q| at or above which an indexed X is returned (`query --containment`, `dedup --against --containment`).
   */
  containment: real(
    'containment',
    '--containment',
    undefined,
    'a number above 0 and at most 1',
    (c) => c > 0 && c <= 1,
  ),
  /** Top-K's ranking: exact Jaccard of the stored sets, or the estimate. Default: exact where the index stores sets. */
  rerank: spec<'exact' | 'estimate'>(
    'rerank',
    '--rerank',
    undefined,
    'exact or estimate',
    (v) => v === 'exact' || v === 'estimate',
    (text) => text,
    ['exact', 'estimate'],
  ),
  // Exact substrings (`substrings`): repeated spans of at least minLength bytes of UTF-8, found exactly and cut.
  minLength: integer('minLength', '--min-length', 100, 1, 1 << 20),
  cut: oneOf<CutMode>('cut', '--cut', 'later', CUT_MODES),
  /** A document with a cut and fewer bytes left than this is dropped (1: only those left empty). */
  minRemaining: integer('minRemaining', '--min-remaining', 1, 0),
  // n-gram decontamination (`substrings --against`). Default: 13 (CONTAMINATION_MIN_TOKENS) with --against.
  minTokens: integer('minTokens', '--min-tokens', undefined, 1, 100_000),
  action: oneOf<ContaminationAction>('action', '--action', 'remove', CONTAMINATION_ACTIONS),
  // Reading.
  textField: fieldName('textField', '--text-field', 'text'),
  idField: fieldName('idField', '--id-field', 'id'),
} as const;

export type OptionName = keyof typeof OPTIONS;
type ValueOf<N extends OptionName> = (typeof OPTIONS)[N] extends OptionSpec<infer T> ? T : never;

/**
 * The options resolved, each field typed by the table: the one declaration of
 * an option's field (its default, rule and message are the table's). The
 * configurations of dedup, cluster, the report, the tab and the library pick
 * from it rather than restate the fields.
 */
export type OptionValues = { readonly [N in OptionName]: ValueOf<N> };

/** The options of verification and clustering a run resolves, beside the threshold and the banding. */
export type VerificationOptions = Pick<
  OptionValues,
  'verify' | 'clusterCheck' | 'chainDelta' | 'maxRepresentatives' | 'estimateError' | 'maxBucketPairs'
>;

/** The option's default; for options whose default is written in the table. */
export function defaultOf<N extends OptionName>(name: N): ValueOf<N> {
  const value = OPTIONS[name].default;
  if (value === undefined) throw new Error(`${name} has no fixed default`);
  return value as ValueOf<N>;
}

/** `value` checked by the table, or the default when undefined. */
export function optionValue<N extends OptionName>(name: N, value: unknown): ValueOf<N> {
  return (value === undefined ? OPTIONS[name].default : OPTIONS[name].check(value)) as ValueOf<N>;
}

/**
 * Input bytes, as stored, that give one more worker thread work: half a unit of dedup's first pass
 * (DEDUP_UNIT_BYTES, 2 MiB of text; a compressed file holds several times its size). A thread costs about a tenth
 * of a CPU-second to start (its isolate, modules and wasm); on less input than this it cannot take that back.
 */
export const BYTES_PER_THREAD = 1 << 20;

/**
 * The default `threads`, the one rule every command and the library follow: one per core (`cores`), but no more than
 * one per BYTES_PER_THREAD of input (`inputBytes`, as stored), so that a small input starts no thread it cannot feed.
 * An input of unknown size (standard input, a pipe) gets one per core. Outputs are the same for any thread count.
 */
export function defaultThreads(cores: number, inputBytes: number | undefined): number {
  if (inputBytes === undefined) return cores;
  return Math.max(1, Math.min(cores, Math.ceil(inputBytes / BYTES_PER_THREAD)));
}

/**
 * Refuses an options object with a key the function does not take ("treshold"),
 * naming the ones it does: a misspelled option is never ignored.
 */
export function checkKnownOptions(options: object, known: readonly string[], what: string): void {
  for (const key of Object.keys(options)) {
    if ((options as Record<string, unknown>)[key] !== undefined && !known.includes(key)) {
      throw new RangeError(`${what} has no option ${JSON.stringify(key)}; its options are ${known.join(', ')}`);
    }
  }
}

/** Checks every option of `options` the table knows (others are the caller's). */
export function checkTableOptions(options: object): void {
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && Object.hasOwn(OPTIONS, key)) OPTIONS[key as OptionName].check(value);
  }
}
