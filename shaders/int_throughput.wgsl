// Benchmark kernel (bench/sign-compare.bench.ts): the device's own 32-bit
// integer throughput, to set the signing kernel's speed against. Each
// invocation runs CHAINS independent chains (so a CPU-backed device such as
// lavapipe can overlap them) of x = x·M + ((x >> 15) ^ (x << 7)) + (x & 0xff):
// seven operations per step, one of them a multiply, about the mix of
// mul_add_mod_p (16 multiplies in ~142 operations). Results are
// folded into the output so no step can be optimised away. Standalone: it
// does not use mersenne61.wgsl.

override WORKGROUP_SIZE: u32 = 64u;
override STEPS: u32 = 256u;

const CHAINS: u32 = 8u;

@group(0) @binding(0) var<storage, read_write> sink: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn spin(@builtin(global_invocation_id) id: vec3u) {
  var x: array<u32, CHAINS>;
  for (var c = 0u; c < CHAINS; c++) {
    x[c] = id.x * 0x9e3779b9u + c;
  }
  for (var step = 0u; step < STEPS; step++) {
    for (var c = 0u; c < CHAINS; c++) {
      let v = x[c];
      x[c] = v * 0x85ebca6bu + ((v >> 15u) ^ (v << 7u)) + (v & 0xffu);
    }
  }
  var folded = 0u;
  for (var c = 0u; c < CHAINS; c++) {
    folded ^= x[c];
  }
  sink[id.x] = folded;
}
