/**
 * SHA-1 (FIPS 180-4) of byte windows in TypeScript: the reference for the
 * wasm shingle kernel (wasm/shingle.wat, flag bit 2) and its fallback where WebAssembly is missing.
 * Each window's value is datasketch's sha1_hash32 (the digest's first 4 bytes
 * read little-endian) or, `wide`, sha1_hash64 (the first 8), as a (lo, hi) pair.
 */

const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];
const byteSwap = (x: number): number => ((x >>> 24) | ((x >>> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24)) >>> 0;

/** The five state words of SHA-1 of bytes[start, end). */
export function sha1Words(bytes: Uint8Array, start: number, end: number): Uint32Array {
  const length = end - start;
  const blocks = Math.floor((length + 8) / 64) + 1;
  const padded = new Uint8Array(blocks * 64);
  padded.set(bytes.subarray(start, end));
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length * 8) >>> 0);
  const h = Uint32Array.of(0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0);
  const w = new Uint32Array(80);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(64 * block + 4 * t);
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16];
      w[t] = (x << 1) | (x >>> 31);
    }
    let [a, b, c, d, e] = h;
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? d ^ (b & (c ^ d)) : t < 40 || t >= 60 ? b ^ c ^ d : (b & c) | (d & (b | c));
      const next = (((a << 5) | (a >>> 27)) + f + e + K[Math.floor(t / 20)] + w[t]) >>> 0;
      e = d;
      d = c;
      c = ((b << 30) | (b >>> 2)) >>> 0;
      b = a;
      a = next;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
  }
  return h;
}

/** sha1_hash32 / sha1_hash64 of each (start, end) window: (lo, hi) pairs, hi = 0 unless wide. */
export function sha1WindowsReference(bytes: Uint8Array, windows: Uint32Array, wide: boolean): Uint32Array {
  const out = new Uint32Array(windows.length);
  for (let i = 0; i < windows.length; i += 2) {
    const h = sha1Words(bytes, windows[i], windows[i + 1]);
    out[i] = byteSwap(h[0]);
    out[i + 1] = wide ? byteSwap(h[1]) : 0;
  }
  return out;
}
