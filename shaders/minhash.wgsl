// MinHash signing: for every segment (a run of one document's shingles) and
// every hash slot i < K, the minimum over the segment's shingles x of
//   h_i(x) = ((a_i·x) mod P + b_i) mod P        (mersenne61.wgsl, prepended)
//
// Design, and why:
// - One invocation per (segment, slot), looping over the segment's shingles.
//   Invocation index = segment·K + slot, so the lanes of a workgroup mostly
//   share one segment: they read the same shingle at the same time (one
//   broadcast load), run the same trip count (no divergence), and each keeps
//   its own a_i, b_i and running minimum in registers. Nothing is shared
//   between invocations, so no atomics and no barriers: WGSL has no 64-bit
//   atomics, and a 64-bit minimum needs them to be combined in place.
// - The host cuts documents into segments of at most a few thousand shingles
//   (src/signatures/webgpu/plan.ts) so that one long document becomes many
//   invocations instead of one slow one, and so a document larger than one
//   upload batch can be split across batches. Each segment writes its own K
//   partial minima; the host takes the minimum over a document's segments.
//   min is associative, so the result does not depend on where cuts fall.
// - Dispatches of more than maxComputeWorkgroupsPerDimension workgroups are
//   folded into 2D; params.groups_x is the width of the fold.

override WORKGROUP_SIZE: u32 = 64u;
override K: u32 = 1u;

struct Params {
  segments: u32,
  groups_x: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Per slot i: (a_i.lo, a_i.hi, b_i.lo, b_i.hi).
@group(0) @binding(1) var<storage, read> coefficients: array<vec4u>;
// The batch's shingles, (lo, hi) each, documents back to back.
@group(0) @binding(2) var<storage, read> shingles: array<vec2u>;
// segments + 1 offsets into `shingles`: segment s is [starts[s], starts[s + 1]).
@group(0) @binding(3) var<storage, read> segment_starts: array<u32>;
// segments·K partial minima, (lo, hi): row s is segment s, in slot order.
@group(0) @binding(4) var<storage, read_write> minima: array<vec2u>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn sign_segments(
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
  let a = coefficient.xy;
  let b = coefficient.zw;
  let end = segment_starts[segment + 1u];
  var best = vec2u(0xffffffffu, 0xffffffffu);
  for (var s = segment_starts[segment]; s < end; s++) {
    let h = mul_add_mod_p(a, shingles[s], b);
    if (h.y < best.y || (h.y == best.y && h.x < best.x)) {
      best = h;
    }
  }
  minima[index] = best;
}
