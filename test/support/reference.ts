/**
 * A slow, obviously-correct BigInt reference of the whole hash family, written
 * straight from the specification. Tests only: the library never uses BigInt.
 */
import { tokenize, type NormalizeOptions } from '../../src/text/normalize.js';

export const P = (1n << 61n) - 1n;

/** Values below 2^61 that stress carries and folds: limbs of all ones, word edges, P itself (CPU and WGSL tests). */
export const EDGES = [
  0n,
  1n,
  2n,
  P - 2n,
  P - 1n,
  P,
  (1n << 61n) - 2n,
  (1n << 32n) - 1n,
  1n << 32n,
  (1n << 32n) + 1n,
  1n << 60n,
  (1n << 60n) - 1n,
  0xffffn,
  0xffff0000n,
  0xffff_ffff_ffffn,
  0x1fff_ffff_0000_0000n,
  0x1fff_0000_ffff_0000n,
  0x0000_ffff_0000_ffffn,
  0x1fff_ffff_ffff_0000n,
  0xffff_0000_ffffn,
];

/** Addends for the edge pairs. */
export const EDGE_ADDENDS = [0n, 1n, P - 1n];
const MASK64 = (1n << 64n) - 1n;

export function splitmix64Ref(state: bigint): bigint {
  let z = (state + 0x9e3779b97f4a7c15n) & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/** Count weighting's element rule (weightedElement.ts): (g, 0) = g; (g, j) = splitmix64((g + j·φ) mod 2^64) mod P. */
export function weightedElementRef(g: bigint, j: number): bigint {
  return j === 0 ? g : splitmix64Ref((g + BigInt(j) * 0x9e3779b97f4a7c15n) & MASK64) % P;
}

export function familyRef(k: number, seed: bigint): { a: bigint[]; b: bigint[] } {
  const a: bigint[] = [];
  const b: bigint[] = [];
  for (let i = 0; i < k; i++) {
    a.push((splitmix64Ref((seed + 2n * BigInt(i)) & MASK64) % (P - 1n)) + 1n);
    b.push(splitmix64Ref((seed + 2n * BigInt(i) + 1n) & MASK64) % P);
  }
  return { a, b };
}

export function fnv1aRef(bytes: Uint8Array): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of bytes) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & MASK64;
  return h;
}

const utf8 = new TextEncoder();

export function shinglesRef(
  text: string,
  mode: 'word' | 'char',
  n: number,
  normalize: NormalizeOptions = { nfkc: false, stripPunctuation: false },
): Set<bigint> {
  const tokens = tokenize(text, normalize);
  const set = new Set<bigint>();
  if (tokens.length === 0) return set;
  if (mode === 'word') {
    const windows = Math.max(1, tokens.length - n + 1);
    for (let w = 0; w < windows; w++) {
      const window = tokens
        .slice(w, w + n)
        .map((t) => t + ' ')
        .join('');
      set.add(fnv1aRef(utf8.encode(window)) % P);
    }
  } else {
    // Code points of the collapsed text; lone surrogates encode as U+FFFD like TextEncoder.
    const points = Array.from(tokens.join(' '));
    const windows = Math.max(1, points.length - n + 1);
    for (let w = 0; w < windows; w++) set.add(fnv1aRef(utf8.encode(points.slice(w, w + n).join(''))) % P);
  }
  return set;
}

export function signatureRef(shingles: Iterable<bigint>, k: number, seed: bigint): bigint[] {
  const { a, b } = familyRef(k, seed);
  const sig = new Array<bigint>(k).fill(MASK64);
  for (const x of shingles) {
    for (let i = 0; i < k; i++) {
      const h = (((a[i] * x) % P) + b[i]) % P;
      if (h < sig[i]) sig[i] = h;
    }
  }
  return sig;
}

/** (lo, hi) pairs → BigInts. */
export function pairsToBigInts(pairs: Uint32Array): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < pairs.length; i += 2) out.push((BigInt(pairs[i + 1]) << 32n) | BigInt(pairs[i]));
  return out;
}

/** BigInts (below 2^64) → (lo, hi) pairs: the inverse of pairsToBigInts. */
export function bigIntsToPairs(values: readonly bigint[]): Uint32Array {
  const out = new Uint32Array(2 * values.length);
  values.forEach((v, i) => {
    out[2 * i] = Number(v & 0xffffffffn);
    out[2 * i + 1] = Number(v >> 32n);
  });
  return out;
}

/** base^exponent mod P. */
export function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let power = base % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * power) % P;
    power = (power * power) % P;
  }
  return result;
}

/** Deterministic PRNG for property tests (mulberry32), so failures reproduce. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomU32(next: () => number): number {
  return Math.floor(next() * 4294967296) >>> 0;
}

export function randomBelow(next: () => number, bound: bigint): bigint {
  const v = (BigInt(randomU32(next)) << 32n) | BigInt(randomU32(next));
  return v % bound;
}

const MASK32 = 0xffffffffn;

/** MurmurHash3's fmix32, in BigInt. */
export function fmix32Ref(h: bigint): bigint {
  h ^= h >> 16n;
  h = (h * 0x85ebca6bn) & MASK32;
  h ^= h >> 13n;
  h = (h * 0xc2b2ae35n) & MASK32;
  return h ^ (h >> 16n);
}

/** The bin minima of one-permutation hashing, written from docs/signatures.md, before densification. */
export function ophBinMinimaRef(shingles: Iterable<bigint>, k: number, seed: bigint): bigint[] {
  const { a, b } = familyRef(1, seed);
  const bins = new Array<bigint>(k).fill(MASK64);
  for (const x of shingles) {
    const h = (((a[0] * x) % P) + b[0]) % P;
    const bin = Number(((h >> 29n) * BigInt(k)) >> 32n);
    if (h < bins[bin]) bins[bin] = h;
  }
  return bins;
}

/** OPH with optimal densification (docs/signatures.md, "The hash family"), in BigInt; an empty set stays all-ones. */
export function ophSignatureRef(shingles: Iterable<bigint>, k: number, seed: bigint): bigint[] {
  const bins = ophBinMinimaRef(shingles, k, seed);
  const c = splitmix64Ref((seed + 2n) & MASK64) & MASK32;
  const filled = bins.map((v) => v !== MASK64);
  if (!filled.some(Boolean)) return bins;
  return bins.map((v, j) => {
    if (filled[j]) return v;
    const start = fmix32Ref(c ^ BigInt(j));
    for (let t = 0n; ; t++) {
      const mixed = fmix32Ref((start + t * 0x9e3779b9n) & MASK32);
      const donor = Number((mixed * BigInt(k)) >> 32n);
      if (filled[donor]) return bins[donor];
    }
  });
}
