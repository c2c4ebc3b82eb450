// Arithmetic modulo the Mersenne prime P = 2^61 − 1 on 32-bit lanes.
//
// This is the WGSL mirror of src/math/mersenne61.ts, THE multiply-mod
// algorithm of gpudedup. Each numbered step below is the step of the same
// number there, computed the same way; change one, change the other, or the
// CPU and WebGPU signatures stop being identical bit for bit.
//
// A value v < 2^61 is a vec2u (lo, hi) with v = hi·2^32 + lo and hi < 2^29,
// the word order of the signature buffers (little-endian uint64).
//
// No entry point: the loader prepends this file to each kernel file
// (minhash.wgsl, mulmod_test.wgsl), since WGSL has no #include.

const P_HI: u32 = 0x1fffffffu;
const P_LO: u32 = 0xffffffffu;

// 1 if the 32-bit sum `sum = addend + other` wrapped, else 0.
fn carry_of(sum: u32, addend: u32) -> u32 {
  return select(0u, 1u, sum < addend);
}

// Step 1 for one pair of words: the full 32×32 → 64-bit product (lo, hi)
// from 16-bit limbs. The TypeScript holds mid = u0·v1 + u1·v0 (< 2^33) in a
// double; here mid wraps at 2^32 and mid_carry is its bit 32.
fn mul_wide(u: u32, v: u32) -> vec2u {
  let u0 = u & 0xffffu;
  let u1 = u >> 16u;
  let v0 = v & 0xffffu;
  let v1 = v >> 16u;
  let mid_first = u0 * v1;
  let mid = mid_first + u1 * v0;
  let mid_carry = carry_of(mid, mid_first);
  // low = u0·v0 + (mid mod 2^16)·2^16
  let low_first = u0 * v0;
  let low = low_first + (mid << 16u);
  // hi = u1·v1 + floor(mid / 2^16) + carry out of low
  let mid_high = (mid >> 16u) | (mid_carry << 16u);
  let hi = u1 * v1 + mid_high + carry_of(low, low_first);
  return vec2u(low, hi);
}

// Steps 3 and 4 end the same way: v < 2P becomes v mod P. Subtracting P is
// adding 1 and dropping bit 61, as in the TypeScript.
fn reduce_once(v: vec2u) -> vec2u {
  if (v.y > P_HI || (v.y == P_HI && v.x == P_LO)) {
    let lo = v.x + 1u;
    let hi = (v.y + carry_of(lo, v.x)) & P_HI;
    return vec2u(lo, hi);
  }
  return v;
}

// ((a·x) mod P + b) mod P for a, x, b < 2^61, b < P; each as (lo, hi).
fn mul_add_mod_p(a: vec2u, x: vec2u, b: vec2u) -> vec2u {
  // Step 1: four partial products pXY = (a word X)·(x word Y), X, Y in {0 = lo, 1 = hi}.
  let p00 = mul_wide(a.x, x.x);
  let p01 = mul_wide(a.x, x.y);
  let p10 = mul_wide(a.y, x.x);
  let p11 = mul_wide(a.y, x.y);

  // Step 2: the 128-bit product w3:w2:w1:w0, column by column with carries.
  let w0 = p00.x;
  let s1_first = p00.y + p01.x;
  let w1 = s1_first + p10.x;
  let c1 = carry_of(s1_first, p00.y) + carry_of(w1, s1_first);
  let s2_first = p11.x + p01.y;
  let s2_second = s2_first + p10.y;
  let w2 = s2_second + c1;
  let c2 = carry_of(s2_first, p11.x) + carry_of(s2_second, s2_first) + carry_of(w2, s2_second);
  let w3 = p11.y + c2; // < 2^26: the product is < 2^122

  // Step 3: fold at bit 61. L = low 61 bits, H = bits 61..121; L + H < 2P.
  let l_hi = w1 & P_HI;
  let h_lo = (w1 >> 29u) | (w2 << 3u);
  let h_hi = (w2 >> 29u) | (w3 << 3u);
  let sum_lo = w0 + h_lo;
  let sum_hi = l_hi + h_hi + carry_of(sum_lo, w0);
  let product = reduce_once(vec2u(sum_lo, sum_hi));

  // Step 4: + b, reduced the same way.
  let r_lo = product.x + b.x;
  let r_hi = product.y + b.y + carry_of(r_lo, product.x);
  return reduce_once(vec2u(r_lo, r_hi));
}
