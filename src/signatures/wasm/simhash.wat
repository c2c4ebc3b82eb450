;; SimHash fingerprints (src/signatures/simhash.ts, simhashFingerprint), scalar WebAssembly (i64).
;; Per element x (u64, < 2^61): h = splitmix64(x + key), i.e. z = x + key + φ;
;;   z = (z ^ (z >> 30))·0xbf58476d1ce4e5b9; z = (z ^ (z >> 27))·0x94d049bb133111eb; h = z ^ (z >> 31).
;; The 64 per-bit counts of set bits are kept bit-sliced: plane q holds bit q of every count. Each h is added
;; into a 3-plane counter in locals (no branch, no memory), which is added into the planes every 7 elements.
;; Bit i of the fingerprint is 1 when 2·count_i > n, decided for the 64 bits together on the planes (no count
;; is taken out of them).
;; Layout: `sh` the elements, `off` docs + 1 u32 offsets counted in elements, `out` docs u64 fingerprints,
;; `planes` 32 u64 of scratch.
(module
  (memory (export "memory") 1)

  ;; Adds the 3-bit sliced counts (c0, c1, c2) into the planes at q, carries rippling on.
  (func $flush (param $q i32) (param $c0 i64) (param $c1 i64) (param $c2 i64)
    (local $a i64) (local $carry i64)
    (local.set $a (i64.load (local.get $q)))
    (i64.store (local.get $q) (i64.xor (local.get $a) (local.get $c0)))
    (local.set $carry (i64.and (local.get $a) (local.get $c0)))
    (local.set $a (i64.load offset=8 (local.get $q)))
    (i64.store offset=8 (local.get $q) (i64.xor (i64.xor (local.get $a) (local.get $c1)) (local.get $carry)))
    (local.set $carry
      (i64.or (i64.and (local.get $a) (local.get $c1)) (i64.and (local.get $carry) (i64.xor (local.get $a) (local.get $c1)))))
    (local.set $a (i64.load offset=16 (local.get $q)))
    (i64.store offset=16 (local.get $q) (i64.xor (i64.xor (local.get $a) (local.get $c2)) (local.get $carry)))
    (local.set $carry
      (i64.or (i64.and (local.get $a) (local.get $c2)) (i64.and (local.get $carry) (i64.xor (local.get $a) (local.get $c2)))))
    (local.set $q (i32.add (local.get $q) (i32.const 24)))
    (block $rippled
      (loop $ripple
        (br_if $rippled (i64.eqz (local.get $carry)))
        (local.set $a (i64.load (local.get $q)))
        (i64.store (local.get $q) (i64.xor (local.get $a) (local.get $carry)))
        (local.set $carry (i64.and (local.get $a) (local.get $carry)))
        (local.set $q (i32.add (local.get $q) (i32.const 8)))
        (br $ripple))))

  (func (export "fingerprints")
    (param $keyLo i32) (param $keyHi i32) (param $sh i32) (param $off i32) (param $docs i32) (param $out i32)
    (param $planes i32)
    (local $d i32) (local $p i32) (local $end i32) (local $q i32) (local $i i32) (local $n i64) (local $count i64)
    (local $key i64) (local $z i64) (local $carry i64) (local $plane i64) (local $f i64)
    (local $c0 i64) (local $c1 i64) (local $c2 i64) (local $k i32)
    (local.set $key
      (i64.add
        (i64.or (i64.shl (i64.extend_i32_u (local.get $keyHi)) (i64.const 32)) (i64.extend_i32_u (local.get $keyLo)))
        (i64.const 0x9e3779b97f4a7c15)))
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $p (i32.add (local.get $sh) (i32.shl (i32.load (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (local.set $end (i32.add (local.get $sh) (i32.shl (i32.load offset=4 (i32.add (local.get $off) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 3))))
        (local.set $n (i64.extend_i32_u (i32.shr_u (i32.sub (local.get $end) (local.get $p)) (i32.const 3))))
        (memory.fill (local.get $planes) (i32.const 0) (i32.const 256))
        (block $elementsDone
          (loop $element
            (br_if $elementsDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $z (i64.add (i64.load (local.get $p)) (local.get $key)))
            (local.set $z (i64.mul (i64.xor (local.get $z) (i64.shr_u (local.get $z) (i64.const 30))) (i64.const 0xbf58476d1ce4e5b9)))
            (local.set $z (i64.mul (i64.xor (local.get $z) (i64.shr_u (local.get $z) (i64.const 27))) (i64.const 0x94d049bb133111eb)))
            (local.set $carry (i64.xor (local.get $z) (i64.shr_u (local.get $z) (i64.const 31))))
            ;; h into the 3-plane counter (c0, c1, c2) held in locals, without a branch; every 7 elements it
            ;; is added into the planes.
            (local.set $z (i64.and (local.get $c0) (local.get $carry)))
            (local.set $c0 (i64.xor (local.get $c0) (local.get $carry)))
            (local.set $c2 (i64.xor (local.get $c2) (i64.and (local.get $c1) (local.get $z))))
            (local.set $c1 (i64.xor (local.get $c1) (local.get $z)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (if (i32.eq (local.get $k) (i32.const 7))
              (then
                (call $flush (local.get $planes) (local.get $c0) (local.get $c1) (local.get $c2))
                (local.set $c0 (i64.const 0)) (local.set $c1 (i64.const 0)) (local.set $c2 (i64.const 0))
                (local.set $k (i32.const 0))))
            (local.set $p (i32.add (local.get $p) (i32.const 8)))
            (br $element)))
        (call $flush (local.get $planes) (local.get $c0) (local.get $c1) (local.get $c2))
        (local.set $c0 (i64.const 0)) (local.set $c1 (i64.const 0)) (local.set $c2 (i64.const 0))
        (local.set $k (i32.const 0))
        ;; The majority of all 64 bits at once: count_i > floor(n / 2), i.e. 2·count_i > n, compared bit-sliced from
        ;; the top plane that n can reach down to plane 0: $f the bits already greater, $carry those still equal.
        (local.set $count (i64.shr_u (local.get $n) (i64.const 1)))
        (local.set $f (i64.const 0))
        (local.set $carry (i64.const -1))
        (local.set $i (i32.sub (i32.const 64) (i32.wrap_i64 (i64.clz (local.get $n)))))
        (block $compared
          (loop $compare
            (br_if $compared (i32.eqz (local.get $i)))
            (local.set $i (i32.sub (local.get $i) (i32.const 1)))
            (local.set $plane (i64.load (i32.add (local.get $planes) (i32.shl (local.get $i) (i32.const 3)))))
            (if (i64.eqz (i64.and (i64.shr_u (local.get $count) (i64.extend_i32_u (local.get $i))) (i64.const 1)))
              (then
                (local.set $f (i64.or (local.get $f) (i64.and (local.get $carry) (local.get $plane))))
                (local.set $carry (i64.and (local.get $carry) (i64.xor (local.get $plane) (i64.const -1)))))
              (else (local.set $carry (i64.and (local.get $carry) (local.get $plane)))))
            (br $compare)))
        (i64.store (i32.add (local.get $out) (i32.shl (local.get $d) (i32.const 3))) (local.get $f))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $doc)))))
