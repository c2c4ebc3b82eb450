/**
 * datasketch 2.0.0's MinHash permutations, reproduced: the parameters that
 * `MinHash(num_perm=k, seed=seed, scheme=…)._init_permutations` draws from
 * `numpy.random.RandomState(seed)` (src/math/mt19937.ts), in the same order.
 *
 * - affine32: a = randint(0, 2^31, k, uint32)·2 + 1, then b = randint(0, 2^32, k, uint32);
 *   slot i of a shingle hash x is fmix32(x)·a_i + b_i mod 2^32.
 * - affine64: the same over 64 bits (randint(0, 2^63) and randint(0, 2^64), uint64), fmix64.
 * - legacy: per slot, a_i = randint(1, P), then b_i = randint(0, P), P = 2^61 − 1;
 *   slot i is ((a_i·x + b_i) mod 2^64) mod P, masked to 32 bits (numpy uint64 arithmetic wraps).
 *
 * The shingle hash x is sha1_hash32 (affine32, legacy) or sha1_hash64 (affine64) of the
 * shingle's UTF-8 bytes (src/shingles/sha1Shingles.ts).
 */
import { boundedUint32, boundedUint64, MersenneTwister } from '../math/mt19937.js';
import type { U64 } from '../math/u64.js';
import type { HashFamily } from './hashFamilyShape.js';

export const DATASKETCH_SCHEMES = ['datasketch-affine32', 'datasketch-affine64', 'datasketch-legacy'] as const;
export type DatasketchScheme = (typeof DATASKETCH_SCHEMES)[number];

export function isDatasketchScheme(scheme: string | undefined): scheme is DatasketchScheme {
  return (DATASKETCH_SCHEMES as readonly string[]).includes(scheme ?? '');
}

/** Bits of a slot value (and of the shingle hash): datasketch's dtype of the scheme's hash values. */
export function datasketchSlotBits(scheme: DatasketchScheme): 32 | 64 {
  return scheme === 'datasketch-affine64' ? 64 : 32;
}

/** datasketch's default seed (`MinHash(seed=1)`). */
export const DATASKETCH_DEFAULT_SEED = 1;

const P: U64 = { hi: 0x1fffffff, lo: 0xffffffff };
const ZERO: U64 = { hi: 0, lo: 0 };

/**
 * a_i and b_i as (lo, hi) pairs, as for the other schemes. `seed` must be a 32-bit
 * integer: numpy's RandomState refuses larger ones.
 */
export function makeDatasketchFamily(k: number, seed: U64, scheme: DatasketchScheme): HashFamily {
  if (seed.hi !== 0)
    throw new RangeError(`datasketch seeds are 32-bit (numpy.random.RandomState): got one of 2^32 or more`);
  const gen = new MersenneTwister(seed.lo);
  const a = new Uint32Array(2 * k);
  const b = new Uint32Array(2 * k);
  if (scheme === 'datasketch-legacy') {
    for (let i = 0; i < k; i++) {
      const ai = boundedUint64(gen, { hi: 0, lo: 1 }, { hi: P.hi, lo: P.lo - 2 }); // randint(1, P): [1, P − 1]
      const bi = boundedUint64(gen, ZERO, { hi: P.hi, lo: P.lo - 1 }); // randint(0, P): [0, P − 1]
      a.set([ai.lo, ai.hi], 2 * i);
      b.set([bi.lo, bi.hi], 2 * i);
    }
  } else if (scheme === 'datasketch-affine32') {
    for (let i = 0; i < k; i++) a[2 * i] = (boundedUint32(gen, 0, 0x7fffffff) * 2 + 1) >>> 0;
    for (let i = 0; i < k; i++) b[2 * i] = boundedUint32(gen, 0, 0xffffffff);
  } else {
    for (let i = 0; i < k; i++) {
      const half = boundedUint64(gen, ZERO, { hi: 0x7fffffff, lo: 0xffffffff });
      // ·2 + 1, wrapping at 2^64 (half < 2^63, so nothing is lost)
      a.set([((half.lo << 1) | 1) >>> 0, ((half.hi << 1) | (half.lo >>> 31)) >>> 0], 2 * i);
    }
    for (let i = 0; i < k; i++) {
      const bi = boundedUint64(gen, ZERO, { hi: 0xffffffff, lo: 0xffffffff });
      b.set([bi.lo, bi.hi], 2 * i);
    }
  }
  return { k, seed, a, b, scheme };
}
