/**
 * MurmurHash3_x86_128 (Austin Appleby's public-domain SMHasher reference),
 * seed 0: a fast non-cryptographic 128-bit hash built from 32-bit multiplies,
 * so plain `Math.imul` computes it exactly in any JavaScript engine. The
 * exact pre-pass keys distinct texts by it; a collision between two different
 * texts of a corpus (probability ~n²/2^129) would merge them.
 */

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

/** MurmurHash3's 32-bit finalizer (a bijection of 32-bit words); also OPH's probing mix (src/signatures/oph.ts). */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The 128-bit hash of `bytes[0, length)` as four 32-bit words (h1, h2, h3, h4), the reference's little-endian output
 * order.
 */
export function murmur3x86_128(
  bytes: Uint8Array,
  length: number = bytes.length,
  out: Uint32Array = new Uint32Array(4),
): Uint32Array {
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  const blocks = length - (length & 15);
  const word = (i: number): number => bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
  for (let i = 0; i < blocks; i += 16) {
    let k1 = word(i);
    let k2 = word(i + 4);
    let k3 = word(i + 8);
    let k4 = word(i + 12);
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h2 ^= k2;
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    h3 ^= k3;
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    h4 ^= k4;
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  // The tail: up to 15 bytes, gathered into k1..k4 little-endian.
  const tail = [0, 0, 0, 0];
  for (let i = blocks; i < length; i++) tail[(i - blocks) >> 2] |= bytes[i] << (8 * ((i - blocks) & 3));
  const rest = length & 15;
  if (rest > 12) h4 ^= Math.imul(rotl(Math.imul(tail[3], C4), 18), C1);
  if (rest > 8) h3 ^= Math.imul(rotl(Math.imul(tail[2], C3), 17), C4);
  if (rest > 4) h2 ^= Math.imul(rotl(Math.imul(tail[1], C2), 16), C3);
  if (rest > 0) h1 ^= Math.imul(rotl(Math.imul(tail[0], C1), 15), C2);

  h1 ^= length;
  h2 ^= length;
  h3 ^= length;
  h4 ^= length;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix32(h1);
  h2 = fmix32(h2);
  h3 = fmix32(h3);
  h4 = fmix32(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  out[0] = h1;
  out[1] = h2;
  out[2] = h3;
  out[3] = h4;
  return out;
}
