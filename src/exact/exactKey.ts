/**
 * The exact pre-pass's key of a normalized text as two signed 64-bit halves,
 * for shard files: MurmurHash3_x86_128 of the UTF-8 (lone surrogates as
 * U+FFFD), the hash ExactDuplicateIndex groups by. Words (h1, h2) make the low
 * half, (h3, h4) the high half.
 */
import { murmur3x86_128 } from '../math/murmur3.js';

const encoder = new TextEncoder();

export function exactKey(normalized: string): [bigint, bigint] {
  const bytes = encoder.encode(normalized);
  const d = murmur3x86_128(bytes, bytes.length);
  return [words64(d[0], d[1]), words64(d[2], d[3])];
}

/** (lo, hi) 32-bit words as one signed 64-bit value, as Parquet INT64 and SQL BIGINT hold it. */
export function words64(lo: number, hi: number): bigint {
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}
