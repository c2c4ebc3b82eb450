;; MinHash signing, WebAssembly SIMD: two hash slots per v128 (i64 lanes), four v128 per
;; pass over a document's shingles (8 slots, minima in registers).
;;
;; h_i(x) = ((a_i·x) mod P + b_i) mod P, P = 2^61 − 1, for a, x, b < 2^61.
;; With a = aH·2^32 + aL and x = xH·2^32 + xL (aH, xH < 2^29):
;;   a·x = p00 + (p01 + p10)·2^32 + p11·2^64,  p00 = aL·xL, p01 = aL·xH, p10 = aH·xL, p11 = aH·xH
;; and 2^61 ≡ 1, 2^64 ≡ 8 (mod P), so with mid = p01 + p10 (< 2^62) and B = b + 1 (≤ P):
;;   a·x + b + 1 ≡ sum = (p00 & P) + (p00 >> 61) + (mid >> 29) + ((mid & (2^29 − 1)) << 32) + 8·p11 + B
;; every term < 2^61 + 1 (p00 >> 61 < 8, mid >> 29 < 2^33), so sum < 2^63 + 2^34: no overflow.
;; Two folds, f(v) = (v & P) + (v >> 61): r = f(sum) ∈ [1, 2^61 + 3] (sum ≥ 1), then
;; f(r) is h + 1 exactly, in [1, P] (r ≤ P stays; r ≥ 2^61 becomes r − P ∈ [1, 4]).
;; Minima are taken over h + 1 (< 2^63: signed compares order them), 1 is subtracted on store.
;;
;; The partial products come from i64x2.extmul_{low,high}_i32x4_u. For slots (s, t)
;; the caller stores U = i32x4 [a_s.lo, a_t.lo, a_s.hi, a_t.hi]; per shingle the kernel
;; builds V = [xL, xL, xH, xH] and W = [xH, xH, xL, xL]:
;;   extmul_low(U, V) = p00, extmul_high(U, V) = p11, extmul_low(U, W) = p01, extmul_high(U, W) = p10.
;;
;; Layout (byte addresses, chosen by the caller, src/signatures/wasm/signKernel.ts): `u` holds
;; pairs·16 bytes of U, `bv` pairs·16 bytes of B (i64x2 [b_s + 1, b_t + 1]); `pairs` is a multiple
;; of 4 (k padded to a multiple of 8 slots); `sh` the shingles (u64 each, < P), `off` docs + 1 u32
;; offsets counted in shingles, `out` docs·k u64 slots, `scratch` pairs·16 bytes for one padded
;; row. An empty document gets every slot all-ones.
;;
;; The four slot pairs are written out one after another (text format has no macros); keep them alike.
(module
  (memory (export "memory") 1)
  (func (export "sign")
    (param $u i32) (param $bv i32) (param $pairs i32) (param $k i32)
    (param $sh i32) (param $off i32) (param $docs i32) (param $out i32) (param $scratch i32)
    (local $d i32) (local $g i32) (local $p i32) (local $start i32) (local $end i32) (local $row i32)
    (local $U0 v128) (local $B0 v128) (local $m0 v128) (local $U1 v128) (local $B1 v128) (local $m1 v128) (local $U2 v128) (local $B2 v128) (local $m2 v128) (local $U3 v128) (local $B3 v128) (local $m3 v128) (local $h v128) (local $p00 v128) (local $mid v128) (local $sum v128) (local $r v128)
    (local $X v128) (local $V v128) (local $W v128)
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $row (i32.add (local.get $out) (i32.mul (local.get $d) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $start (i32.add (local.get $sh) (i32.shl (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (local.set $end (i32.add (local.get $sh) (i32.shl (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (if (i32.eq (local.get $start) (local.get $end))
          (then (memory.fill (local.get $row) (i32.const 0xff) (i32.shl (local.get $k) (i32.const 3))))
          (else
            (local.set $g (i32.const 0))
            (loop $group
              (local.set $U0 (v128.load offset=0 (i32.add (local.get $u) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $B0 (v128.load offset=0 (i32.add (local.get $bv) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $m0 (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff))
              (local.set $U1 (v128.load offset=16 (i32.add (local.get $u) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $B1 (v128.load offset=16 (i32.add (local.get $bv) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $m1 (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff))
              (local.set $U2 (v128.load offset=32 (i32.add (local.get $u) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $B2 (v128.load offset=32 (i32.add (local.get $bv) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $m2 (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff))
              (local.set $U3 (v128.load offset=48 (i32.add (local.get $u) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $B3 (v128.load offset=48 (i32.add (local.get $bv) (i32.shl (local.get $g) (i32.const 4)))))
              (local.set $m3 (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff))
              (local.set $p (local.get $start))
              (loop $shingle
                (local.set $X (v128.load64_splat (local.get $p)))
                (local.set $V (i8x16.shuffle 0 1 2 3 0 1 2 3 4 5 6 7 4 5 6 7 (local.get $X) (local.get $X)))
                (local.set $W (i8x16.shuffle 4 5 6 7 4 5 6 7 0 1 2 3 0 1 2 3 (local.get $X) (local.get $X)))
                (local.set $p00 (i64x2.extmul_low_i32x4_u (local.get $U0) (local.get $V)))
                (local.set $mid (i64x2.add (i64x2.extmul_low_i32x4_u (local.get $U0) (local.get $W))
                                           (i64x2.extmul_high_i32x4_u (local.get $U0) (local.get $W))))
                (local.set $sum
                  (i64x2.add
                    (i64x2.add
                      (i64x2.add (v128.and (local.get $p00) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $p00) (i32.const 61)))
                      (i64x2.add (i64x2.shr_u (local.get $mid) (i32.const 29))
                                 (i64x2.shl (v128.and (local.get $mid) (v128.const i64x2 0x1fffffff 0x1fffffff)) (i32.const 32))))
                    (i64x2.add (i64x2.shl (i64x2.extmul_high_i32x4_u (local.get $U0) (local.get $V)) (i32.const 3)) (local.get $B0))))
                (local.set $r (i64x2.add (v128.and (local.get $sum) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $sum) (i32.const 61))))
                (local.set $h (i64x2.add (v128.and (local.get $r) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $r) (i32.const 61))))
                (local.set $m0 (v128.bitselect (local.get $h) (local.get $m0) (i64x2.lt_s (local.get $h) (local.get $m0))))
                (local.set $p00 (i64x2.extmul_low_i32x4_u (local.get $U1) (local.get $V)))
                (local.set $mid (i64x2.add (i64x2.extmul_low_i32x4_u (local.get $U1) (local.get $W))
                                           (i64x2.extmul_high_i32x4_u (local.get $U1) (local.get $W))))
                (local.set $sum
                  (i64x2.add
                    (i64x2.add
                      (i64x2.add (v128.and (local.get $p00) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $p00) (i32.const 61)))
                      (i64x2.add (i64x2.shr_u (local.get $mid) (i32.const 29))
                                 (i64x2.shl (v128.and (local.get $mid) (v128.const i64x2 0x1fffffff 0x1fffffff)) (i32.const 32))))
                    (i64x2.add (i64x2.shl (i64x2.extmul_high_i32x4_u (local.get $U1) (local.get $V)) (i32.const 3)) (local.get $B1))))
                (local.set $r (i64x2.add (v128.and (local.get $sum) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $sum) (i32.const 61))))
                (local.set $h (i64x2.add (v128.and (local.get $r) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $r) (i32.const 61))))
                (local.set $m1 (v128.bitselect (local.get $h) (local.get $m1) (i64x2.lt_s (local.get $h) (local.get $m1))))
                (local.set $p00 (i64x2.extmul_low_i32x4_u (local.get $U2) (local.get $V)))
                (local.set $mid (i64x2.add (i64x2.extmul_low_i32x4_u (local.get $U2) (local.get $W))
                                           (i64x2.extmul_high_i32x4_u (local.get $U2) (local.get $W))))
                (local.set $sum
                  (i64x2.add
                    (i64x2.add
                      (i64x2.add (v128.and (local.get $p00) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $p00) (i32.const 61)))
                      (i64x2.add (i64x2.shr_u (local.get $mid) (i32.const 29))
                                 (i64x2.shl (v128.and (local.get $mid) (v128.const i64x2 0x1fffffff 0x1fffffff)) (i32.const 32))))
                    (i64x2.add (i64x2.shl (i64x2.extmul_high_i32x4_u (local.get $U2) (local.get $V)) (i32.const 3)) (local.get $B2))))
                (local.set $r (i64x2.add (v128.and (local.get $sum) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $sum) (i32.const 61))))
                (local.set $h (i64x2.add (v128.and (local.get $r) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $r) (i32.const 61))))
                (local.set $m2 (v128.bitselect (local.get $h) (local.get $m2) (i64x2.lt_s (local.get $h) (local.get $m2))))
                (local.set $p00 (i64x2.extmul_low_i32x4_u (local.get $U3) (local.get $V)))
                (local.set $mid (i64x2.add (i64x2.extmul_low_i32x4_u (local.get $U3) (local.get $W))
                                           (i64x2.extmul_high_i32x4_u (local.get $U3) (local.get $W))))
                (local.set $sum
                  (i64x2.add
                    (i64x2.add
                      (i64x2.add (v128.and (local.get $p00) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $p00) (i32.const 61)))
                      (i64x2.add (i64x2.shr_u (local.get $mid) (i32.const 29))
                                 (i64x2.shl (v128.and (local.get $mid) (v128.const i64x2 0x1fffffff 0x1fffffff)) (i32.const 32))))
                    (i64x2.add (i64x2.shl (i64x2.extmul_high_i32x4_u (local.get $U3) (local.get $V)) (i32.const 3)) (local.get $B3))))
                (local.set $r (i64x2.add (v128.and (local.get $sum) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $sum) (i32.const 61))))
                (local.set $h (i64x2.add (v128.and (local.get $r) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $r) (i32.const 61))))
                (local.set $m3 (v128.bitselect (local.get $h) (local.get $m3) (i64x2.lt_s (local.get $h) (local.get $m3))))
                (local.set $p (i32.add (local.get $p) (i32.const 8)))
                (br_if $shingle (i32.lt_u (local.get $p) (local.get $end))))
              (v128.store offset=0 (i32.add (local.get $scratch) (i32.shl (local.get $g) (i32.const 4))) (i64x2.sub (local.get $m0) (v128.const i64x2 1 1)))
              (v128.store offset=16 (i32.add (local.get $scratch) (i32.shl (local.get $g) (i32.const 4))) (i64x2.sub (local.get $m1) (v128.const i64x2 1 1)))
              (v128.store offset=32 (i32.add (local.get $scratch) (i32.shl (local.get $g) (i32.const 4))) (i64x2.sub (local.get $m2) (v128.const i64x2 1 1)))
              (v128.store offset=48 (i32.add (local.get $scratch) (i32.shl (local.get $g) (i32.const 4))) (i64x2.sub (local.get $m3) (v128.const i64x2 1 1)))
              (local.set $g (i32.add (local.get $g) (i32.const 4)))
              (br_if $group (i32.lt_u (local.get $g) (local.get $pairs))))
            (memory.copy (local.get $row) (local.get $scratch) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc))))
)
