/**
 * 64-bit unsigned integers as two 32-bit lanes, for the parts of the hash family
 * that are not on the hot path (splitmix64, seeds, parameter derivation).
 *
 * JavaScript numbers hold integers exactly only up to 2^53, and BigInt is far too
 * slow for hashing, so every 64-bit value is `{ hi, lo }` with both lanes in
 * [0, 2^32). All operations wrap modulo 2^64, like `uint64_t` in C.
 */

export interface U64 {
  readonly hi: number;
  readonly lo: number;
}

const TWO_32 = 4294967296;

export function u64(hi: number, lo: number): U64 {
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

/** Full 32×32 → 64-bit product, from 16-bit halves so every partial product is exact. */
export function mul32Wide(u: number, v: number): U64 {
  const u0 = u & 0xffff;
  const u1 = u >>> 16;
  const v0 = v & 0xffff;
  const v1 = v >>> 16;
  const mid = u0 * v1 + u1 * v0; // < 2^33, exact in a double
  const low = u0 * v0 + (mid % 65536) * 65536; // < 2^33
  const lo = low >>> 0;
  const hi = u1 * v1 + Math.floor(mid / 65536) + (low - lo) / TWO_32;
  return { hi: hi >>> 0, lo };
}

export function add64(a: U64, b: U64): U64 {
  const lo = a.lo + b.lo;
  const carry = lo >= TWO_32 ? 1 : 0;
  return { hi: (a.hi + b.hi + carry) >>> 0, lo: lo >>> 0 };
}

export function sub64(a: U64, b: U64): U64 {
  const borrow = a.lo < b.lo ? 1 : 0;
  return { hi: (a.hi - b.hi - borrow) >>> 0, lo: (a.lo - b.lo) >>> 0 };
}

/** Low 64 bits of a·b. */
export function mul64(a: U64, b: U64): U64 {
  const low = mul32Wide(a.lo, b.lo);
  const cross = (Math.imul(a.hi, b.lo) + Math.imul(a.lo, b.hi)) >>> 0;
  return { hi: (low.hi + cross) >>> 0, lo: low.lo };
}

export function xor64(a: U64, b: U64): U64 {
  return { hi: (a.hi ^ b.hi) >>> 0, lo: (a.lo ^ b.lo) >>> 0 };
}

/** a >> s for 0 < s < 32 (all that splitmix64 needs). */
export function shr64(a: U64, s: number): U64 {
  return { hi: a.hi >>> s, lo: ((a.lo >>> s) | (a.hi << (32 - s))) >>> 0 };
}

export function lessThan64(a: U64, b: U64): boolean {
  return a.hi < b.hi || (a.hi === b.hi && a.lo < b.lo);
}

/** Lower-case hex with `0x` and 16 digits, the form used in specs and sidecars. */
export function toHex64(a: U64): string {
  return '0x' + a.hi.toString(16).padStart(8, '0') + a.lo.toString(16).padStart(8, '0');
}

/** Decimal string of a 64-bit value (long division by 10 on 16-bit limbs). */
export function toDecimal64(a: U64): string {
  const limbs = [a.hi >>> 16, a.hi & 0xffff, a.lo >>> 16, a.lo & 0xffff];
  let digits = '';
  while (limbs.some((l) => l !== 0)) {
    let rem = 0;
    for (let i = 0; i < limbs.length; i++) {
      const cur = rem * 65536 + limbs[i];
      limbs[i] = Math.floor(cur / 10);
      rem = cur % 10;
    }
    digits = String(rem) + digits;
  }
  return digits === '' ? '0' : digits;
}

/**
 * Parses a 64-bit unsigned integer written in decimal or `0x` hex.
 * Throws on anything else, including values of 2^64 and above.
 */
export function parseU64(text: string): U64 {
  const s = text.trim().toLowerCase();
  const hex = s.startsWith('0x');
  const digits = hex ? s.slice(2) : s;
  const valid = hex ? /^[0-9a-f]{1,16}$/ : /^[0-9]{1,20}$/;
  if (!valid.test(digits)) throw new RangeError(`not a 64-bit unsigned integer: ${JSON.stringify(text)}`);
  if (hex) {
    const padded = digits.padStart(16, '0');
    return { hi: parseInt(padded.slice(0, 8), 16), lo: parseInt(padded.slice(8), 16) };
  }
  let value: U64 = { hi: 0, lo: 0 };
  const ten: U64 = { hi: 0, lo: 10 };
  for (const ch of digits) {
    const next = add64(mul64(value, ten), { hi: 0, lo: ch.charCodeAt(0) - 48 });
    // Multiplying by 10 overflowed if the result divided back is smaller than before.
    if (value.hi > 0x19999999 || lessThan64(next, value)) {
      throw new RangeError(`not a 64-bit unsigned integer (too large): ${JSON.stringify(text)}`);
    }
    value = next;
  }
  return value;
}
