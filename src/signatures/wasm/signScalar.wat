;; MinHash signing, scalar WebAssembly (i64): the fallback where SIMD does not validate.
;; The same arithmetic as signSimd.wat, one slot at a time; see there for the derivation:
;;   sum = (p00 & P) + (p00 >> 61) + (mid >> 29) + ((mid & (2^29 − 1)) << 32) + 8·p11 + b  (< 2^64)
;;   r = (sum & P) + (sum >> 61) ≤ P + 4,  h = (r + ((r + 1) >> 61)) & P
;; Layout: `a` and `b` k u64 each, `sh` the shingles (u64, < P), `off` docs + 1 u32
;; offsets counted in shingles, `out` docs·k u64 slots. An empty document gets all-ones.
(module
  (memory (export "memory") 1)

  (func (export "sign")
    (param $a i32) (param $b i32) (param $k i32) (param $sh i32) (param $off i32) (param $docs i32) (param $out i32)
    (local $d i32) (local $i i32) (local $p i32) (local $start i32) (local $end i32) (local $row i32)
    (local $aL i64) (local $aH i64) (local $bi i64) (local $x i64) (local $xL i64) (local $xH i64)
    (local $p00 i64) (local $mid i64) (local $sum i64) (local $r i64) (local $h i64) (local $m i64)
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $row (i32.add (local.get $out) (i32.mul (local.get $d) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $start (i32.add (local.get $sh) (i32.shl (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (local.set $end (i32.add (local.get $sh) (i32.shl (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (if (i32.eq (local.get $start) (local.get $end))
          (then (memory.fill (local.get $row) (i32.const 0xff) (i32.shl (local.get $k) (i32.const 3))))
          (else
            (local.set $i (i32.const 0))
            (loop $slot
              (local.set $aL (i64.load32_u (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 3)))))
              (local.set $aH (i64.load32_u offset=4 (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 3)))))
              (local.set $bi (i64.load (i32.add (local.get $b) (i32.shl (local.get $i) (i32.const 3)))))
              (local.set $m (i64.const 0x1fffffffffffffff))
              (local.set $p (local.get $start))
              (loop $shingle
                (local.set $x (i64.load (local.get $p)))
                (local.set $xL (i64.and (local.get $x) (i64.const 0xffffffff)))
                (local.set $xH (i64.shr_u (local.get $x) (i64.const 32)))
                (local.set $p00 (i64.mul (local.get $aL) (local.get $xL)))
                (local.set $mid (i64.add (i64.mul (local.get $aL) (local.get $xH)) (i64.mul (local.get $aH) (local.get $xL))))
                (local.set $sum
                  (i64.add
                    (i64.add
                      (i64.add (i64.and (local.get $p00) (i64.const 0x1fffffffffffffff)) (i64.shr_u (local.get $p00) (i64.const 61)))
                      (i64.add (i64.shr_u (local.get $mid) (i64.const 29))
                               (i64.shl (i64.and (local.get $mid) (i64.const 0x1fffffff)) (i64.const 32))))
                    (i64.add (i64.shl (i64.mul (local.get $aH) (local.get $xH)) (i64.const 3)) (local.get $bi))))
                (local.set $r (i64.add (i64.and (local.get $sum) (i64.const 0x1fffffffffffffff)) (i64.shr_u (local.get $sum) (i64.const 61))))
                (local.set $h (i64.and (i64.add (local.get $r) (i64.shr_u (i64.add (local.get $r) (i64.const 1)) (i64.const 61)))
                                       (i64.const 0x1fffffffffffffff)))
                (if (i64.lt_u (local.get $h) (local.get $m)) (then (local.set $m (local.get $h))))
                (local.set $p (i32.add (local.get $p) (i32.const 8)))
                (br_if $shingle (i32.lt_u (local.get $p) (local.get $end))))
              (i64.store (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 3))) (local.get $m))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br_if $slot (i32.lt_u (local.get $i) (local.get $k))))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc))))
)
