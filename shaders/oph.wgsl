// One-permutation hashing (src/signatures/oph.ts specifies it, step for step):
// for every segment (a run of one document's shingles) and bin j < K, the
// minimum over the segment's shingles x with bin(h(x)) = j of
//   h(x) = ((a_0·x) mod P + b_0) mod P         (mersenne61.wgsl, prepended)
//   bin(h) = floor(top·K / 2^32), top = h >> 29 (its top 32 of 61 bits)
// then, for a segment that is its whole document, optimal densification:
// empty bin j takes the value of the first originally filled bin among
//   probe(j, t) = floor(fmix32(fmix32(c ^ j) + t·0x9e3779b9)·K / 2^32), t = 0, 1, …
//
// Design, and why:
// - One invocation per segment, one hash per shingle: the point of OPH is
//   O(shingles) hashing instead of classic's O(shingles·K). Each invocation
//   owns its segment's K output pairs, so its read-modify-write minimum needs
//   no atomics (WGSL has no 64-bit ones).
// - Segments are cut by the host (plan.ts) as for minhash.wgsl and their
//   minima combined there (min is associative). Densifying needs all of a
//   document's bins, so a document cut into several segments is densified by
//   the host after combining (oph.ts densify, the same steps); segment_whole
//   says which segments are whole documents.
// - While densifying, a copied value is marked by bit 31 of its hi word (real
//   values have hi < 2^29, empty bins are all-ones) so that only originally
//   filled bins donate; the marks are cleared at the end. No private arrays.
// - Bindings 0–4 as in minhash.wgsl; coefficients holds (a_0, b_0) and then
//   (c, 0, 0, 0), c the probe key.

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
// 1 if the segment is its document's every shingle (densify here), else 0.
@group(0) @binding(5) var<storage, read> segment_whole: array<u32>;

const EMPTY: u32 = 0xffffffffu;
const COPIED: u32 = 0x80000000u;
const PROBE_STEP: u32 = 0x9e3779b9u;

// MurmurHash3's 32-bit finalizer, as src/math/murmur3.ts fmix32.
fn fmix32(x: u32) -> u32 {
  var h = x;
  h ^= h >> 16u;
  h *= 0x85ebca6bu;
  h ^= h >> 13u;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16u);
}

// Optimal densification of row `row` (K bins), in place.
fn densify(row: u32) {
  var filled = 0u;
  for (var j = 0u; j < K; j++) {
    filled += select(0u, 1u, minima[row + j].y != EMPTY);
  }
  if (filled == 0u || filled == K) {
    return;
  }
  let c = coefficients[1].x;
  for (var j = 0u; j < K; j++) {
    if (minima[row + j].y != EMPTY) {
      continue;
    }
    let base = fmix32(c ^ j);
    var t = 0u;
    loop {
      let donor = minima[row + mul_wide(fmix32(base + t * PROBE_STEP), K).y];
      // A donor is an original value: neither empty nor copied (hi < 2^29).
      if (donor.y < COPIED) {
        minima[row + j] = vec2u(donor.x, donor.y | COPIED);
        break;
      }
      t++;
    }
  }
  for (var j = 0u; j < K; j++) {
    minima[row + j].y &= ~COPIED;
  }
}

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
  if (segment_whole[segment] == 1u) {
    densify(row);
  }
}
