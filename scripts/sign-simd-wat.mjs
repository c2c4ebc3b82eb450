// The WebAssembly SIMD signing kernel's text (signSimd.wat), generated: its inner loop is the same few lines
// written out for each of the pairs of slots and shingles a step takes, and the text format has no macros.
// scripts/build-wasm.mjs assembles it like the .wat files beside src/signatures/wasm/signKernel.ts (and
// writes it to signSimd.generated.wat there, for reading and for `perf annotate`); signKernel.ts writes the
// coefficients in the layout below.
//
// MinHash signing: slot i of a document is the minimum over its shingles x of
//   h_i(x) = (a_i·x + b_i) mod P, P = 2^61 − 1, for a, x, b < 2^61.
// Most h_i(x) are far above the slot's minimum so far (a document of n shingles sets a new minimum about
// ln n times a slot), so the kernel first bounds h/P in doubles, two slots per f64x2, and computes h exactly
// (in i64x2, both slots of a pair at once) only where the bound does not show h above the minimum.
//
// The bound. Split x at bit 31: x = xH·2^31 + xL (xH < 2^30, xL < 2^31, both exact as doubles). With
// c = a·2^31 mod P, a·x + b ≡ xH·c + xL·a + b (mod P), so h/P = frac(Y), Y = xH·(c/P) + xL·(a/P) + b/P.
// The kernel computes y = (xH·γ + xL·α) + δ in doubles, γ ≈ c/P, α ≈ a/P, δ ≈ b/P + E (E = 2^-17, written by
// signKernel.ts: each within 2^-52 of its value). The roundings add up to at most 2^-18.6 < E (xH·γ < 2^30:
// 2^-22.9 from γ, 2^-23 rounding; xL·α < 2^31: 2^-21.9 + 2^-22; two sums below 2^32: 2^-21 each), so
// Y ≤ y ≤ Y + 2E, and g = y − floor(y) (exact) is either in [h/P, h/P + 2E], or below 2E where y passed an
// integer that Y did not (h/P > 1 − 2E). Each slot keeps its minimum m and a threshold thr ≥ m/P + 2E (below).
// Where g > thr, h/P ≥ g − 2E > m/P: h is not a new minimum (and g > thr > 2E rules out the second case), so
// it is skipped; elsewhere h is computed exactly and taken if below m. The minima are therefore exact: the same
// bits as the scalar kernel's.
//
// thr without an i64 → f64 conversion (wasm SIMD has none): m < P, so m >> 9 < 2^52 fits a double's fraction;
// with the bits of 1.0 it reads as v = 1 + u, u = (m >> 9)·2^-52 > m·2^-61 − 2^-52 (exact), and
// thr = v + (3E + 2^-52 − 1) (the constant exact; the sum, below 2, rounds by at most 2^-53), so
// thr ≥ m·2^-61 + 3E − 2^-53 ≥ m/P + 2E (m/P ≤ m·2^-61 + 2^-61), and thr ≤ m/P + 3E + 2^-51: hardly looser.
//
// A step: three shingles, x1..x3 at p, p + 8, p + 16 (the last shingle again past the end: a minimum taken twice
// is the same), over every pair of slots, STEP_PAIRS pairs an iteration written out. Each pair's doubles are loaded
// once for the three, and one test of the lowest g against thr lists the pair (its record's address, at
// `scratch`; the list's end moves 4 bytes where the test passes, from i64x2.bitmask, no branch). After the pass
// over all pairs the listed pairs get the three exact hashes, one loop written once. A branch per pair to exact
// hashes written in place (the kernel before) was mispredicted at nearly every pass, since the passes are the
// random new minima (6.4 % of pair tests on c100k's documents, 295 shingles on average: ln n a slot, the first
// step every pair); the list's loop mispredicts about once a step. On the 2-core AMD EPYC dev machine (Node 20,
// k = 128, the first 20,000 documents of /work/corpus/c100k.jsonl, paired in one process), ns a hash: a branch
// per pair 0.84 (scalar i64 exact hashes, or i64x2: the same; without the exact hashes at all 0.53, every
// hash exact without the bound 2.23), the list with two shingles a step 0.64, with i64x2.bitmask rather than
// v128.any_true 0.61, three shingles 0.59, four 0.68.
//
// The exact h (Karatsuba at bit 31), per pair in u32 lanes A = [aL, aL′, aH, aH′] (′: the pair's second slot),
// S = [aL + aH, aL′ + aH′, ·, ·], of x: X = [xL, xL, xH, xH], T = [xL + xH] × 4, and i64x2 from there on:
//   p00 = aL·xL = extmul_low(A, X), p11 = aH·xH = extmul_high(A, X), S·T = extmul_low(S, T) < 2^64,
//   mid = S·T − p00 − p11 = aL·xH + aH·xL < 2^62,
//   t = p00 + (mid >> 30) + ((mid & (2^30 − 1)) << 31) + 2·p11 + b ≡ a·x + b (mod P), t < 5·2^61 (no wrap),
//   f = (t & P) + (t >> 61) ∈ [0, P + 4], h = (f + ((f + 1) >> 61)) & P: f where f < P, f − P where f ≥ P.
// Minima by i64x2.lt_s, signed: every h < P < 2^63, and m starts at 2^63 − 1, never copied out: a document's
// first step lists every pair (thr starts at 2, above any g), so each m is an h before thr is made from it.
//
// Layout (byte addresses, chosen by the caller, src/signatures/wasm/signKernel.ts): `fam` holds one 128-byte
// record per pair of slots (k padded to a multiple of 2·STEP_PAIRS; a padding slot has a = 1, b = 0: computed,
// never copied out): γ, α, δ (f64x2), then the document's thr (f64x2) and m (i64x2), then A and S (u32x4, as
// above; S's last 8 bytes unused) and b (i64x2). `sh` the shingles (u64 each, < P), `off` docs + 1 u32 offsets
// counted in shingles, `out` docs·k u64 slots, `scratch` 16 bytes a pair: a step's list (4 bytes a pair), and
// at a document's end its row. An empty document gets every slot all-ones.

/** Pairs of slots per step of the inner loop (written out). */
const STEP_PAIRS = 4;
const RECORD = 128;
/** Shingles a step (written out). */
const SHINGLES = 3;
/** Byte offsets in a pair's record (see the layout above). */
const AT = { gamma: 0, alpha: 16, delta: 32, thr: 48, min: 64, a: 80, sum: 96, b: 112 };
const P = '0x1fffffffffffffff';
/** E = 2^-17 (see above): δ = b/P + E, thr ≥ m/P + 2E. */
const E = 2 ** -17;
/** thr = (1 + (m >> 9)·2^-52) + THR_SHIFT: the bits of 1.0 with m >> 9 as the fraction, less 1 (see above). */
const ONE_BITS = '0x3ff0000000000000';
const THR_SHIFT = hexFloat(3 * E + 2 ** -52 - 1);

/** A normal double as a hexadecimal float literal (exact, whatever the assembler's decimal parsing). */
function hexFloat(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const fraction = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, '0');
  return `${bits >> 63n ? '-' : ''}0x1.${fraction}p${Number((bits >> 52n) & 0x7ffn) - 1023}`;
}

/**
 * The layout and E for the caller that writes the records (src/signatures/wasm/signKernel.ts): build-wasm.mjs puts it
 * beside the module in kernels.generated.ts, so that the two never disagree.
 */
export const SIGN_SIMD_LAYOUT = { stepPairs: STEP_PAIRS, recordBytes: RECORD, at: AT, boundShift: E };

/** h of shingle `w` exactly for both slots of the pair whose A, S and b are loaded, into $h${w} (see above). */
function exactHashes(w) {
  return `
              (local.set $q00 (i64x2.extmul_low_i32x4_u (local.get $A) (local.get $X${w})))
              (local.set $q11 (i64x2.extmul_high_i32x4_u (local.get $A) (local.get $X${w})))
              (local.set $qm (i64x2.sub (i64x2.sub (i64x2.extmul_low_i32x4_u (local.get $S) (local.get $T${w})) (local.get $q00)) (local.get $q11)))
              (local.set $t (i64x2.add (i64x2.add (i64x2.add (local.get $q00) (i64x2.shr_u (local.get $qm) (i32.const 30)))
                                                  (i64x2.shl (v128.and (local.get $qm) (local.get $low30)) (i32.const 31)))
                                       (i64x2.add (i64x2.shl (local.get $q11) (i32.const 1)) (local.get $B))))
              (local.set $h${w} (i64x2.add (v128.and (local.get $t) (local.get $modulus)) (i64x2.shr_u (local.get $t) (i32.const 61))))
              (local.set $h${w} (v128.and (i64x2.add (local.get $h${w}) (i64x2.shr_u (i64x2.add (local.get $h${w}) (local.get $one)) (i32.const 61)))
                                        (local.get $modulus)))`;
}

/** Both slots of the listed pair at $e, every shingle of the step: h exactly, the minimum and its threshold. */
function exactPair() {
  return `
              (local.set $A (v128.load offset=${AT.a} (local.get $e)))
              (local.set $S (v128.load offset=${AT.sum} (local.get $e)))
              (local.set $B (v128.load offset=${AT.b} (local.get $e)))${each(SHINGLES, (i) => exactHashes(i + 1))}${minOf('$h', 'i64x2.lt_s')}
              (local.set $m (v128.load offset=${AT.min} (local.get $e)))
              (local.set $m (v128.bitselect (local.get $h1) (local.get $m) (i64x2.lt_s (local.get $h1) (local.get $m))))
              (v128.store offset=${AT.min} (local.get $e) (local.get $m))
              (v128.store offset=${AT.thr} (local.get $e)
                (f64x2.add (v128.or (i64x2.shr_u (local.get $m) (i32.const 9)) (local.get $one52)) (local.get $thrShift)))`;
}

/** The minimum of $name1 … $nameN (SHINGLES of them) into $name1, by \`less\`. */
function minOf(name, less) {
  const fold = (i) => `
              (local.set ${name}1 (v128.bitselect (local.get ${name}1) (local.get ${name}${i + 2}) (${less} (local.get ${name}1) (local.get ${name}${i + 2}))))`;
  return each(SHINGLES - 1, fold);
}

/** The lowest g of the step's shingles. */
function pminOf() {
  let text = '(local.get $g1)';
  for (let w = 2; w <= SHINGLES; w++) text = `(f64x2.pmin ${text} (local.get $g${w}))`;
  return text;
}

/** g of shingle `w` for the pair whose γ, α, δ are loaded. */
function bound(w) {
  return `
          (local.set $y (f64x2.add (f64x2.add (f64x2.mul (local.get $XH${w}) (local.get $gamma)) (f64x2.mul (local.get $XL${w}) (local.get $alpha)))
                                   (local.get $delta)))
          (local.set $g${w} (f64x2.sub (local.get $y) (f64x2.floor (local.get $y))))`;
}

/**
 * Pair `i` of a step: every shingle's bound, and the pair listed where the lowest does not clear thr (bitmask 0 to 3:
 * (bitmask + 3) & 4 is 4 bytes unless it is 0).
 */
function boundPair(i) {
  const o = RECORD * i;
  return `
          ;; pair ${i}
          (local.set $gamma (v128.load offset=${o + AT.gamma} (local.get $r)))
          (local.set $alpha (v128.load offset=${o + AT.alpha} (local.get $r)))
          (local.set $delta (v128.load offset=${o + AT.delta} (local.get $r)))${each(SHINGLES, (i) => bound(i + 1))}
          (i32.store (local.get $w) (i32.add (local.get $r) (i32.const ${o})))
          (local.set $w (i32.add (local.get $w) (i32.and (i32.add (i32.const 3)
            (i64x2.bitmask (f64x2.le ${pminOf()} (v128.load offset=${o + AT.thr} (local.get $r)))))
            (i32.const 4))))`;
}

/** x{w} read at `address`: its halves xL, xH as u32 lanes X = [xL, xL, xH, xH], T = [xL + xH] × 4, and as doubles. */
function shingle(w, address) {
  return `
              (local.set $x (i64.load (local.get ${address})))
              (local.set $xL${w} (i64.and (local.get $x) (i64.const 0x7fffffff)))
              (local.set $xH${w} (i64.shr_u (local.get $x) (i64.const 31)))
              (local.set $X${w} (i64x2.replace_lane 1 (i64x2.splat (i64.mul (local.get $xL${w}) (i64.const 0x100000001)))
                                                      (i64.mul (local.get $xH${w}) (i64.const 0x100000001))))
              (local.set $T${w} (i32x4.splat (i32.wrap_i64 (i64.add (local.get $xL${w}) (local.get $xH${w})))))
              (local.set $XL${w} (f64x2.splat (f64.convert_i64_s (local.get $xL${w}))))
              (local.set $XH${w} (f64x2.splat (f64.convert_i64_s (local.get $xH${w}))))`;
}

/** Shingle w's locals. */
function shingleLocals(w) {
  return `    (local $xL${w} i64) (local $xH${w} i64) (local $X${w} v128) (local $T${w} v128) (local $XL${w} v128) (local $XH${w} v128)
    (local $g${w} v128) (local $h${w} v128) (local $q${w} i32)
`;
}

/** Shingle w's address $q{w}: p + 8·(w − 1), or the last shingle's where that is past it. */
function shingleAddress(w) {
  const at = `(i32.add (local.get $p) (i32.const ${8 * (w - 1)}))`;
  return `
              (local.set $q${w} (select (local.get $last) ${at} (i32.ge_u ${at} (local.get $last))))`;
}

/** Every shingle of a document, a step at a time: the bounds' pass over all pairs, then the listed pairs' exact hashes. */
function shingleLoop() {
  return `            (loop $shingle
${each(SHINGLES, (i) => shingleAddress(i + 1))}${each(SHINGLES, (i) => shingle(i + 1, `$q${i + 1}`))}
              (local.set $r (local.get $fam))
              (local.set $w (local.get $scratch))
              (loop $step${each(STEP_PAIRS, boundPair)}
                (local.set $r (i32.add (local.get $r) (i32.const ${RECORD * STEP_PAIRS})))
                (br_if $step (i32.lt_u (local.get $r) (local.get $famEnd))))
              ;; the exact hashes of the listed pairs
              (block $listed
                (loop $exact
                  (br_if $listed (i32.eq (local.get $w) (local.get $scratch)))
                  (local.set $w (i32.sub (local.get $w) (i32.const 4)))
                  (local.set $e (i32.load (local.get $w)))${exactPair()}
                  (br $exact)))
              (local.set $p (i32.add (local.get $p) (i32.const ${8 * SHINGLES})))
              (br_if $shingle (i32.lt_u (local.get $p) (local.get $end))))`;
}

const each = (count, line) => Array.from({ length: count }, (_, i) => line(i)).join('');

export function signSimdWat() {
  return `;; Generated by scripts/sign-simd-wat.mjs (read its comments): do not edit, not committed.
(module
  (memory (export "memory") 1)
  (func (export "sign")
    (param $fam i32) (param $pairs i32) (param $k i32)
    (param $sh i32) (param $off i32) (param $docs i32) (param $out i32) (param $scratch i32)
    (local $d i32) (local $p i32) (local $last i32) (local $start i32) (local $end i32) (local $row i32)
    (local $r i32) (local $w i32) (local $e i32) (local $famEnd i32) (local $x i64) (local $y v128) (local $gamma v128) (local $alpha v128) (local $delta v128)
${each(SHINGLES, (i) => shingleLocals(i + 1))}    (local $A v128) (local $S v128) (local $B v128) (local $q00 v128) (local $q11 v128) (local $qm v128) (local $t v128)
    (local $m v128)
    (local $low30 v128) (local $modulus v128) (local $one v128) (local $one52 v128) (local $thrShift v128)
    (local.set $low30 (v128.const i64x2 0x3fffffff 0x3fffffff))
    (local.set $modulus (v128.const i64x2 ${P} ${P}))
    (local.set $one (v128.const i64x2 1 1))
    (local.set $one52 (v128.const i64x2 ${ONE_BITS} ${ONE_BITS}))
    (local.set $thrShift (v128.const f64x2 ${THR_SHIFT} ${THR_SHIFT}))
    (local.set $famEnd (i32.add (local.get $fam) (i32.mul (local.get $pairs) (i32.const ${RECORD}))))
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
            ;; every slot computes its first shingles exactly (thr 2 > any g), from the minimum all-ones
            (local.set $r (local.get $fam))
            (loop $reset
              (v128.store offset=${AT.thr} (local.get $r) (v128.const f64x2 2 2))
              (v128.store offset=${AT.min} (local.get $r) (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $r (i32.add (local.get $r) (i32.const ${RECORD})))
              (br_if $reset (i32.lt_u (local.get $r) (local.get $famEnd))))
            (local.set $p (local.get $start))
${shingleLoop()}
            ;; the minima, pair by pair, into one row
            (local.set $r (local.get $fam))
            (local.set $p (local.get $scratch))
            (loop $copy
              (v128.store (local.get $p) (v128.load offset=${AT.min} (local.get $r)))
              (local.set $p (i32.add (local.get $p) (i32.const 16)))
              (local.set $r (i32.add (local.get $r) (i32.const ${RECORD})))
              (br_if $copy (i32.lt_u (local.get $r) (local.get $famEnd))))
            (memory.copy (local.get $row) (local.get $scratch) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc))))
)
`;
}
