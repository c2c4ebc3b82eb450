;; |A ∩ B| of two shingle sets of u64 values (the (lo, hi) pairs of src/shingles, read little-endian), for exact
;; Jaccard (src/verify/exactJaccard.ts). The smaller set `a` goes into an open-addressing table, then every value
;; of `b` is looked up: what PairIndex does in TypeScript, without an allocation or a clear per pair.
;; The table is 2^bits slots of 16 bytes at `table` (the key at +0, a stamp at +8): a slot is taken when its stamp
;; equals this call's generation, so nothing is cleared between calls. Stamps sit at the same addresses whatever
;; `bits` is, so a slot never reads a stale key as a stamp; `reset` clears them when the caller's count of calls
;; would wrap the generation, or when it moves the table.
(module
  (memory (export "memory") 1)
  (global $generation (mut i32) (i32.const 0))

  (func (export "reset") (param $table i32) (param $bytes i32)
    (memory.fill (local.get $table) (i32.const 0) (local.get $bytes))
    (global.set $generation (i32.const 0)))

  (func (export "intersection")
    (param $a i32) (param $na i32) (param $b i32) (param $nb i32) (param $table i32) (param $bits i32)
    (result i32)
    (local $mask i32) (local $end i32) (local $key i64) (local $at i32)
    (local $common i32) (local $gen i32) (local $shift i64)
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $bits)) (i32.const 1)))
    (local.set $shift (i64.extend_i32_u (i32.sub (i32.const 64) (local.get $bits))))
    (local.set $gen (i32.add (global.get $generation) (i32.const 1)))
    (global.set $generation (local.get $gen))
    ;; Insert a.
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $na) (i32.const 3))))
    (block $inserted
      (loop $insert
        (br_if $inserted (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $key (i64.load (local.get $a)))
        (local.set $at (i32.wrap_i64 (i64.shr_u (i64.mul (local.get $key) (i64.const 0x9e3779b97f4a7c15)) (local.get $shift))))
        (block $placed
          (loop $probe
            (if (i32.ne (i32.load offset=8 (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4)))) (local.get $gen))
              (then
                (i32.store offset=8 (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4))) (local.get $gen))
                (i64.store (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4))) (local.get $key))
                (br $placed)))
            (br_if $placed (i64.eq (i64.load (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4)))) (local.get $key)))
            (local.set $at (i32.and (i32.add (local.get $at) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (local.set $a (i32.add (local.get $a) (i32.const 8)))
        (br $insert)))
    ;; Look up b.
    (local.set $end (i32.add (local.get $b) (i32.shl (local.get $nb) (i32.const 3))))
    (block $looked
      (loop $lookup
        (br_if $looked (i32.ge_u (local.get $b) (local.get $end)))
        (local.set $key (i64.load (local.get $b)))
        (local.set $at (i32.wrap_i64 (i64.shr_u (i64.mul (local.get $key) (i64.const 0x9e3779b97f4a7c15)) (local.get $shift))))
        (block $found
          (loop $probe
            (br_if $found (i32.ne (i32.load offset=8 (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4)))) (local.get $gen)))
            (if (i64.eq (i64.load (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4)))) (local.get $key))
              (then
                (local.set $common (i32.add (local.get $common) (i32.const 1)))
                (br $found)))
            (local.set $at (i32.and (i32.add (local.get $at) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (local.set $b (i32.add (local.get $b) (i32.const 8)))
        (br $lookup)))
    (local.get $common))

  ;; |B ∩ the table| at the current generation (what the last `intersection` inserted, its `a`), the generation
  ;; unchanged: one set's table probed by many (exactJaccard.ts: jaccardWith, a query against the rows it rescores).
  (func (export "probe") (param $b i32) (param $nb i32) (param $table i32) (param $bits i32) (result i32)
    (local $mask i32) (local $end i32) (local $key i64) (local $at i32) (local $common i32) (local $shift i64)
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $bits)) (i32.const 1)))
    (local.set $shift (i64.extend_i32_u (i32.sub (i32.const 64) (local.get $bits))))
    (local.set $end (i32.add (local.get $b) (i32.shl (local.get $nb) (i32.const 3))))
    (block $looked
      (loop $lookup
        (br_if $looked (i32.ge_u (local.get $b) (local.get $end)))
        (local.set $key (i64.load (local.get $b)))
        (local.set $at (i32.wrap_i64 (i64.shr_u (i64.mul (local.get $key) (i64.const 0x9e3779b97f4a7c15)) (local.get $shift))))
        (block $found
          (loop $probe
            (br_if $found (i32.ne (i32.load offset=8 (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4)))) (global.get $generation)))
            (if (i64.eq (i64.load (i32.add (local.get $table) (i32.shl (local.get $at) (i32.const 4)))) (local.get $key))
              (then
                (local.set $common (i32.add (local.get $common) (i32.const 1)))
                (br $found)))
            (local.set $at (i32.and (i32.add (local.get $at) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (local.set $b (i32.add (local.get $b) (i32.const 8)))
        (br $lookup)))
    (local.get $common))
)
