/**
 * numpy's legacy `numpy.random.RandomState(seed)` for an integer seed, as far
 * as datasketch's `randint` calls need it: the MT19937 Mersenne Twister
 * (Matsumoto and Nishimura's reference `init_genrand`/`genrand_int32`) and
 * numpy's bounded integers with masked rejection sampling (RandomState always
 * masks; only the newer Generator uses Lemire's method).
 *
 * How numpy draws (numpy/random/src/distributions/distributions.c,
 * random_bounded_uint{32,64}_fill): for a range rng = high − low (inclusive),
 * mask = the smallest 2^m − 1 ≥ rng; draw, AND the mask, retry while above rng.
 * A 64-bit dtype whose rng fits 32 bits draws 32-bit words; rng = 2^64 − 1
 * (or 2^32 − 1 for uint32) takes the raw word. A 64-bit word is two 32-bit
 * outputs, the first one the high half.
 */
import type { U64 } from './u64.js';

const N = 624;
const M = 397;

export class MersenneTwister {
  private readonly mt = new Uint32Array(N);
  private index = N;

  /** numpy's `mt19937_seed`: the classic `init_genrand`; seeds are 32-bit, as RandomState requires. */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new RangeError(`a Mersenne Twister seed is an integer in [0, 2^32 − 1], got ${seed}`);
    const mt = this.mt;
    mt[0] = seed;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = Math.imul(1812433253, prev) + i;
    }
  }

  private twist(): void {
    const mt = this.mt;
    for (let i = 0; i < N; i++) {
      const y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7fffffff);
      mt[i] = mt[(i + M) % N] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }

  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    return (y ^ (y >>> 18)) >>> 0;
  }

  /** numpy's `mt19937_next64`: high word first. */
  nextUint64(): U64 {
    const hi = this.nextUint32();
    return { hi, lo: this.nextUint32() };
  }
}

/** Smallest 2^m − 1 ≥ v, for a 32-bit v. */
function mask32(v: number): number {
  let m = v >>> 0;
  m |= m >>> 1;
  m |= m >>> 2;
  m |= m >>> 4;
  m |= m >>> 8;
  m |= m >>> 16;
  return m >>> 0;
}

/** numpy's bounded uint32 (random_bounded_uint32_fill, masked): off + a value in [0, rng]. */
export function boundedUint32(gen: MersenneTwister, off: number, rng: number): number {
  if (rng === 0) return off >>> 0;
  if (rng === 0xffffffff) return (off + gen.nextUint32()) >>> 0;
  const mask = mask32(rng);
  let v: number;
  do v = (gen.nextUint32() & mask) >>> 0;
  while (v > rng);
  return (off + v) >>> 0;
}

/** numpy's bounded uint64 (random_bounded_uint64_fill, masked): off + a value in [0, rng], wrapping at 2^64. */
export function boundedUint64(gen: MersenneTwister, off: U64, rng: U64): U64 {
  let v: U64;
  if (rng.hi === 0) {
    // rng fits 32 bits: numpy draws 32-bit words here.
    v = { hi: 0, lo: boundedUint32(gen, 0, rng.lo) };
  } else if (rng.hi === 0xffffffff && rng.lo === 0xffffffff) {
    v = gen.nextUint64();
  } else {
    const maskHi = mask32(rng.hi);
    do {
      const raw = gen.nextUint64();
      v = { hi: (raw.hi & maskHi) >>> 0, lo: raw.lo };
    } while (v.hi > rng.hi || (v.hi === rng.hi && v.lo > rng.lo));
  }
  const lo = off.lo + v.lo;
  return { hi: (off.hi + v.hi + (lo >= 0x100000000 ? 1 : 0)) >>> 0, lo: lo >>> 0 };
}
