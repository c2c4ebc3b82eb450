// MurmurHash3_x86_128, seed 0 (src/math/murmur3.ts is the reference): four words at out.
@inline function mix(k: u32, c1: u32, r: u32, c2: u32): u32 {
  return rotl<u32>(k * c1, r) * c2;
}

@inline function fmix32(h: u32): u32 {
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  return h ^ (h >> 16);
}

export function murmur3(data: usize, len: i32, out: usize): void {
  const C1: u32 = 0x239b961b, C2: u32 = 0xab0e9789, C3: u32 = 0x38b34ae5, C4: u32 = 0xa1e38b93;
  let h1: u32 = 0, h2: u32 = 0, h3: u32 = 0, h4: u32 = 0;
  const blocks = len & ~15;
  for (let i = 0; i < blocks; i += 16) {
    const p = data + <usize>i;
    h1 ^= mix(load<u32>(p), C1, 15, C2);
    h1 = (rotl<u32>(h1, 19) + h2) * 5 + 0x561ccd1b;
    h2 ^= mix(load<u32>(p, 4), C2, 16, C3);
    h2 = (rotl<u32>(h2, 17) + h3) * 5 + 0x0bcaa747;
    h3 ^= mix(load<u32>(p, 8), C3, 17, C4);
    h3 = (rotl<u32>(h3, 15) + h4) * 5 + 0x96cd1c35;
    h4 ^= mix(load<u32>(p, 12), C4, 18, C1);
    h4 = (rotl<u32>(h4, 13) + h1) * 5 + 0x32ac3b17;
  }
  let t1: u32 = 0, t2: u32 = 0, t3: u32 = 0, t4: u32 = 0;
  for (let i = blocks; i < len; i++) {
    const v = <u32>load<u8>(data + <usize>i) << (<u32>((i - blocks) & 3) << 3);
    const slot = (i - blocks) >> 2;
    if (slot == 0) t1 |= v; else if (slot == 1) t2 |= v; else if (slot == 2) t3 |= v; else t4 |= v;
  }
  const rest = len & 15;
  if (rest > 12) h4 ^= mix(t4, C4, 18, C1);
  if (rest > 8) h3 ^= mix(t3, C3, 17, C4);
  if (rest > 4) h2 ^= mix(t2, C2, 16, C3);
  if (rest > 0) h1 ^= mix(t1, C1, 15, C2);
  const l = <u32>len;
  h1 ^= l; h2 ^= l; h3 ^= l; h4 ^= l;
  h1 += h2 + h3 + h4;
  h2 += h1; h3 += h1; h4 += h1;
  h1 = fmix32(h1); h2 = fmix32(h2); h3 = fmix32(h3); h4 = fmix32(h4);
  h1 += h2 + h3 + h4;
  h2 += h1; h3 += h1; h4 += h1;
  store<u32>(out, h1);
  store<u32>(out, h2, 4);
  store<u32>(out, h3, 8);
  store<u32>(out, h4, 12);
}
