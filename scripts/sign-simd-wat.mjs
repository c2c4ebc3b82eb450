// The WebAssembly SIMD signing kernel's text (signSimd.wat), generated: its body is the same few lines
// written out for each pair of vector slots and each scalar slot of a group, for two shingles at a time,
// and the text format has no macros. scripts/build-wasm.mjs assembles it like the .wat files beside
// src/signatures/wasm/signKernel.ts (and writes it to signSimd.generated.wat there, for reading and
// for `perf annotate`); signKernel.ts writes the coefficients in the layout below.
//
// MinHash signing: a group of 16 hash slots per pass over a document's shingles, 12 in six v128 (two
// slots per i64x2) and 4 in scalar i64 beside them, so that the vector and the integer units both work
// (on x86-64 and arm64 they are separate).
//
// h_i(x) = ((a_i·x) mod P + b_i) mod P, P = 2^61 − 1, for a, x, b < 2^61.
// Split at bit 31: a = aH·2^31 + aL and x = xH·2^31 + xL (aL, xL < 2^31; aH, xH < 2^30), so
//   a·x = p00 + mid·2^31 + p11·2^62,  p00 = aL·xL (< 2^62), p11 = aH·xH (< 2^60), mid = aL·xH + aH·xL (< 2^62),
// and mid comes from one product (Karatsuba): mid = S·T − p00 − p11 with S = aL + aH, T = xL + xH (each < 2^32,
// so S·T < 2^64 is exact in 64 bits). 2^61 ≡ 1 and 2^62 ≡ 2 (mod P), so with B = b + 1 (≤ P):
//   a·x + b + 1 ≡ t = p00 + (mid >> 30) + ((mid & (2^30 − 1)) << 31) + 2·p11 + B
// with p00 < 2^62 − 2^32, mid >> 30 < 2^32, the third term < 2^61, 2·p11 < 2^61, B ≤ P: t < 5·2^61 (< 2^64,
// unsigned: every shift and mask below is). One fold, f(t) = (t & P) + (t >> 61) ∈ [1, 2^61 + 3] (t ≥ 1,
// t >> 61 ≤ 4), is h + 1 where f(t) ≤ P; where f(t) ≥ 2^61 (about once in 2^59 hashes) h + 1 is f(t) − P.
// The kernel keeps r = f(t) mod 2^61 = (t + (t >> 61)) & P (t + 4 < 2^64: nothing carries out), which is
// h + 1 in the first case and h (≤ 3) in the second. Minima are taken over r and 1 is subtracted on store:
// a slot's minimum is right unless it came from the second case, and then its r is ≤ 3; so a document
// where some minimum r is below 4 goes to the `redo` list, whose length the kernel returns, and the caller
// signs it again exactly (signKernel.ts, by the scalar kernel). In the vector slots the minimum is
// f64x2.pmin: r ∈ [0, P] read as a double is positive or zero and finite (a subnormal below 2^52), and such
// doubles order as their bits do; pmin is a compare and select, so the bits it keeps are exact (wasm never
// flushes subnormals).
//
// Two shingles per iteration, x1 at p and x2 at p + 8 (at p again for the last of an odd count: a minimum
// taken twice is the same): each pair's coefficients are loaded once for both, the two r are reduced by one
// pmin before the one read and write of the minimum, and the loop's own work is shared. The scalar slots
// take x1 and x2 one after the other (each with its own read and write of the minimum), spread between the
// vector pairs in the text: with both shingles' (xL, xH, xT) and a slot's temporaries live at once, V8 ran
// out of integer registers and spilled, and with the scalar slots all after the vector pairs the two kinds of
// unit overlapped less. The group's minima live in the scratch row (`so`), read and written once a slot pair
// per iteration, not in locals: V8 spilled v128 minima kept in locals (16 xmm registers). On the 2-core AMD
// EPYC dev machine (Node 20), the kernel alone (k = 128, random shingles) took 0.91 ns a hash against 1.10 for
// the kernel that took one shingle at a time with the scalar slots after the vector pairs (0.97 with them spread
// out, one shingle at a time); 8 vector pairs and no scalar slot (1.03), or 5 + 6 (1.04), were slower; 32-slot
// groups (12 + 8) took 0.87, not taken: k would be padded to a multiple of 32, and the module would pass 4 KiB
// (7.5 KiB), past which browsers do not compile it synchronously on a page's main thread (this one: 3,986 bytes).
//
// Products come from i64x2.extmul_{low,high}_i32x4_u. For slots (s, t) of pair i the caller stores
// U_i = i32x4 [aL_s, aL_t, aH_s, aH_t] and B_i = i64x2 [b_s + 1, b_t + 1]; pairs 2j and 2j + 1 share
// S_j = i32x4 [S_s, S_t, S_s', S_t'] (pair 2j's in the low half). Per shingle the kernel builds
// V = [xL, xL, xH, xH] and T = [T, T, T, T]:
//   extmul_low(U, V) = p00, extmul_high(U, V) = p11, extmul_{low,high}(S, T) = S·T of pair 2j, 2j + 1.
// Scalar slot j takes aL, aH, S and b + 1 as four u64 and does the same arithmetic in i64.
//
// Layout (byte addresses, chosen by the caller, src/signatures/wasm/signKernel.ts): `fam` holds
// `groups` records of 368 bytes: U_0..U_5 (96), S_0..S_2 (48), B_0..B_5 (96), then slots 12..15's
// aL, aH, S, b + 1 (4·32); group g covers slots 16g..16g + 15, k padded to a multiple of 16.
// `sh` the shingles (u64 each, < P), `off` docs + 1 u32 offsets counted in shingles, `out`
// docs·k u64 slots, `scratch` groups·128 bytes for one padded row, `redo` room for docs u32. An empty
// document gets every slot all-ones.

const PAIRS = 6;
const SCALARS = 4;
const S_AT = 16 * PAIRS;
const B_AT = S_AT + 8 * PAIRS;
const SCALAR_AT = B_AT + 16 * PAIRS;
const RECORD = SCALAR_AT + 32 * SCALARS;
const ROW = 8 * (2 * PAIRS + SCALARS);
const P = '0x1fffffffffffffff';
const PV = `(v128.const i64x2 ${P} ${P})`;
const M30V = '(v128.const i64x2 0x3fffffff 0x3fffffff)';

/** r (h + 1, or h where the fold passed P) of vector pair `i` for shingle `j` (1 or 2), into $r{j}. */
function vectorHash(i, j) {
  const half = i % 2 === 0 ? 'low' : 'high';
  return `
                (local.set $p00 (i64x2.extmul_low_i32x4_u (local.get $u) (local.get $V${j})))
                (local.set $p11 (i64x2.extmul_high_i32x4_u (local.get $u) (local.get $V${j})))
                (local.set $mid (i64x2.sub (i64x2.sub (i64x2.extmul_${half}_i32x4_u (local.get $s) (local.get $T${j})) (local.get $p00)) (local.get $p11)))
                (local.set $t (i64x2.add (i64x2.add (i64x2.add (local.get $p00) (i64x2.shr_u (local.get $mid) (i32.const 30)))
                                                    (i64x2.shl (v128.and (local.get $mid) ${M30V}) (i32.const 31)))
                                         (i64x2.add (i64x2.add (local.get $p11) (local.get $p11)) (local.get $b))))
                (local.set $r${j} (v128.and (i64x2.add (local.get $t) (i64x2.shr_u (local.get $t) (i32.const 61))) ${PV}))`;
}

/** Vector pair `i` (slots 2i, 2i + 1) for both shingles: one read and write of its minima. */
function vectorPair(i) {
  return `
                ;; pair ${i}: slots ${2 * i}, ${2 * i + 1}
                (local.set $u (v128.load offset=${16 * i} (local.get $fam)))
                (local.set $s (v128.load offset=${S_AT + 16 * (i >> 1)} (local.get $fam)))
                (local.set $b (v128.load offset=${B_AT + 16 * i} (local.get $fam)))${vectorHash(i, 1)}${vectorHash(i, 2)}
                (v128.store offset=${16 * i} (local.get $so)
                  (f64x2.pmin (v128.load offset=${16 * i} (local.get $so)) (f64x2.pmin (local.get $r1) (local.get $r2))))`;
}

/** Scalar slot 12 + `j` for shingle `w` (1 or 2). */
function scalarSlot(j, w) {
  const at = SCALAR_AT + 32 * j;
  const row = 16 * PAIRS + 8 * j;
  return `
                ;; scalar slot ${2 * PAIRS + j}, shingle ${w}
                (local.set $q00 (i64.mul (i64.load offset=${at} (local.get $fam)) (local.get $xL${w})))
                (local.set $q11 (i64.mul (i64.load offset=${at + 8} (local.get $fam)) (local.get $xH${w})))
                (local.set $qm (i64.sub (i64.sub (i64.mul (i64.load offset=${at + 16} (local.get $fam)) (local.get $xT${w})) (local.get $q00)) (local.get $q11)))
                (local.set $qt (i64.add (i64.add (i64.add (local.get $q00) (i64.shr_u (local.get $qm) (i64.const 30)))
                                                 (i64.shl (i64.and (local.get $qm) (i64.const 0x3fffffff)) (i64.const 31)))
                                        (i64.add (i64.add (local.get $q11) (local.get $q11)) (i64.load offset=${at + 24} (local.get $fam)))))
                (local.set $qs (i64.and (i64.add (local.get $qt) (i64.shr_u (local.get $qt) (i64.const 61))) (i64.const ${P})))
                (local.set $qm (i64.load offset=${row} (local.get $so)))
                (i64.store offset=${row} (local.get $so) (select (local.get $qs) (local.get $qm) (i64.lt_u (local.get $qs) (local.get $qm))))`;
}

/** x{j} read at `address`, its halves and their sum (scalar), V{j} and T{j} (vector). */
function shingle(j, address) {
  return `
                (local.set $x${j} (i64.load (local.get ${address})))
                (local.set $xL${j} (i64.and (local.get $x${j}) (i64.const 0x7fffffff)))
                (local.set $xH${j} (i64.shr_u (local.get $x${j}) (i64.const 31)))
                (local.set $xT${j} (i64.add (local.get $xL${j}) (local.get $xH${j})))
                ;; V from [xL, xL] and [xH, xH] (low words), T as four copies of xT (< 2^32)
                (local.set $X (i64x2.splat (local.get $x${j})))
                (local.set $V${j} (i8x16.shuffle 0 1 2 3 0 1 2 3 16 17 18 19 16 17 18 19
                  (v128.and (local.get $X) (v128.const i64x2 0x7fffffff 0x7fffffff)) (i64x2.shr_u (local.get $X) (i32.const 31))))
                (local.set $T${j} (i32x4.splat (i32.wrap_i64 (local.get $xT${j}))))`;
}

/** The loop body: both shingles, the vector pairs with the scalar slots' eight steps spread between them. */
function iteration() {
  const scalars = [];
  for (let j = 0; j < SCALARS; j++) scalars.push(scalarSlot(j, 1), scalarSlot(j, 2));
  let text = shingle(1, '$p') + shingle(2, '$q');
  for (let i = 0, next = 0; i < PAIRS; i++) {
    text += vectorPair(i);
    for (const end = Math.round(((i + 1) * scalars.length) / PAIRS); next < end; next++) text += scalars[next];
  }
  return text;
}

const each = (count, line) => Array.from({ length: count }, (_, i) => line(i)).join('\n');
const orTree = (op, terms) =>
  terms.length === 1
    ? terms[0]
    : `(${op} ${orTree(op, terms.slice(0, terms.length >> 1))} ${orTree(op, terms.slice(terms.length >> 1))})`;
const vectorAt = (i) => `(v128.load offset=${16 * i} (local.get $so))`;
const scalarAt = (j) => `(i64.load offset=${16 * PAIRS + 8 * j} (local.get $so))`;

export function signSimdWat() {
  const vectorLow = orTree(
    'v128.or',
    Array.from({ length: PAIRS }, (_, i) => `(i64x2.gt_s (v128.const i64x2 4 4) ${vectorAt(i)})`),
  );
  const scalarLow = orTree(
    'i64.or',
    Array.from({ length: SCALARS }, (_, j) => `(i64.extend_i32_u (i64.lt_u ${scalarAt(j)} (i64.const 4)))`),
  );
  return `;; Generated by scripts/sign-simd-wat.mjs (read its comments): do not edit, not committed.
(module
  (memory (export "memory") 1)
  (func (export "sign")
    (param $fam0 i32) (param $groups i32) (param $k i32)
    (param $sh i32) (param $off i32) (param $docs i32) (param $out i32) (param $scratch i32) (param $redo i32)
    (result i32)
    (local $d i32) (local $g i32) (local $p i32) (local $q i32) (local $start i32) (local $end i32) (local $last i32)
    (local $row i32) (local $fam i32) (local $so i32)
    (local $x1 i64) (local $xL1 i64) (local $xH1 i64) (local $xT1 i64) (local $x2 i64) (local $xL2 i64) (local $xH2 i64) (local $xT2 i64)
    (local $q00 i64) (local $q11 i64) (local $qm i64) (local $qt i64) (local $qs i64)
    (local $count i32) (local $low v128) (local $qlow i64)
    (local $X v128) (local $V1 v128) (local $T1 v128) (local $V2 v128) (local $T2 v128) (local $u v128) (local $s v128) (local $b v128)
    (local $p00 v128) (local $p11 v128) (local $mid v128) (local $t v128) (local $r1 v128) (local $r2 v128)
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $row (i32.add (local.get $out) (i32.mul (local.get $d) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $start (i32.add (local.get $sh) (i32.shl (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (local.set $end (i32.add (local.get $sh) (i32.shl (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (if (i32.eq (local.get $start) (local.get $end))
          (then (memory.fill (local.get $row) (i32.const 0xff) (i32.shl (local.get $k) (i32.const 3))))
          (else
            (local.set $last (i32.sub (local.get $end) (i32.const 8)))
            ;; lanes (vector) and a word (scalar) that are non-zero where some minimum r is below 4
            (local.set $low (v128.const i64x2 0 0))
            (local.set $qlow (i64.const 0))
            (local.set $g (i32.const 0))
            (local.set $fam (local.get $fam0))
            (local.set $so (local.get $scratch))
            (loop $group
${each(PAIRS, (i) => `              (v128.store offset=${16 * i} (local.get $so) ${PV})`)}
${each(SCALARS, (j) => `              (i64.store offset=${16 * PAIRS + 8 * j} (local.get $so) (i64.const ${P}))`)}
              (local.set $p (local.get $start))
              (loop $shingle
                (local.set $q (select (local.get $p) (i32.add (local.get $p) (i32.const 8)) (i32.ge_u (local.get $p) (local.get $last))))${iteration()}
                (local.set $p (i32.add (local.get $p) (i32.const 16)))
                (br_if $shingle (i32.lt_u (local.get $p) (local.get $end))))
              (local.set $low (v128.or (local.get $low) ${vectorLow}))
              (local.set $qlow (i64.or (local.get $qlow) ${scalarLow}))
${each(PAIRS, (i) => `              (v128.store offset=${16 * i} (local.get $so) (i64x2.sub ${vectorAt(i)} (v128.const i64x2 1 1)))`)}
${each(SCALARS, (j) => `              (i64.store offset=${16 * PAIRS + 8 * j} (local.get $so) (i64.sub ${scalarAt(j)} (i64.const 1)))`)}
              (local.set $fam (i32.add (local.get $fam) (i32.const ${RECORD})))
              (local.set $so (i32.add (local.get $so) (i32.const ${ROW})))
              (local.set $g (i32.add (local.get $g) (i32.const 1)))
              (br_if $group (i32.lt_u (local.get $g) (local.get $groups))))
            (memory.copy (local.get $row) (local.get $scratch) (i32.shl (local.get $k) (i32.const 3)))
            ;; some minimum r below 4 (it may be h, not h + 1): the caller signs this row again
            (if (i64.ne (i64.or (local.get $qlow) (i64.or (i64x2.extract_lane 0 (local.get $low)) (i64x2.extract_lane 1 (local.get $low))))
                        (i64.const 0))
              (then
                (i32.store (i32.add (local.get $redo) (i32.shl (local.get $count) (i32.const 2))) (local.get $d))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc)))
    (local.get $count))
)
`;
}
