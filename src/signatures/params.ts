/**
 * Everything that determines a signature, recorded in every signature file so
 * that signatures made with different settings are never mixed.
 */
import { parseU64, toDecimal64 } from '../math/u64.js';
import type { ShingleMode, ShingleOptions } from '../shingles/shingles.js';
import { makeHashFamily, type HashFamily, type SchemeName } from './hashFamily.js';
import { optionValue, type ParamSlotBits } from '../options.js';

export type { SchemeName } from './hashFamily.js';

/**
 * The recorded name of each signing scheme of the specification (README, "The
 * hash family"); bump the version if any step changes. `--scheme` takes the keys.
 */
export const SCHEMES: Readonly<Record<SchemeName, string>> = {
  classic: 'minhash-mersenne61-fnv1a64-splitmix64/v1',
  oph: 'oph-densified-mersenne61-fnv1a64-splitmix64/v1',
};

/** The classic scheme's recorded name (the default). */
export const SCHEME = SCHEMES.classic;

const SCHEME_TITLES: Readonly<Record<SchemeName, string>> = {
  classic: 'classic MinHash, k hash functions',
  oph: 'one-permutation hashing with optimal densification',
};

/** The scheme a recorded name stands for; refuses one this version does not know. */
export function schemeOf(params: Pick<SignatureParams, 'scheme'>): SchemeName {
  const found = (Object.keys(SCHEMES) as SchemeName[]).find((name) => SCHEMES[name] === params.scheme);
  if (!found) {
    const known = Object.entries(SCHEMES).map(([name, id]) => `${name} = ${id}`).join(', ');
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
}

export interface SignatureOptions {
  /** classic (default) or oph. */
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
}

/** Validated parameters with the defaults of the options table (src/options.ts: k 128, seed 42, word 5-grams, 64-bit slots). */
export function makeParams(options: SignatureOptions = {}): SignatureParams {
  const k = optionValue('k', options.k);
  const n = optionValue('n', options.n);
  const shingle = optionValue('shingle', options.shingle);
  const slotBits = optionValue('slotBits', options.slotBits);
  const bandKeys = checkBandKeys(slotBits, k, options.bandKeys);
  const scheme = optionValue('scheme', options.scheme);
  return {
    scheme: SCHEMES[scheme],
    seed: toDecimal64(parseU64(String(optionValue('seed', options.seed)))),
    k,
    shingle,
    n,
    normalize: { lowercase: true, nfkc: optionValue('nfkc', options.nfkc), stripPunctuation: optionValue('stripPunctuation', options.stripPunctuation) },
    slotBits,
    ...(bandKeys ? { bandKeys } : {}),
  };
}

function checkBandKeys(slotBits: ParamSlotBits, k: number, layout: StoredBandLayout | undefined): StoredBandLayout | undefined {
  if (slotBits >= 32) {
    if (layout) throw new RangeError(`stored band keys go with b-bit slots (slot bits below 32), not ${slotBits}`);
    return undefined;
  }
  if (!layout) throw new RangeError(`${slotBits}-bit slots need the band layout (bands × rows) whose keys are stored beside them`);
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
    `--slot-bits ${params.slotBits} is for stored signatures (gpudedup sign, then dedup --signatures); signing in memory keeps 32 or 64`,
  );
}

export function shingleOptionsOf(params: SignatureParams): ShingleOptions {
  return { mode: params.shingle, n: params.n, normalize: params.normalize };
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
    bandKeys: p.bandKeys ? `${p.bandKeys.bands} bands × ${p.bandKeys.rows} rows` : 'none',
  });
  const fa = flat(a);
  const fb = flat(b);
  return Object.keys(fa)
    .filter((key) => fa[key] !== fb[key])
    .map((key) => `${key}: ${String(fa[key])} vs ${String(fb[key])}`);
}
