/**
 * What a hash family is (hashFamily.ts makes ours, datasketchFamily.ts datasketch's): apart, so neither imports the
 * other back.
 */
import type { U64 } from '../math/u64.js';
import type { SchemeName } from '../options.js';

export interface HashFamily {
  readonly k: number;
  /** Which signature the family's signers compute; classic when absent. */
  readonly scheme?: SchemeName;
  /** oph only: splitmix64(seed + 2) mod 2^32, the key of densification's probes. */
  readonly probeKey?: number;
  readonly seed: U64;
  /** a_i as (lo, hi) pairs: a[2i] = lo, a[2i + 1] = hi. */
  readonly a: Uint32Array;
  /** b_i as (lo, hi) pairs. */
  readonly b: Uint32Array;
}
