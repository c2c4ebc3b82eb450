/**
 * Everything that determines a signature, recorded in every signature file so
 * that signatures made with different settings are never mixed.
 */
import { parseU64, toDecimal64 } from '../math/u64.js';
import type { ShingleMode, ShingleOptions } from '../shingles/shingles.js';
import { makeHashFamily, type HashFamily, type SchemeName } from './hashFamily.js';
import { defaultOf, optionValue, type ParamSlotBits, type WeightsName } from '../options.js';
import { SIMHASH_BITS } from './simhash.js';
import { idfTableFor } from '../shingles/idfWeights.js';
import { DATASKETCH_DEFAULT_SEED, datasketchSlotBits, isDatasketchScheme } from './datasketchFamily.js';

export type { SchemeName } from './hashFamily.js';

/**
 * The recorded name of each signing scheme of the specification (docs/signatures.md, "The
 * hash family"); bump the version if any step changes. `--scheme` takes the keys.
 */
export const SCHEMES: Readonly<Record<SchemeName, string>> = {
  classic: 'minhash-mersenne61-fnv1a64-splitmix64/v1',
  oph: 'oph-densified-mersenne61-fnv1a64-splitmix64/v1',
  simhash: 'simhash64-splitmix64-fnv1a64/v1',
  // datasketch 2.0.0's MinHash(scheme=…) after update_batch of the shingles' UTF-8 bytes (docs/signatures.md, "Signing
  // for datasketch").
  'datasketch-affine32': 'datasketch-2.0.0-affine32-sha1/v1',
  'datasketch-affine64': 'datasketch-2.0.0-affine64-sha1/v1',
  'datasketch-legacy': 'datasketch-2.0.0-legacy-sha1/v1',
};

/** The classic scheme's recorded name (the default). */
export const SCHEME = SCHEMES.classic;

const SCHEME_TITLES: Readonly<Record<SchemeName, string>> = {
  classic: 'classic MinHash, k hash functions',
  oph: 'one-permutation hashing with optimal densification',
  simhash: 'SimHash, 64-bit fingerprints',
  'datasketch-affine32': "datasketch's MinHash, scheme affine32",
  'datasketch-affine64': "datasketch's MinHash, scheme affine64",
  'datasketch-legacy': "datasketch's MinHash, scheme legacy (before 2.0)",
};

/** The scheme a recorded name stands for; refuses one this version does not know. */
export function schemeOf(params: Pick<SignatureParams, 'scheme'>): SchemeName {
  const found = (Object.keys(SCHEMES) as SchemeName[]).find((name) => SCHEMES[name] === params.scheme);
  if (!found) {
    const known = Object.entries(SCHEMES)
      .map(([name, id]) => `${name} = ${id}`)
      .join(', ');
    throw new RangeError(`unknown signature scheme ${JSON.stringify(params.scheme)} (this gpudedup signs ${known})`);
  }
  return found;
}

/** "oph (one-permutation hashing …)" for messages; the recorded name itself if unknown. */
function describeScheme(recorded: string): string {
  const name = (Object.keys(SCHEMES) as SchemeName[]).find((n) => SCHEMES[n] === recorded);
  return name ? `${name} (${SCHEME_TITLES[name]})` : recorded;
}

export { SLOT_BITS, type ParamSlotBits } from '../options.js';

/** Bands × rows of the band keys a b-bit signature file stores beside its slots. */
export interface StoredBandLayout {
  readonly bands: number;
  readonly rows: number;
}

export interface SignatureParams {
  readonly scheme: string;
  /** The 64-bit seed in decimal. */
  readonly seed: string;
  readonly k: number;
  readonly shingle: ShingleMode;
  readonly n: number;
  readonly normalize: { readonly lowercase: true; readonly nfkc: boolean; readonly stripPunctuation: boolean };
  readonly slotBits: ParamSlotBits;
  /** b-bit slots (slotBits < 32) only: the stored band keys' layout, fixed when signing. */
  readonly bandKeys?: StoredBandLayout;
  /** How shingles weigh (countWeights.ts): recorded only when not the plain set ('none'), so older files read as sets. */
  readonly weights?: Exclude<WeightsName, 'none'>;
  /** With weights idf only: the identity of the document-frequency table (idfTable.ts), 32 hex digits. */
  readonly idf?: string;
}

/** A parameter set's weighting: 'none' where none is recorded. */
export function weightsOf(params: Pick<SignatureParams, 'weights'>): WeightsName {
  return params.weights ?? 'none';
}

export interface SignatureOptions {
  /** classic (default), oph, or one of datasketch's (datasketch-affine32, -affine64, -legacy). */
  readonly scheme?: SchemeName;
  readonly seed?: string | number;
  readonly k?: number;
  readonly shingle?: ShingleMode;
  readonly n?: number;
  readonly nfkc?: boolean;
  readonly stripPunctuation?: boolean;
  readonly slotBits?: ParamSlotBits;
  /** Required with slotBits < 32, refused otherwise. */
  readonly bandKeys?: StoredBandLayout;
  /**
   * none (default): shingle sets; counts: a shingle seen c times is c elements (weighted Jaccard); idf: a shingle
   * weighs by its document frequency (idfWeights.ts).
   */
  readonly weights?: WeightsName;
  /** With weights idf (required there, refused elsewhere): the identity of its table, loaded or counted first. */
  readonly idf?: string;
}

/**
 * Validated parameters with the defaults of the options table (src/options.ts: k 128, seed 42, word 5-grams,
 * 64-bit slots); for the datasketch schemes seed 1 (datasketch's) and their own slot width.
 */
export function makeParams(options: SignatureOptions = {}): SignatureParams {
  const n = optionValue('n', options.n);
  const shingle = optionValue('shingle', options.shingle);
  const scheme = optionValue('scheme', options.scheme);
  const k = scheme === 'simhash' ? simhashK(options) : optionValue('k', options.k);
  const datasketch = isDatasketchScheme(scheme) ? checkDatasketch(scheme, options) : undefined;
  const slotBits =
    options.slotBits === undefined
      ? (datasketch?.slotBits ?? optionValue('slotBits', undefined))
      : optionValue('slotBits', options.slotBits);
  const bandKeys = checkBandKeys(slotBits, k, options.bandKeys);
  const weights = optionValue('weights', options.weights);
  if (weights !== 'none' && datasketch)
    throw new RangeError(`--weights ${weights} is not datasketch's: --scheme ${scheme} signs shingle sets`);
  const idf = checkIdf(weights, options.idf);
  return {
    scheme: SCHEMES[scheme],
    seed:
      options.seed === undefined
        ? defaultSeedOf(scheme)
        : toDecimal64(parseU64(String(optionValue('seed', options.seed)))),
    k,
    shingle,
    n,
    normalize: {
      lowercase: true,
      nfkc: optionValue('nfkc', options.nfkc),
      stripPunctuation: optionValue('stripPunctuation', options.stripPunctuation),
    },
    slotBits,
    ...(bandKeys ? { bandKeys } : {}),
    ...(weights === 'none' ? {} : { weights }),
    ...(idf === undefined ? {} : { idf }),
  };
}

function checkIdf(weights: WeightsName, idf: string | undefined): string | undefined {
  if (weights !== 'idf') {
    if (idf !== undefined) throw new RangeError(`an idf table goes with --weights idf, not --weights ${weights}`);
    return undefined;
  }
  if (idf === undefined || !/^[0-9a-f]{32}$/.test(idf))
    throw new RangeError(`--weights idf needs its table's identity (32 hex digits), got ${String(idf)}`);
  return idf;
}

/**
 * SimHash signs 64 one-bit slots (simhash.ts): k is 64, given or not (the table's default k, 128, is taken as not
 * given), and slots are 32 or 64 bits wide.
 */
function simhashK(options: SignatureOptions): number {
  if (options.k !== undefined && options.k !== SIMHASH_BITS && options.k !== defaultOf('k'))
    throw new RangeError(
      `--scheme simhash signs ${SIMHASH_BITS}-bit fingerprints: k is ${SIMHASH_BITS}, not ${options.k}`,
    );
  if (options.slotBits !== undefined && options.slotBits < 32)
    throw new RangeError(`--scheme simhash keeps its fingerprint bits in 32- or 64-bit slots, not ${options.slotBits}`);
  return SIMHASH_BITS;
}

/** The seed a scheme signs with when none is given, in decimal: datasketch's 1 for its schemes, else the table's 42. */
export function defaultSeedOf(scheme: SchemeName): string {
  return toDecimal64(
    parseU64(String(isDatasketchScheme(scheme) ? DATASKETCH_DEFAULT_SEED : optionValue('seed', undefined))),
  );
}

/** A datasketch scheme stores its own dtype (uint32, or uint64 for affine64) and takes numpy's 32-bit seeds. */
function checkDatasketch(
  scheme: SchemeName & `datasketch-${string}`,
  options: SignatureOptions,
): { slotBits: 32 | 64 } {
  const slotBits = datasketchSlotBits(scheme);
  if (options.slotBits !== undefined && options.slotBits !== slotBits) {
    throw new RangeError(
      `--scheme ${scheme} keeps ${slotBits}-bit slots (datasketch's hash values), not --slot-bits ${options.slotBits}`,
    );
  }
  if (options.seed !== undefined && parseU64(String(options.seed)).hi !== 0) {
    throw new RangeError(
      `--scheme ${scheme} takes datasketch's seed, an integer from 0 to 4294967295 (numpy.random.RandomState), got ` +
        `${String(options.seed)}`,
    );
  }
  return { slotBits };
}

function checkBandKeys(
  slotBits: ParamSlotBits,
  k: number,
  layout: StoredBandLayout | undefined,
): StoredBandLayout | undefined {
  if (slotBits >= 32) {
    if (layout) throw new RangeError(`stored band keys go with b-bit slots (slot bits below 32), not ${slotBits}`);
    return undefined;
  }
  if (!layout)
    throw new RangeError(`${slotBits}-bit slots need the band layout (bands × rows) whose keys are stored beside them`);
  const { bands, rows } = layout;
  if (!Number.isInteger(bands) || !Number.isInteger(rows) || bands < 1 || rows < 1 || bands * rows > k) {
    throw new RangeError(`stored band keys need positive integers bands × rows ≤ k = ${k}, got ${bands} × ${rows}`);
  }
  return { bands, rows };
}

/** The slot width of a run that signs and dedups in memory: b-bit slots are only stored. */
export function fullSlotBits(params: SignatureParams): 32 | 64 {
  if (params.slotBits === 32 || params.slotBits === 64) return params.slotBits;
  throw new RangeError(
    `--slot-bits ${params.slotBits} is for stored signatures (gpudedup sign, then dedup --signatures); signing in ` +
      `memory keeps 32 or 64`,
  );
}

export function shingleOptionsOf(params: SignatureParams): ShingleOptions {
  const scheme = schemeOf(params);
  const weights = weightsOf(params);
  const options = {
    mode: params.shingle,
    n: params.n,
    normalize: params.normalize,
    ...(weights === 'none' ? {} : { weights }),
    // The table itself, looked up by the identity the parameters record (loaded or counted first by the run).
    ...(weights === 'idf' ? { idf: idfTableFor(params.idf) } : {}),
  };
  // datasketch hashes each shingle with SHA-1 (sha1_hash64 for affine64, else sha1_hash32).
  if (!isDatasketchScheme(scheme)) return options;
  return { ...options, hash: datasketchSlotBits(scheme) === 64 ? 'sha1-64' : 'sha1-32' };
}

export function hashFamilyOf(params: SignatureParams): HashFamily {
  return makeHashFamily(params.k, parseU64(params.seed), schemeOf(params));
}

/** The settings in which two parameter sets differ, as "k: 64 vs 128"; empty when compatible. */
export function paramDifferences(a: SignatureParams, b: SignatureParams): string[] {
  const flat = (p: SignatureParams): Record<string, unknown> => ({
    scheme: describeScheme(p.scheme),
    seed: p.seed,
    k: p.k,
    shingle: p.shingle,
    n: p.n,
    nfkc: p.normalize.nfkc,
    stripPunctuation: p.normalize.stripPunctuation,
    slotBits: p.slotBits,
    weights: weightsOf(p),
    idf: p.idf ?? 'none',
    bandKeys: p.bandKeys ? `${p.bandKeys.bands} bands × ${p.bandKeys.rows} rows` : 'none',
  });
  const fa = flat(a);
  const fb = flat(b);
  return Object.keys(fa)
    .filter((key) => fa[key] !== fb[key])
    .map((key) => `${key}: ${String(fa[key])} vs ${String(fb[key])}`);
}
