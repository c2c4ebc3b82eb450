;; The datasketch 2.0.0 schemes' signing, WebAssembly SIMD (src/signatures/datasketchSigner.ts
;; is the reference, in the same terms). For a shingle hash x (sha1_hash32/64):
;;   affine32: fmix32(x)·a + b mod 2^32, four slots per v128 (i32x4), 16 slots per pass;
;;   affine64: fmix64(x)·a + b mod 2^64, two slots per v128 (i64x2), 8 slots per pass;
;;   legacy:   ((x·a + b) mod 2^64) mod (2^61 − 1), low 32 bits, 8 slots per pass (i64x2).
;; A pass keeps four vectors of minima in registers over all of a document's shingles;
;; fmix is computed once per shingle, into `scratch`, before the passes.
;;
;; Unsigned minima: i32x4.min_u; i64x2 has only signed compares, so affine64's caller stores
;; b with its top bit flipped (a·h + (b ^ 2^63) = (a·h + b) ^ 2^63) and the flip is undone on
;; store; legacy values are below 2^32, where signed order is unsigned order.
;;
;; Layout (byte addresses, chosen by the caller, src/signatures/wasm/datasketchKernel.ts):
;; `a`, `b`: groups·64 bytes each (four vectors per pass; padding slots a = 1, b = 0);
;; `sh`: the shingles, u64 each; `off`: docs + 1 u32 offsets counted in shingles;
;; `out`: docs rows of kpad (= slots per pass · groups) u64 slots, 32-bit values zero-extended;
;; `scratch`: 8 bytes per shingle of the longest document. An empty document's row is all-ones.
;; Each pass's four vectors are written out one after another (text format has no macros).
(module
  (memory (export "memory") 1)

  (func $fmix32 (param $h i32) (result i32)
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  (func $fmix64 (param $h i64) (result i64)
    (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33))))
    (local.set $h (i64.mul (local.get $h) (i64.const 0xff51afd7ed558ccd)))
    (local.set $h (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33))))
    (local.set $h (i64.mul (local.get $h) (i64.const 0xc4ceb9fe1a85ec53)))
    (i64.xor (local.get $h) (i64.shr_u (local.get $h) (i64.const 33))))

  (func (export "sign_affine32")
    (param $a i32) (param $b i32) (param $groups i32) (param $kpad i32)
    (param $sh i32) (param $off i32) (param $docs i32) (param $out i32) (param $scratch i32)
    (local $d i32) (local $g i32) (local $p i32) (local $start i32) (local $end i32) (local $row i32) (local $n i32) (local $x i64)
    (local $A0 v128) (local $A1 v128) (local $A2 v128) (local $A3 v128) (local $B0 v128) (local $B1 v128) (local $B2 v128) (local $B3 v128)
    (local $m0 v128) (local $m1 v128) (local $m2 v128) (local $m3 v128) (local $h v128) (local $v v128) (local $t v128)
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $row (i32.add (local.get $out) (i32.mul (local.get $d) (i32.shl (local.get $kpad) (i32.const 3)))))
        (local.set $start (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))))
        (local.set $end (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))))
        (local.set $n (i32.sub (local.get $end) (local.get $start)))
        (local.set $start (i32.add (local.get $sh) (i32.shl (local.get $start) (i32.const 3))))
        (if (i32.eqz (local.get $n))
          (then (memory.fill (local.get $row) (i32.const 0xff) (i32.shl (local.get $kpad) (i32.const 3))))
          (else
            ;; fmix32 once per shingle, into scratch
            (local.set $p (i32.const 0))
            (loop $mix
              (i32.store (i32.add (local.get $scratch) (i32.shl (local.get $p) (i32.const 2)))
                (call $fmix32 (i32.load (i32.add (local.get $start) (i32.shl (local.get $p) (i32.const 3))))))
              (br_if $mix (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $n))))
            (local.set $g (i32.const 0))
            (loop $group
              (local.set $A0 (v128.load offset=0 (i32.add (local.get $a) (local.get $g))))
              (local.set $B0 (v128.load offset=0 (i32.add (local.get $b) (local.get $g))))
              (local.set $m0 (v128.const i32x4 0xffffffff 0xffffffff 0xffffffff 0xffffffff))
              (local.set $A1 (v128.load offset=16 (i32.add (local.get $a) (local.get $g))))
              (local.set $B1 (v128.load offset=16 (i32.add (local.get $b) (local.get $g))))
              (local.set $m1 (v128.const i32x4 0xffffffff 0xffffffff 0xffffffff 0xffffffff))
              (local.set $A2 (v128.load offset=32 (i32.add (local.get $a) (local.get $g))))
              (local.set $B2 (v128.load offset=32 (i32.add (local.get $b) (local.get $g))))
              (local.set $m2 (v128.const i32x4 0xffffffff 0xffffffff 0xffffffff 0xffffffff))
              (local.set $A3 (v128.load offset=48 (i32.add (local.get $a) (local.get $g))))
              (local.set $B3 (v128.load offset=48 (i32.add (local.get $b) (local.get $g))))
              (local.set $m3 (v128.const i32x4 0xffffffff 0xffffffff 0xffffffff 0xffffffff))
              (local.set $p (local.get $scratch))
              (local.set $end (i32.add (local.get $p) (i32.mul (local.get $n) (i32.const 4))))
              (loop $shingle
                (local.set $h (v128.load32_splat (local.get $p)))
                (local.set $m0 (i32x4.min_u (local.get $m0) (i32x4.add (i32x4.mul (local.get $A0) (local.get $h)) (local.get $B0))))
                (local.set $m1 (i32x4.min_u (local.get $m1) (i32x4.add (i32x4.mul (local.get $A1) (local.get $h)) (local.get $B1))))
                (local.set $m2 (i32x4.min_u (local.get $m2) (i32x4.add (i32x4.mul (local.get $A2) (local.get $h)) (local.get $B2))))
                (local.set $m3 (i32x4.min_u (local.get $m3) (i32x4.add (i32x4.mul (local.get $A3) (local.get $h)) (local.get $B3))))
                (br_if $shingle (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 4))) (local.get $end))))
              (v128.store offset=0 (local.get $row) (i64x2.extend_low_i32x4_u (local.get $m0)))
              (v128.store offset=16 (local.get $row) (i64x2.extend_high_i32x4_u (local.get $m0)))
              (v128.store offset=32 (local.get $row) (i64x2.extend_low_i32x4_u (local.get $m1)))
              (v128.store offset=48 (local.get $row) (i64x2.extend_high_i32x4_u (local.get $m1)))
              (v128.store offset=64 (local.get $row) (i64x2.extend_low_i32x4_u (local.get $m2)))
              (v128.store offset=80 (local.get $row) (i64x2.extend_high_i32x4_u (local.get $m2)))
              (v128.store offset=96 (local.get $row) (i64x2.extend_low_i32x4_u (local.get $m3)))
              (v128.store offset=112 (local.get $row) (i64x2.extend_high_i32x4_u (local.get $m3)))
              (local.set $row (i32.add (local.get $row) (i32.const 128)))
              (br_if $group (i32.lt_u (local.tee $g (i32.add (local.get $g) (i32.const 64))) (i32.shl (local.get $groups) (i32.const 6)))))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc))))

  (func (export "sign_affine64")
    (param $a i32) (param $b i32) (param $groups i32) (param $kpad i32)
    (param $sh i32) (param $off i32) (param $docs i32) (param $out i32) (param $scratch i32)
    (local $d i32) (local $g i32) (local $p i32) (local $start i32) (local $end i32) (local $row i32) (local $n i32) (local $x i64)
    (local $A0 v128) (local $A1 v128) (local $A2 v128) (local $A3 v128) (local $B0 v128) (local $B1 v128) (local $B2 v128) (local $B3 v128)
    (local $m0 v128) (local $m1 v128) (local $m2 v128) (local $m3 v128) (local $h v128) (local $v v128) (local $t v128)
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $row (i32.add (local.get $out) (i32.mul (local.get $d) (i32.shl (local.get $kpad) (i32.const 3)))))
        (local.set $start (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))))
        (local.set $end (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))))
        (local.set $n (i32.sub (local.get $end) (local.get $start)))
        (local.set $start (i32.add (local.get $sh) (i32.shl (local.get $start) (i32.const 3))))
        (if (i32.eqz (local.get $n))
          (then (memory.fill (local.get $row) (i32.const 0xff) (i32.shl (local.get $kpad) (i32.const 3))))
          (else
            ;; fmix64 once per shingle, into scratch
            (local.set $p (i32.const 0))
            (loop $mix
              (i64.store (i32.add (local.get $scratch) (i32.shl (local.get $p) (i32.const 3)))
                (call $fmix64 (i64.load (i32.add (local.get $start) (i32.shl (local.get $p) (i32.const 3))))))
              (br_if $mix (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $n))))
            (local.set $g (i32.const 0))
            (loop $group
              (local.set $A0 (v128.load offset=0 (i32.add (local.get $a) (local.get $g))))
              (local.set $B0 (v128.load offset=0 (i32.add (local.get $b) (local.get $g))))
              (local.set $m0 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $A1 (v128.load offset=16 (i32.add (local.get $a) (local.get $g))))
              (local.set $B1 (v128.load offset=16 (i32.add (local.get $b) (local.get $g))))
              (local.set $m1 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $A2 (v128.load offset=32 (i32.add (local.get $a) (local.get $g))))
              (local.set $B2 (v128.load offset=32 (i32.add (local.get $b) (local.get $g))))
              (local.set $m2 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $A3 (v128.load offset=48 (i32.add (local.get $a) (local.get $g))))
              (local.set $B3 (v128.load offset=48 (i32.add (local.get $b) (local.get $g))))
              (local.set $m3 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $p (local.get $scratch))
              (local.set $end (i32.add (local.get $p) (i32.mul (local.get $n) (i32.const 8))))
              (loop $shingle
                (local.set $h (v128.load64_splat (local.get $p)))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A0) (local.get $h)) (local.get $B0)))
                (local.set $m0 (v128.bitselect (local.get $v) (local.get $m0) (i64x2.lt_s (local.get $v) (local.get $m0))))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A1) (local.get $h)) (local.get $B1)))
                (local.set $m1 (v128.bitselect (local.get $v) (local.get $m1) (i64x2.lt_s (local.get $v) (local.get $m1))))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A2) (local.get $h)) (local.get $B2)))
                (local.set $m2 (v128.bitselect (local.get $v) (local.get $m2) (i64x2.lt_s (local.get $v) (local.get $m2))))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A3) (local.get $h)) (local.get $B3)))
                (local.set $m3 (v128.bitselect (local.get $v) (local.get $m3) (i64x2.lt_s (local.get $v) (local.get $m3))))
                (br_if $shingle (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 8))) (local.get $end))))
              (v128.store offset=0 (local.get $row) (v128.xor (local.get $m0) (v128.const i64x2 0x8000000000000000 0x8000000000000000)))
              (v128.store offset=16 (local.get $row) (v128.xor (local.get $m1) (v128.const i64x2 0x8000000000000000 0x8000000000000000)))
              (v128.store offset=32 (local.get $row) (v128.xor (local.get $m2) (v128.const i64x2 0x8000000000000000 0x8000000000000000)))
              (v128.store offset=48 (local.get $row) (v128.xor (local.get $m3) (v128.const i64x2 0x8000000000000000 0x8000000000000000)))
              (local.set $row (i32.add (local.get $row) (i32.const 64)))
              (br_if $group (i32.lt_u (local.tee $g (i32.add (local.get $g) (i32.const 64))) (i32.shl (local.get $groups) (i32.const 6)))))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc))))

  (func (export "sign_legacy")
    (param $a i32) (param $b i32) (param $groups i32) (param $kpad i32)
    (param $sh i32) (param $off i32) (param $docs i32) (param $out i32) (param $scratch i32)
    (local $d i32) (local $g i32) (local $p i32) (local $start i32) (local $end i32) (local $row i32) (local $n i32) (local $x i64)
    (local $A0 v128) (local $A1 v128) (local $A2 v128) (local $A3 v128) (local $B0 v128) (local $B1 v128) (local $B2 v128) (local $B3 v128)
    (local $m0 v128) (local $m1 v128) (local $m2 v128) (local $m3 v128) (local $h v128) (local $v v128) (local $t v128)
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $row (i32.add (local.get $out) (i32.mul (local.get $d) (i32.shl (local.get $kpad) (i32.const 3)))))
        (local.set $start (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))))
        (local.set $end (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))))
        (local.set $n (i32.sub (local.get $end) (local.get $start)))
        (local.set $start (i32.add (local.get $sh) (i32.shl (local.get $start) (i32.const 3))))
        (if (i32.eqz (local.get $n))
          (then (memory.fill (local.get $row) (i32.const 0xff) (i32.shl (local.get $kpad) (i32.const 3))))
          (else

            (local.set $g (i32.const 0))
            (loop $group
              (local.set $A0 (v128.load offset=0 (i32.add (local.get $a) (local.get $g))))
              (local.set $B0 (v128.load offset=0 (i32.add (local.get $b) (local.get $g))))
              (local.set $m0 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $A1 (v128.load offset=16 (i32.add (local.get $a) (local.get $g))))
              (local.set $B1 (v128.load offset=16 (i32.add (local.get $b) (local.get $g))))
              (local.set $m1 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $A2 (v128.load offset=32 (i32.add (local.get $a) (local.get $g))))
              (local.set $B2 (v128.load offset=32 (i32.add (local.get $b) (local.get $g))))
              (local.set $m2 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $A3 (v128.load offset=48 (i32.add (local.get $a) (local.get $g))))
              (local.set $B3 (v128.load offset=48 (i32.add (local.get $b) (local.get $g))))
              (local.set $m3 (v128.const i64x2 0x7fffffffffffffff 0x7fffffffffffffff))
              (local.set $p (local.get $start))
              (local.set $end (i32.add (local.get $p) (i32.mul (local.get $n) (i32.const 8))))
              (loop $shingle
                (local.set $h (v128.load64_splat (local.get $p)))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A0) (local.get $h)) (local.get $B0)))
                (local.set $v (i64x2.add (v128.and (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $v) (i32.const 61))))
                (local.set $t (i64x2.sub (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)))
                (local.set $v (v128.and (v128.bitselect (local.get $v) (local.get $t) (i64x2.shr_s (local.get $t) (i32.const 63))) (v128.const i64x2 0xffffffff 0xffffffff)))
                (local.set $m0 (v128.bitselect (local.get $v) (local.get $m0) (i64x2.lt_s (local.get $v) (local.get $m0))))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A1) (local.get $h)) (local.get $B1)))
                (local.set $v (i64x2.add (v128.and (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $v) (i32.const 61))))
                (local.set $t (i64x2.sub (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)))
                (local.set $v (v128.and (v128.bitselect (local.get $v) (local.get $t) (i64x2.shr_s (local.get $t) (i32.const 63))) (v128.const i64x2 0xffffffff 0xffffffff)))
                (local.set $m1 (v128.bitselect (local.get $v) (local.get $m1) (i64x2.lt_s (local.get $v) (local.get $m1))))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A2) (local.get $h)) (local.get $B2)))
                (local.set $v (i64x2.add (v128.and (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $v) (i32.const 61))))
                (local.set $t (i64x2.sub (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)))
                (local.set $v (v128.and (v128.bitselect (local.get $v) (local.get $t) (i64x2.shr_s (local.get $t) (i32.const 63))) (v128.const i64x2 0xffffffff 0xffffffff)))
                (local.set $m2 (v128.bitselect (local.get $v) (local.get $m2) (i64x2.lt_s (local.get $v) (local.get $m2))))
                (local.set $v (i64x2.add (i64x2.mul (local.get $A3) (local.get $h)) (local.get $B3)))
                (local.set $v (i64x2.add (v128.and (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)) (i64x2.shr_u (local.get $v) (i32.const 61))))
                (local.set $t (i64x2.sub (local.get $v) (v128.const i64x2 0x1fffffffffffffff 0x1fffffffffffffff)))
                (local.set $v (v128.and (v128.bitselect (local.get $v) (local.get $t) (i64x2.shr_s (local.get $t) (i32.const 63))) (v128.const i64x2 0xffffffff 0xffffffff)))
                (local.set $m3 (v128.bitselect (local.get $v) (local.get $m3) (i64x2.lt_s (local.get $v) (local.get $m3))))
                (br_if $shingle (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 8))) (local.get $end))))
              (v128.store offset=0 (local.get $row) (local.get $m0))
              (v128.store offset=16 (local.get $row) (local.get $m1))
              (v128.store offset=32 (local.get $row) (local.get $m2))
              (v128.store offset=48 (local.get $row) (local.get $m3))
              (local.set $row (i32.add (local.get $row) (i32.const 64)))
              (br_if $group (i32.lt_u (local.tee $g (i32.add (local.get $g) (i32.const 64))) (i32.shl (local.get $groups) (i32.const 6)))))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc)))))
