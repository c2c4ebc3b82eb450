;; One-permutation hashing's bin minima (src/signatures/oph.ts, binMinimaTs), scalar WebAssembly (i64).
;; One hash per shingle, h = ((a·x) mod P + b) mod P with signScalar.wat's fold (see signSimd.wat):
;;   sum = (p00 & P) + (p00 >> 61) + (mid >> 29) + ((mid & (2^29 − 1)) << 32) + 8·p11 + b  (< 2^64)
;;   r = (sum & P) + (sum >> 61) ≤ P + 7,  h = (r + ((r + 1) >> 61)) & P
;; then bin = ((h >> 29)·k) >> 32 (Lemire's reduction of h's top 32 bits; below 2^64) and
;; out[bin] = min(out[bin], h). Layout: `sh` the shingles (u64, < 2^61), `off` docs + 1 u32
;; offsets counted in shingles, `out` docs·k u64 slots that the caller prefilled (all-ones).
(module
  (memory (export "memory") 1)

  (func (export "bins")
    (param $aLo i32) (param $aHi i32) (param $bLo i32) (param $bHi i32)
    (param $k i32) (param $sh i32) (param $off i32) (param $docs i32) (param $out i32)
    (local $d i32) (local $p i32) (local $end i32) (local $row i32) (local $at i32)
    (local $aL i64) (local $aH i64) (local $b i64) (local $k64 i64) (local $x i64) (local $xL i64) (local $xH i64)
    (local $p00 i64) (local $mid i64) (local $sum i64) (local $r i64) (local $h i64)
    (local.set $aL (i64.extend_i32_u (local.get $aLo)))
    (local.set $aH (i64.extend_i32_u (local.get $aHi)))
    (local.set $b (i64.or (i64.shl (i64.extend_i32_u (local.get $bHi)) (i64.const 32)) (i64.extend_i32_u (local.get $bLo))))
    (local.set $k64 (i64.extend_i32_u (local.get $k)))
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $row (i32.add (local.get $out) (i32.mul (local.get $d) (i32.shl (local.get $k) (i32.const 3)))))
        (local.set $p (i32.add (local.get $sh) (i32.shl (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (local.set $end (i32.add (local.get $sh) (i32.shl (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (block $empty
          (loop $shingle
            (br_if $empty (i32.ge_u (local.get $p) (local.get $end)))
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
                (i64.add (i64.shl (i64.mul (local.get $aH) (local.get $xH)) (i64.const 3)) (local.get $b))))
            (local.set $r (i64.add (i64.and (local.get $sum) (i64.const 0x1fffffffffffffff)) (i64.shr_u (local.get $sum) (i64.const 61))))
            (local.set $h (i64.and (i64.add (local.get $r) (i64.shr_u (i64.add (local.get $r) (i64.const 1)) (i64.const 61)))
                                   (i64.const 0x1fffffffffffffff)))
            (local.set $at (i32.add (local.get $row)
              (i32.shl (i32.wrap_i64 (i64.shr_u (i64.mul (i64.shr_u (local.get $h) (i64.const 29)) (local.get $k64)) (i64.const 32)))
                       (i32.const 3))))
            (if (i64.lt_u (local.get $h) (i64.load (local.get $at))) (then (i64.store (local.get $at) (local.get $h))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (br $shingle)))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc))))
)
