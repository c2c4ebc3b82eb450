// datasketch 2.0.0, scheme affine64: slot i of a shingle hash x is
//   fmix64(x)·a_i + b_i mod 2^64
// on (lo, hi) pairs of u32. src/signatures/datasketchSigner.ts is the reference.
//
// Bindings as minhash.wgsl: one invocation per (segment, slot), K partial minima per
// segment, (lo, hi) each; the host takes the minimum over a document's segments.
// mersenne61.wgsl is prepended (mul_wide, carry_of, reduce_once).

override WORKGROUP_SIZE: u32 = 64u;
override K: u32 = 1u;

struct Params {
  segments: u32,
  groups_x: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Per slot i: (a_i.lo, a_i.hi, b_i.lo, b_i.hi).
@group(0) @binding(1) var<storage, read> coefficients: array<vec4u>;
// The batch's shingle hashes (sha1_hash32: (h, 0); sha1_hash64: (lo, hi)), documents back to back.
@group(0) @binding(2) var<storage, read> shingles: array<vec2u>;
// segments + 1 offsets into `shingles`: segment s is [starts[s], starts[s + 1]).
@group(0) @binding(3) var<storage, read> segment_starts: array<u32>;
// segments·K partial minima, (lo, hi): row s is segment s, in slot order.
@group(0) @binding(4) var<storage, read_write> minima: array<vec2u>;

// The low 64 bits of x·y.
fn mul_low64(x: vec2u, y: vec2u) -> vec2u {
  let low = mul_wide(x.x, y.x);
  return vec2u(low.x, low.y + x.x * y.y + x.y * y.x);
}

fn add64(x: vec2u, y: vec2u) -> vec2u {
  let lo = x.x + y.x;
  return vec2u(lo, x.y + y.y + carry_of(lo, x.x));
}

// x ^ (x >> 33) on (lo, hi): the high word shifted by one into the low word.
fn xorshift33(x: vec2u) -> vec2u {
  return vec2u(x.x ^ (x.y >> 1u), x.y);
}

fn fmix64(x: vec2u) -> vec2u {
  var h = xorshift33(x);
  h = mul_low64(h, vec2u(0xed558ccdu, 0xff51afd7u));
  h = xorshift33(h);
  h = mul_low64(h, vec2u(0x1a85ec53u, 0xc4ceb9feu));
  return xorshift33(h);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn datasketch_affine64(
  @builtin(workgroup_id) group: vec3u,
  @builtin(local_invocation_index) lane: u32,
) {
  let index = (group.y * params.groups_x + group.x) * WORKGROUP_SIZE + lane;
  if (index >= params.segments * K) {
    return;
  }
  let segment = index / K;
  let slot = index - segment * K;
  let coefficient = coefficients[slot];
  let end = segment_starts[segment + 1u];
  var best = vec2u(0xffffffffu, 0xffffffffu);
  for (var s = segment_starts[segment]; s < end; s++) {
    let v = add64(mul_low64(fmix64(shingles[s]), coefficient.xy), coefficient.zw);
    if (v.y < best.y || (v.y == best.y && v.x < best.x)) {
      best = v;
    }
  }
  minima[index] = best;
}
