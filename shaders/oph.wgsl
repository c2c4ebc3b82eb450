// One-permutation hashing, the bin minima (src/signatures/oph.ts specifies it):
// for every segment (a run of one document's shingles) and bin j < K, the
// minimum over the segment's shingles x with bin(h(x)) = j of
//   h(x) = ((a_0·x) mod P + b_0) mod P         (mersenne61.wgsl, prepended)
//   bin(h) = floor(top·K / 2^32), top = h >> 29 (its top 32 of 61 bits)
//
// Design, and why:
// - One invocation per segment, one hash per shingle: the point of OPH is
//   O(shingles) hashing instead of classic's O(shingles·K). Each invocation
//   owns its segment's K output pairs, so its read-modify-write minimum needs
//   no atomics (WGSL has no 64-bit ones).
// - Segments are cut by the host (plan.ts) as for minhash.wgsl and their
//   minima combined there (min is associative); the host then densifies the
//   empty bins of each whole document (oph.ts), which needs all of its bins.
// - Same bindings as minhash.wgsl; coefficients holds one vec4u: (a_0, b_0).

override WORKGROUP_SIZE: u32 = 64u;
override K: u32 = 1u;

struct Params {
  segments: u32,
  groups_x: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> coefficients: array<vec4u>;
@group(0) @binding(2) var<storage, read> shingles: array<vec2u>;
@group(0) @binding(3) var<storage, read> segment_starts: array<u32>;
// segments·K bin minima, (lo, hi); all-ones for a bin no shingle fell in.
@group(0) @binding(4) var<storage, read_write> minima: array<vec2u>;

fn oph_bin(h: vec2u) -> u32 {
  let top = (h.y << 3u) | (h.x >> 29u);
  return mul_wide(top, K).y;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn oph_segments(
  @builtin(workgroup_id) group: vec3u,
  @builtin(local_invocation_index) lane: u32,
) {
  let segment = (group.y * params.groups_x + group.x) * WORKGROUP_SIZE + lane;
  if (segment >= params.segments) {
    return;
  }
  let row = segment * K;
  for (var j = 0u; j < K; j++) {
    minima[row + j] = vec2u(0xffffffffu, 0xffffffffu);
  }
  let a = coefficients[0].xy;
  let b = coefficients[0].zw;
  let end = segment_starts[segment + 1u];
  for (var s = segment_starts[segment]; s < end; s++) {
    let h = mul_add_mod_p(a, shingles[s], b);
    let at = row + oph_bin(h);
    let best = minima[at];
    if (h.y < best.y || (h.y == best.y && h.x < best.x)) {
      minima[at] = h;
    }
  }
}
