;; Shingling, step 2 of the hash family, over the UTF-8 bytes of an already normalized
;; (lowercased, NFKC, punctuation-stripped as asked) text; see src/shingles/shingles.ts.
;;
;; shingle(len, mode, n, out) reads bytes [0, len) (valid UTF-8: TextEncoder's output, lone
;; surrogates already U+FFFD), writes each window's FNV-1a 64 mod P (u64) to out, out + 8, ...
;; in window order (repeats included) and returns the number of windows; tokens() then gives
;; the token count. It first compacts the bytes in place: runs of Unicode White_Space dropped,
;; tokens joined by one 0x20, plus one after the last token in word mode. Then
;;   word (mode 0): windows of n tokens, each followed by its space;
;;   char (mode 1): windows of n code points of the joined text;
;; T tokens (or C code points) < n give one window of all of them; no tokens give none.
;; `out` must leave room for max(1, len) u64 values after the compacted text.
(module
  (memory (export "memory") 1)
  (global $tokens (mut i32) (i32.const 0))

  (func (export "tokens") (result i32) (global.get $tokens))

  ;; Bytes of the White_Space code point starting at i (< len), or 0. White_Space in UTF-8:
  ;; 09–0D, 20; U+0085 C2 85, U+00A0 C2 A0; U+1680 E1 9A 80; U+2000–200A E2 80 80–8A,
  ;; U+2028/2029 E2 80 A8/A9, U+202F E2 80 AF, U+205F E2 81 9F; U+3000 E3 80 80.
  (func $space (param $i i32) (param $len i32) (result i32)
    (local $b i32) (local $c i32) (local $d i32)
    (local.set $b (i32.load8_u (local.get $i)))
    (if (i32.lt_u (local.get $b) (i32.const 0x80))
      (then (return (select (i32.const 1) (i32.const 0)
        (i32.or (i32.eq (local.get $b) (i32.const 0x20)) (i32.lt_u (i32.sub (local.get $b) (i32.const 0x09)) (i32.const 5)))))))
    (if (i32.lt_u (local.get $b) (i32.const 0xc2)) (then (return (i32.const 0))))
    (if (i32.gt_u (local.get $b) (i32.const 0xe3)) (then (return (i32.const 0))))
    (if (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $len)) (then (return (i32.const 0))))
    (local.set $c (i32.load8_u offset=1 (local.get $i)))
    (if (i32.eq (local.get $b) (i32.const 0xc2))
      (then (return (select (i32.const 2) (i32.const 0)
        (i32.or (i32.eq (local.get $c) (i32.const 0x85)) (i32.eq (local.get $c) (i32.const 0xa0)))))))
    (if (i32.lt_u (local.get $b) (i32.const 0xe1)) (then (return (i32.const 0))))
    (if (i32.ge_u (i32.add (local.get $i) (i32.const 2)) (local.get $len)) (then (return (i32.const 0))))
    (local.set $d (i32.load8_u offset=2 (local.get $i)))
    (if (i32.eq (local.get $b) (i32.const 0xe1))
      (then (return (select (i32.const 3) (i32.const 0)
        (i32.and (i32.eq (local.get $c) (i32.const 0x9a)) (i32.eq (local.get $d) (i32.const 0x80)))))))
    (if (i32.eq (local.get $b) (i32.const 0xe3))
      (then (return (select (i32.const 3) (i32.const 0)
        (i32.and (i32.eq (local.get $c) (i32.const 0x80)) (i32.eq (local.get $d) (i32.const 0x80)))))))
    (if (i32.eq (local.get $b) (i32.const 0xe2))
      (then
        (if (i32.eq (local.get $c) (i32.const 0x80))
          (then (return (select (i32.const 3) (i32.const 0)
            (i32.or (i32.or (i32.lt_u (i32.sub (local.get $d) (i32.const 0x80)) (i32.const 11))
                            (i32.lt_u (i32.sub (local.get $d) (i32.const 0xa8)) (i32.const 2)))
                    (i32.eq (local.get $d) (i32.const 0xaf)))))))
        (return (select (i32.const 3) (i32.const 0)
          (i32.and (i32.eq (local.get $c) (i32.const 0x81)) (i32.eq (local.get $d) (i32.const 0x9f)))))))
    (i32.const 0))

  ;; FNV-1a 64 of bytes [from, to), mod P = 2^61 − 1.
  (func $fnv (param $from i32) (param $to i32) (result i64)
    (local $h i64)
    (local.set $h (i64.const 0xcbf29ce484222325))
    (block $end
      (loop $byte
        (br_if $end (i32.ge_u (local.get $from) (local.get $to)))
        (local.set $h (i64.mul (i64.xor (local.get $h) (i64.load8_u (local.get $from))) (i64.const 0x100000001b3)))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $byte)))
    ;; v ≡ (v & P) + (v >> 61) < P + 8, then one conditional subtraction.
    (local.set $h (i64.add (i64.and (local.get $h) (i64.const 0x1fffffffffffffff)) (i64.shr_u (local.get $h) (i64.const 61))))
    (select (i64.sub (local.get $h) (i64.const 0x1fffffffffffffff)) (local.get $h)
      (i64.ge_u (local.get $h) (i64.const 0x1fffffffffffffff))))

  (func (export "shingle") (param $len i32) (param $mode i32) (param $n i32) (param $out i32) (result i32)
    (local $i i32) (local $w i32) (local $s i32) (local $inToken i32) (local $t i32)
    (local $units i32) (local $span i32) (local $windows i32) (local $ws i32) (local $we i32) (local $k i32)
    ;; Compact in place (w ≤ i throughout).
    (block $compacted
      (loop $scan
        (br_if $compacted (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $s (call $space (local.get $i) (local.get $len)))
        (if (local.get $s)
          (then
            (local.set $inToken (i32.const 0))
            (local.set $i (i32.add (local.get $i) (local.get $s))))
          (else
            (if (i32.eqz (local.get $inToken))
              (then
                (if (local.get $t) (then
                  (i32.store8 (local.get $w) (i32.const 0x20))
                  (local.set $w (i32.add (local.get $w) (i32.const 1)))))
                (local.set $t (i32.add (local.get $t) (i32.const 1)))
                (local.set $inToken (i32.const 1))))
            (i32.store8 (local.get $w) (i32.load8_u (local.get $i)))
            (local.set $w (i32.add (local.get $w) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))))
        (br $scan)))
    (global.set $tokens (local.get $t))
    (if (i32.eqz (local.get $t)) (then (return (i32.const 0))))
    (if (i32.eqz (local.get $mode))
      (then
        (i32.store8 (local.get $w) (i32.const 0x20))
        (local.set $w (i32.add (local.get $w) (i32.const 1)))
        (local.set $units (local.get $t)))
      (else
        ;; Code points: bytes that are not continuation bytes (10xxxxxx).
        (local.set $i (i32.const 0))
        (loop $count
          (local.set $units (i32.add (local.get $units)
            (i32.ne (i32.and (i32.load8_u (local.get $i)) (i32.const 0xc0)) (i32.const 0x80))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $count (i32.lt_u (local.get $i) (local.get $w))))))
    (local.set $span (select (local.get $n) (local.get $units) (i32.lt_u (local.get $n) (local.get $units))))
    (local.set $windows (i32.add (i32.sub (local.get $units) (local.get $span)) (i32.const 1)))
    ;; The first window [0, we): span units.
    (local.set $k (local.get $span))
    (loop $first
      (local.set $we (call $advance (local.get $we) (local.get $w) (local.get $mode)))
      (local.set $k (i32.sub (local.get $k) (i32.const 1)))
      (br_if $first (local.get $k)))
    (local.set $k (i32.const 0))
    (loop $window
      (i64.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 3))) (call $fnv (local.get $ws) (local.get $we)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (if (i32.lt_u (local.get $k) (local.get $windows))
        (then
          (local.set $ws (call $advance (local.get $ws) (local.get $w) (local.get $mode)))
          (local.set $we (call $advance (local.get $we) (local.get $w) (local.get $mode)))
          (br $window))))
    (local.get $windows))

  ;; One unit on from p (< end): past the next 0x20 in word mode, past one code point in char mode.
  (func $advance (param $p i32) (param $end i32) (param $mode i32) (result i32)
    (if (i32.eqz (local.get $mode))
      (then
        (loop $word
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br_if $word (i32.ne (i32.load8_u offset=0 (i32.sub (local.get $p) (i32.const 1))) (i32.const 0x20))))
        (return (local.get $p))))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (block $done
      (loop $cont
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (br_if $done (i32.ne (i32.and (i32.load8_u (local.get $p)) (i32.const 0xc0)) (i32.const 0x80)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $cont)))
    (local.get $p))
)
