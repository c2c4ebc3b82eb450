/**
 * Everything that determines a signature, recorded in every signature file so
 * that signatures made with different settings are never mixed.
 */
import { parseU64, toDecimal64 } from '../math/u64.js';
import type { ShingleMode, ShingleOptions } from '../shingles/shingles.js';
import { makeHashFamily, type HashFamily } from './hashFamily.js';

/** Names the whole hash family of the specification; bump it if any step changes. */
export const SCHEME = 'minhash-mersenne61-fnv1a64-splitmix64/v1';

export interface SignatureParams {
  readonly scheme: string;
  /** The 64-bit seed in decimal. */
  readonly seed: string;
  readonly k: number;
  readonly shingle: ShingleMode;
  readonly n: number;
  readonly normalize: { readonly lowercase: true; readonly nfkc: boolean; readonly stripPunctuation: boolean };
  readonly slotBits: 32 | 64;
}

export interface SignatureOptions {
  readonly seed?: string | number;
  readonly k?: number;
  readonly shingle?: ShingleMode;
  readonly n?: number;
  readonly nfkc?: boolean;
  readonly stripPunctuation?: boolean;
  readonly slotBits?: 32 | 64;
}

/** Validated parameters with the defaults: k 128, seed 42, word 5-grams, 64-bit slots. */
export function makeParams(options: SignatureOptions = {}): SignatureParams {
  const k = options.k ?? 128;
  const n = options.n ?? 5;
  const shingle = options.shingle ?? 'word';
  const slotBits = options.slotBits ?? 64;
  if (!Number.isInteger(k) || k < 1 || k > 4096) throw new RangeError(`k must be an integer from 1 to 4096, got ${k}`);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new RangeError(`n must be an integer from 1 to 1000, got ${n}`);
  if (!['word', 'char', 'auto'].includes(shingle)) throw new RangeError(`shingle mode must be word, char or auto, got ${shingle}`);
  if (slotBits !== 32 && slotBits !== 64) throw new RangeError(`slot bits must be 32 or 64, got ${String(slotBits)}`);
  return {
    scheme: SCHEME,
    seed: toDecimal64(parseU64(String(options.seed ?? 42))),
    k,
    shingle,
    n,
    normalize: { lowercase: true, nfkc: options.nfkc ?? false, stripPunctuation: options.stripPunctuation ?? false },
    slotBits,
  };
}

export function shingleOptionsOf(params: SignatureParams): ShingleOptions {
  return { mode: params.shingle, n: params.n, normalize: params.normalize };
}

export function hashFamilyOf(params: SignatureParams): HashFamily {
  return makeHashFamily(params.k, parseU64(params.seed));
}

/** The settings in which two parameter sets differ, as "k: 64 vs 128"; empty when compatible. */
export function paramDifferences(a: SignatureParams, b: SignatureParams): string[] {
  const flat = (p: SignatureParams): Record<string, unknown> => ({
    scheme: p.scheme,
    seed: p.seed,
    k: p.k,
    shingle: p.shingle,
    n: p.n,
    nfkc: p.normalize.nfkc,
    stripPunctuation: p.normalize.stripPunctuation,
    slotBits: p.slotBits,
  });
  const fa = flat(a);
  const fb = flat(b);
  return Object.keys(fa)
    .filter((key) => fa[key] !== fb[key])
    .map((key) => `${key}: ${String(fa[key])} vs ${String(fb[key])}`);
}
