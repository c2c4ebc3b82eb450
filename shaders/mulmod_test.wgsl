// Test kernel: mul_add_mod_p (mersenne61.wgsl, prepended) over a buffer of
// operand triples, so tests and `gpudedup doctor` can compare the GPU's
// multiply-mod with the BigInt reference and the CPU, operand by operand.

override WORKGROUP_SIZE: u32 = 64u;

struct Params {
  count: u32,
  groups_x: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// 3·count values (lo, hi): a, x, b of each case in turn.
@group(0) @binding(1) var<storage, read> operands: array<vec2u>;
// count results (lo, hi).
@group(0) @binding(2) var<storage, read_write> results: array<vec2u>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn mul_add_mod_p_each(
  @builtin(workgroup_id) group: vec3u,
  @builtin(local_invocation_index) lane: u32,
) {
  let i = (group.y * params.groups_x + group.x) * WORKGROUP_SIZE + lane;
  if (i >= params.count) {
    return;
  }
  results[i] = mul_add_mod_p(operands[3u * i], operands[3u * i + 1u], operands[3u * i + 2u]);
}
