;; The windows of a round (src/substrings/windowHash.ts, forEachWindow, bit for bit): for each document
;; of a staged batch, the rolling hash of every window of $L bytes inside it, two polynomial lanes mod 2^32
;; (a·0x01000193 + byte, b·0x5bd1e995 + byte; rolled by subtracting the outgoing byte times base^(L−1),
;; $dropA / $dropB), the key murmur3's fmix32 of lane a; a window whose key is in [$lo, $hi] (unsigned,
;; inclusive) and, when $filter is not 0, whose bit key >> 8 is set in the 2^24-bit map at $filter, is
;; written to $out as three u32: key, lane b, $base + its offset in the batch.
;; Layout: $src the batch's bytes; $bounds a (start, end) pair of u32 offsets into them per document; returns the windows written.
(module
  (memory (export "memory") 1)

  (func $mix (param $h i32) (result i32)
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  (func (export "windows")
    (param $src i32) (param $bounds i32) (param $docs i32) (param $L i32) (param $dropA i32) (param $dropB i32)
    (param $lo i32) (param $hi i32) (param $filter i32) (param $out i32) (param $base i32) (result i32)
    (local $d i32) (local $s i32) (local $e i32) (local $p i32) (local $i i32) (local $a i32) (local $b i32)
    (local $key i32) (local $n i32) (local $at i32) (local $old i32) (local $new i32)
    (block $done
      (loop $doc
        (br_if $done (i32.ge_u (local.get $d) (local.get $docs)))
        (local.set $s (i32.load (i32.add (local.get $bounds) (i32.shl (local.get $d) (i32.const 3)))))
        (local.set $e (i32.load offset=4 (i32.add (local.get $bounds) (i32.shl (local.get $d) (i32.const 3)))))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br_if $doc (i32.lt_u (i32.sub (local.get $e) (local.get $s)) (local.get $L)))
        ;; The first window's lanes.
        (local.set $a (i32.const 0))
        (local.set $b (i32.const 0))
        (local.set $i (local.get $s))
        (loop $first
          (local.set $new (i32.load8_u (i32.add (local.get $src) (local.get $i))))
          (local.set $a (i32.add (i32.mul (local.get $a) (i32.const 0x01000193)) (local.get $new)))
          (local.set $b (i32.add (i32.mul (local.get $b) (i32.const 0x5bd1e995)) (local.get $new)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $first (i32.lt_u (local.get $i) (i32.add (local.get $s) (local.get $L)))))
        (local.set $p (local.get $s))
        (block $last
          (loop $window
            (local.set $key (call $mix (local.get $a)))
            (if (i32.and
                  (i32.and (i32.ge_u (local.get $key) (local.get $lo)) (i32.le_u (local.get $key) (local.get $hi)))
                  (i32.or (i32.eqz (local.get $filter))
                    (i32.ne (i32.const 0)
                      (i32.and (i32.load8_u (i32.add (local.get $filter) (i32.shr_u (local.get $key) (i32.const 11))))
                        (i32.shl (i32.const 1) (i32.and (i32.shr_u (local.get $key) (i32.const 8)) (i32.const 7)))))))
              (then
                (local.set $at (i32.add (local.get $out) (i32.mul (local.get $n) (i32.const 12))))
                (i32.store (local.get $at) (local.get $key))
                (i32.store offset=4 (local.get $at) (local.get $b))
                (i32.store offset=8 (local.get $at) (i32.add (local.get $base) (local.get $p)))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))))
            (br_if $last (i32.ge_u (i32.add (local.get $p) (local.get $L)) (local.get $e)))
            (local.set $old (i32.load8_u (i32.add (local.get $src) (local.get $p))))
            (local.set $new (i32.load8_u (i32.add (local.get $src) (i32.add (local.get $p) (local.get $L)))))
            (local.set $a (i32.add (i32.mul (i32.sub (local.get $a) (i32.mul (local.get $old) (local.get $dropA))) (i32.const 0x01000193)) (local.get $new)))
            (local.set $b (i32.add (i32.mul (i32.sub (local.get $b) (i32.mul (local.get $old) (local.get $dropB))) (i32.const 0x5bd1e995)) (local.get $new)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $window)))
        (br $doc)))
    (local.get $n))
)
