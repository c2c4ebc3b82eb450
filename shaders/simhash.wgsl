// SimHash fingerprints (src/signatures/simhash.ts), one invocation per document, on
// 32-bit lanes: per element x (lo, hi) the hash h = splitmix64((x + key) mod 2^64),
// and bit i of the fingerprint is 1 when 2·(elements with bit i set) > n. mul_wide
// (the full 32×32 → 64-bit product) comes from mersenne61.wgsl, prepended.

override WORKGROUP_SIZE: u32 = 64u;

struct Params {
  docs: u32,
  groups_x: u32,
  key: vec2u,
}

@group(0) @binding(0) var<uniform> params: Params;
// The elements of every document, (lo, hi) each.
@group(0) @binding(1) var<storage, read> elements: array<vec2u>;
// docs + 1 offsets into `elements`.
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
// One fingerprint (lo, hi) per document.
@group(0) @binding(3) var<storage, read_write> fingerprints: array<vec2u>;

fn add64(a: vec2u, b: vec2u) -> vec2u {
  let lo = a.x + b.x;
  return vec2u(lo, a.y + b.y + carry_of(lo, a.x));
}

// The low 64 bits of a·b.
fn mul64(a: vec2u, b: vec2u) -> vec2u {
  let low = mul_wide(a.x, b.x);
  return vec2u(low.x, low.y + a.y * b.x + a.x * b.y);
}

// z ^ (z >> s) for 0 < s < 32.
fn xor_shift(z: vec2u, s: u32) -> vec2u {
  return vec2u(z.x ^ ((z.x >> s) | (z.y << (32u - s))), z.y ^ (z.y >> s));
}

fn splitmix64(state: vec2u) -> vec2u {
  var z = add64(state, vec2u(0x7f4a7c15u, 0x9e3779b9u));
  z = mul64(xor_shift(z, 30u), vec2u(0x1ce4e5b9u, 0xbf58476du));
  z = mul64(xor_shift(z, 27u), vec2u(0x133111ebu, 0x94d049bbu));
  return xor_shift(z, 31u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn simhash_documents(
  @builtin(workgroup_id) group: vec3u,
  @builtin(local_invocation_index) lane: u32,
) {
  let d = (group.y * params.groups_x + group.x) * WORKGROUP_SIZE + lane;
  if (d >= params.docs) {
    return;
  }
  var ones: array<u32, 64>;
  let first = offsets[d];
  let last = offsets[d + 1u];
  for (var s = first; s < last; s++) {
    let h = splitmix64(add64(elements[s], params.key));
    for (var i = 0u; i < 32u; i++) {
      ones[i] += (h.x >> i) & 1u;
      ones[32u + i] += (h.y >> i) & 1u;
    }
  }
  let n = last - first;
  var f = vec2u(0u, 0u);
  for (var i = 0u; i < 32u; i++) {
    // 2·ones > n, without overflow: ones > n / 2 rounded down.
    f.x |= select(0u, 1u << i, ones[i] > n / 2u);
    f.y |= select(0u, 1u << i, ones[32u + i] > n / 2u);
  }
  fingerprints[d] = f;
}
