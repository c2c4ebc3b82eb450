// datasketch 2.0.0, scheme affine32: slot i of a shingle hash x is
//   fmix32(x)·a_i + b_i mod 2^32     (u32 arithmetic wraps: that is the mod)
// src/signatures/datasketchSigner.ts is the reference.
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

fn fmix32(x: u32) -> u32 {
  var h = x ^ (x >> 16u);
  h = h * 0x85ebca6bu;
  h = h ^ (h >> 13u);
  h = h * 0xc2b2ae35u;
  return h ^ (h >> 16u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn datasketch_affine32(
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
  var best = 0xffffffffu;
  for (var s = segment_starts[segment]; s < end; s++) {
    best = min(best, fmix32(shingles[s].x) * coefficient.x + coefficient.z);
  }
  minima[index] = vec2u(best, 0u);
}
