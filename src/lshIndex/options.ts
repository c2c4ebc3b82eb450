/**
 * The options that define an index (the contract's IndexOptions), how it is
 * opened (OpenOptions), and the resolved parameters a manifest records.
 * Browser-safe: the in-memory index reads them too.
 */
import { checkParams, type LshParams } from '../bands/lshParams.js';
import { simhashBanding } from '../bands/simhashBands.js';
import { defaultLshParams } from '../dedup/dedupSigned.js';
import { usesShingleSets } from '../verify/verification.js';
import {
  checkKnownOptions,
  checkTableOptions,
  OPTIONS,
  optionError,
  optionValue,
  type VerifyMode,
} from '../options.js';
import type { QueryOptions } from './types.js';
import type { ShingleMode } from '../shingles/shingles.js';
import type { BackendChoice } from '../signatures/selectBackend.js';
import {
  fullSlotBits,
  makeParams,
  paramDifferences,
  schemeOf,
  type SchemeName,
  type SignatureOptions,
  type SignatureParams,
} from '../signatures/params.js';

/** The dedup options that define an index, names from src/options.ts (stored slots: 32 or 64 bits, no b-bit). */
export interface IndexOptions extends Omit<SignatureOptions, 'slotBits' | 'bandKeys'> {
  readonly slotBits?: 32 | 64;
  readonly threshold?: number;
  readonly lsh?: LshParams;
  readonly verify?: VerifyMode;
  readonly estimateError?: number;
  readonly maxBucketPairs?: number;
  /** Keep shingle sets for exact verification; default: true when verify is exact|hybrid. */
  readonly storeSets?: boolean;
  /** scheme simhash: matches are fingerprints within this Hamming distance (its block tables and threshold). */
  readonly maxHamming?: number;
}

export interface OpenOptions {
  readonly backend?: BackendChoice;
  readonly threads?: number;
  /** No writer lock: add/remove/compact refused. */
  readonly readOnly?: boolean;
  /**
   * Parameters the caller expects (e.g. the CLI's flags): any that differs from the index's refuses the open, naming
   * each.
   */
  readonly expect?: IndexOptions;
  /**
   * When the files read by position (band tables, signatures, shingle
   * sets) and the document tables are verified (every file's length is
   * checked at open, and the files read whole — ids, removed rows, block
   * checksums — as they are read): `open`, every byte before open returns;
   * `lazy`, each block on the first read that touches it, a document table
   * when a compaction or merge reads it; `auto` (default), `open` up to
   * 256 MiB of such files, else `lazy` (a 1 M-document index opens in well
   * under a second). A small segment is read whole and checked either way.
   */
  readonly checksums?: 'open' | 'lazy' | 'auto';
}

export const INDEX_OPTIONS = [
  'scheme',
  'weights',
  'idf',
  'seed',
  'k',
  'shingle',
  'n',
  'nfkc',
  'stripPunctuation',
  'slotBits',
  'threshold',
  'lsh',
  'verify',
  'estimateError',
  'maxBucketPairs',
  'storeSets',
  'maxHamming',
] as const;

/** Every parameter of an index, resolved (defaults filled in): what manifest.json records. */
export interface IndexParameters {
  readonly scheme: SchemeName;
  /** Recorded only when not 'none' (signatures/params.ts): a manifest without it is of shingle sets. */
  readonly weights?: 'counts' | 'idf';
  /** With weights idf: the identity of the table the index keeps beside its manifest (idfFile.ts). */
  readonly idf?: string;
  /** The 64-bit seed in decimal. */
  readonly seed: string;
  readonly k: number;
  readonly shingle: ShingleMode;
  readonly n: number;
  readonly nfkc: boolean;
  readonly stripPunctuation: boolean;
  readonly slotBits: 32 | 64;
  readonly threshold: number;
  readonly bands: number;
  readonly rows: number;
  readonly verify: VerifyMode;
  readonly estimateError: number;
  readonly maxBucketPairs: number;
  readonly storeSets: boolean;
  /** scheme simhash only: the Hamming distance its bands (Manku's block tables) and threshold (1 − h / 64) are for. */
  readonly maxHamming?: number;
}

/**
 * SimHash's banding and threshold, from maxHamming alone (Manku's block tables, simhashBands.ts); a threshold or
 * banding given as well must be the ones it implies (a manifest records all three).
 */
function simhashIndexBanding(options: IndexOptions): { maxHamming: number; threshold: number; lsh: LshParams } {
  const maxHamming = optionValue('maxHamming', options.maxHamming);
  const { lsh, threshold } = simhashBanding(maxHamming);
  if (options.threshold !== undefined && options.threshold !== threshold)
    throw new RangeError(
      `scheme simhash decides at Hamming ≤ maxHamming (${maxHamming}: threshold ${threshold}), not threshold ` +
        `${options.threshold}: give maxHamming`,
    );
  if (options.lsh !== undefined && (options.lsh.bands !== lsh.bands || options.lsh.rows !== lsh.rows))
    throw new RangeError(
      `scheme simhash bands by maxHamming (${maxHamming}: ${lsh.bands} block tables of ${lsh.rows} bits), not ` +
        `${options.lsh.bands} bands × ${options.lsh.rows} rows`,
    );
  return { maxHamming, threshold, lsh };
}

/** The options, checked by the options table, with every default filled in. */
export function resolveParameters(options: IndexOptions): IndexParameters {
  checkKnownOptions(options, INDEX_OPTIONS, 'index');
  const { storeSets, lsh: givenLsh, ...table } = options;
  checkTableOptions(table);
  if (storeSets !== undefined && typeof storeSets !== 'boolean')
    throw optionError('storeSets', 'true or false', storeSets);
  // As the CLI refuses --verify exact with --no-store-sets: exact Jaccard needs both pairs' sets.
  if (storeSets === false && options.verify === 'exact')
    throw new RangeError(
      'verify exact needs the shingle sets: drop storeSets: false, or choose verify hybrid or estimate',
    );
  const simhash = options.scheme === 'simhash' ? simhashIndexBanding(options) : undefined;
  // SimHash's one-bit slots fit 32 bits: half the rows of 64 (the library's and CLI's default for other schemes).
  const signature = makeParams(simhash && options.slotBits === undefined ? { ...options, slotBits: 32 } : options);
  if (simhash === undefined && options.maxHamming !== undefined)
    throw new RangeError('maxHamming applies to scheme simhash only (its block tables)');
  const slotBits = fullSlotBits(signature);
  const threshold = simhash?.threshold ?? optionValue('threshold', options.threshold);
  const verify = optionValue('verify', options.verify);
  const lsh = simhash?.lsh ?? givenLsh ?? defaultLshParams(threshold, signature.k, verify);
  checkParams(lsh, signature.k);
  return {
    scheme: schemeOf(signature),
    ...(signature.weights ? { weights: signature.weights } : {}),
    ...(signature.idf ? { idf: signature.idf } : {}),
    seed: signature.seed,
    k: signature.k,
    shingle: signature.shingle,
    n: signature.n,
    nfkc: signature.normalize.nfkc,
    stripPunctuation: signature.normalize.stripPunctuation,
    slotBits,
    threshold,
    bands: lsh.bands,
    rows: lsh.rows,
    verify,
    estimateError: optionValue('estimateError', options.estimateError),
    maxBucketPairs: optionValue('maxBucketPairs', options.maxBucketPairs),
    storeSets: storeSets ?? usesShingleSets(verify),
    ...(simhash ? { maxHamming: simhash.maxHamming } : {}),
  };
}

/** The signature parameters of an index's (for signing and paramDifferences). */
export function signatureParamsOf(p: IndexParameters): SignatureParams {
  return makeParams({
    scheme: p.scheme,
    weights: p.weights,
    idf: p.idf,
    seed: p.seed,
    k: p.k,
    shingle: p.shingle,
    n: p.n,
    nfkc: p.nfkc,
    stripPunctuation: p.stripPunctuation,
    slotBits: p.slotBits,
  });
}

/**
 * Each setting in which `given` differs from the index's, as "k: 128 (index) vs 64";
 * empty when they agree. Only the options given are compared, so an open
 * with no options never differs. Signature settings go through paramDifferences.
 */
export function parameterDifferences(index: IndexParameters, given: IndexOptions): string[] {
  const base = optionsOf(index);
  // Another k, threshold or verify mode without its own banding: the banding dedup would choose for it.
  const rebanded =
    given.lsh === undefined &&
    (['k', 'threshold', 'verify'] as const).some((key) => given[key] !== undefined && given[key] !== index[key]);
  // Another scheme or Hamming distance: the threshold and banding its own (SimHash's come from maxHamming alone).
  const simhashChange =
    (given.scheme !== undefined && given.scheme !== index.scheme && [given.scheme, index.scheme].includes('simhash')) ||
    (given.maxHamming !== undefined && given.maxHamming !== index.maxHamming);
  const other = resolveParameters({
    ...base,
    ...(rebanded || simhashChange ? { lsh: undefined } : {}),
    ...(simhashChange ? { threshold: undefined, maxHamming: undefined } : {}),
    ...given,
  });
  const signature = paramDifferences(signatureParamsOf(index), signatureParamsOf(other)).map((d) =>
    d.replace(/^(\w+): (.*) vs (.*)$/, '$1: $2 (index) vs $3'),
  );
  const rest = (
    ['maxHamming', 'threshold', 'bands', 'rows', 'verify', 'estimateError', 'maxBucketPairs', 'storeSets'] as const
  )
    .filter((key) => index[key] !== other[key])
    .map((key) => `${key}: ${String(index[key])} (index) vs ${String(other[key])}`);
  return [...signature, ...rest];
}

/** The options that recreate these parameters. */
export function optionsOf(p: IndexParameters): IndexOptions {
  const { bands, rows, ...rest } = p;
  return { ...rest, lsh: { bands, rows } };
}

/** Parameters read back from a manifest: the same checks as options, so a hand-edited manifest cannot run. */
export function parametersFromRecord(record: Record<string, unknown>): IndexParameters {
  const { bands, rows, ...rest } = record as unknown as IndexParameters;
  return resolveParameters({ ...rest, lsh: { bands, rows } } as IndexOptions);
}

/**
 * Whether a set size can be had for every row: stored sets, else the classic scheme's 64-bit slots (forest.ts estimates
 * it).
 */
export function knowsSetSizes(p: IndexParameters, hasSets: boolean): boolean {
  return hasSets || (p.scheme === 'classic' && p.slotBits === 64);
}

/** A query asking what the index cannot do (a client's mistake: serve answers 400). */
export class QueryOptionError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'QueryOptionError';
  }
}

/** A query's options, checked by the table, with `rerank` resolved; and whether the query texts' sets are needed. */
export interface ResolvedQuery {
  readonly options: QueryOptions;
  readonly keepSets: boolean;
}

/**
 * Texts must be strings; `top`, `containment` and `rerank` pass the options
 * table, and what the index cannot do is refused: `rerank: 'exact'` without
 * stored sets, containment without set sizes (no sets, and slots that are not
 * the classic scheme's 64 bits), `rerank` without `top`.
 */
export function resolveQuery(texts: readonly string[], options: QueryOptions, p: IndexParameters): ResolvedQuery {
  if (!Array.isArray(texts)) throw new TypeError('query: expected an array of texts');
  texts.forEach((t, i) => {
    if (typeof t !== 'string') throw new TypeError(`query: text ${i + 1} is not a string`);
  });
  checkKnownOptions(options, ['top', 'containment', 'rerank'], 'query');
  const top = options.top === undefined ? undefined : OPTIONS.top.check(options.top);
  const containment = options.containment === undefined ? undefined : OPTIONS.containment.check(options.containment);
  let rerank = options.rerank === undefined ? undefined : OPTIONS.rerank.check(options.rerank);
  if (rerank !== undefined && (top === undefined || containment !== undefined))
    throw new QueryOptionError('query: rerank ranks the top K (give top, without containment)');
  if (rerank === 'exact' && !p.storeSets)
    throw new QueryOptionError(
      'query: rerank exact needs the shingle sets, which this index does not store (created without storeSets); use ' +
        'rerank estimate',
    );
  if (containment !== undefined && p.scheme === 'simhash')
    throw new QueryOptionError(
      'query: containment estimates the share of a query in a document from MinHash slots: a simhash index answers ' +
        'top K and threshold queries',
    );
  if (containment !== undefined && !knowsSetSizes(p, p.storeSets)) {
    throw new QueryOptionError(
      `query: containment needs set sizes: stored sets, or the classic scheme's 64-bit slots (this index: ` +
        `${p.scheme}, ${p.slotBits}-bit, no sets)`,
    );
  }
  if (top !== undefined && containment === undefined) rerank ??= p.storeSets ? 'exact' : 'estimate';
  const verifying = top === undefined && containment === undefined && p.storeSets && usesShingleSets(p.verify);
  return {
    options: { top, containment, rerank },
    keepSets: containment !== undefined || rerank === 'exact' || verifying,
  };
}
