/**
 * The hash family, step 4: h_i(x) = ((a_i·x) mod P + b_i) mod P for i < k, with
 * a_i = splitmix64(seed + 2i) mod (P − 1) + 1 and b_i = splitmix64(seed + 2i + 1) mod P.
 * The one-permutation scheme (oph.ts) uses h_0 only, plus a 32-bit probing key.
 */
import { add64, type U64 } from '../math/u64.js';
import { P_HI, reduce64ModP } from '../math/mersenne61.js';
import { splitmix64 } from '../math/splitmix64.js';
import { isDatasketchScheme, makeDatasketchFamily } from './datasketchFamily.js';
import { simhashKey } from './simhash.js';

/**
 * classic: k hash functions, one per slot; oph: one hash, its range cut into k bins (oph.ts);
 * datasketch-*: datasketch 2.0.0's MinHash schemes, bit for bit (datasketchFamily.ts).
 */
import type { SchemeName } from '../options.js';
import type { HashFamily } from './hashFamilyShape.js';

export type { SchemeName } from '../options.js';

export type { HashFamily } from './hashFamilyShape.js';
export { splitmix64 } from '../math/splitmix64.js';

/** v mod (P − 1) for any 64-bit v: v = q·2^61 + r ≡ r + 2q (mod 2^61 − 2), below 2(P − 1). */
function modPMinus1(v: U64): U64 {
  const q = v.hi >>> 29;
  let lo = v.lo + 2 * q;
  let hi = (v.hi & P_HI) + (lo >= 4294967296 ? 1 : 0);
  lo = lo >>> 0;
  // P − 1 = 0x1fffffff_fffffffe
  if (hi > P_HI || (hi === P_HI && lo >= 0xfffffffe)) {
    lo = lo + 2;
    hi = (hi + (lo >= 4294967296 ? 1 : 0)) & P_HI;
    lo = lo >>> 0;
  }
  return { hi, lo };
}

export function makeHashFamily(k: number, seed: U64, scheme: SchemeName = 'classic'): HashFamily {
  if (!Number.isInteger(k) || k < 1 || k > 1 << 20) throw new RangeError(`k must be an integer in [1, 2^20], got ${k}`);
  if (isDatasketchScheme(scheme)) return makeDatasketchFamily(k, seed, scheme);
  const a = new Uint32Array(2 * k);
  const b = new Uint32Array(2 * k);
  const scratch = new Uint32Array(2);
  for (let i = 0; i < k; i++) {
    const even = add64(seed, { hi: 0, lo: 2 * i });
    const odd = add64(even, { hi: 0, lo: 1 });
    const ai = add64(modPMinus1(splitmix64(even)), { hi: 0, lo: 1 });
    a[2 * i] = ai.lo;
    a[2 * i + 1] = ai.hi;
    const bi = splitmix64(odd);
    reduce64ModP(bi.hi, bi.lo, scratch, 0);
    b[2 * i] = scratch[0];
    b[2 * i + 1] = scratch[1];
  }
  if (scheme === 'classic') return { k, seed, a, b };
  // SimHash hashes with splitmix64(x + key), key = splitmix64(seed) (simhash.ts), kept as a[0..1].
  if (scheme === 'simhash') return { k, seed, a: simhashKey(seed.hi, seed.lo), b: new Uint32Array(0), scheme };
  return { k, seed, a, b, scheme, probeKey: splitmix64(add64(seed, { hi: 0, lo: 2 })).lo };
}
