;; The sketch bound of an LSH Forest's row (src/lshIndex/forest.ts, sketchAgreement): of a row's 128 sketch bytes
;; (the low 8 bits of its 128 slot fingerprints, forestBuild.ts) at `at` in the forest's sketch memory, how many equal
;; the query's. Eight 16-byte compares, a bitmask and a popcount each, where TypeScript takes 32 words of bit tricks
;; (issue 39: a descent to two slots at 1 M bounds ~30,000 rows a query). The sketch memory is imported, shared
;; between the server's query threads (each instantiates this module over it); the query's sketch lies in this
;; instance's globals (`setQuery`, one call a query), and each thread reads its rows in a page of its own that it
;; grew the memory by (sketchKernel.ts), so no two threads write the same bytes.
(module
  (import "forest" "sketch" (memory 0 65536 shared))
  (global $q0 (mut v128) (v128.const i64x2 0 0))
  (global $q1 (mut v128) (v128.const i64x2 0 0))
  (global $q2 (mut v128) (v128.const i64x2 0 0))
  (global $q3 (mut v128) (v128.const i64x2 0 0))
  (global $q4 (mut v128) (v128.const i64x2 0 0))
  (global $q5 (mut v128) (v128.const i64x2 0 0))
  (global $q6 (mut v128) (v128.const i64x2 0 0))
  (global $q7 (mut v128) (v128.const i64x2 0 0))

  (func (export "setQuery") (param $w0 i32) (param $w1 i32) (param $w2 i32) (param $w3 i32) (param $w4 i32) (param $w5 i32) (param $w6 i32) (param $w7 i32) (param $w8 i32) (param $w9 i32) (param $w10 i32) (param $w11 i32) (param $w12 i32) (param $w13 i32) (param $w14 i32) (param $w15 i32) (param $w16 i32) (param $w17 i32) (param $w18 i32) (param $w19 i32) (param $w20 i32) (param $w21 i32) (param $w22 i32) (param $w23 i32) (param $w24 i32) (param $w25 i32) (param $w26 i32) (param $w27 i32) (param $w28 i32) (param $w29 i32) (param $w30 i32) (param $w31 i32)
    (global.set $q0 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w0)) (local.get $w1)) (local.get $w2)) (local.get $w3)))
    (global.set $q1 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w4)) (local.get $w5)) (local.get $w6)) (local.get $w7)))
    (global.set $q2 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w8)) (local.get $w9)) (local.get $w10)) (local.get $w11)))
    (global.set $q3 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w12)) (local.get $w13)) (local.get $w14)) (local.get $w15)))
    (global.set $q4 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w16)) (local.get $w17)) (local.get $w18)) (local.get $w19)))
    (global.set $q5 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w20)) (local.get $w21)) (local.get $w22)) (local.get $w23)))
    (global.set $q6 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w24)) (local.get $w25)) (local.get $w26)) (local.get $w27)))
    (global.set $q7 (i32x4.replace_lane 3 (i32x4.replace_lane 2 (i32x4.replace_lane 1 (i32x4.splat (local.get $w28)) (local.get $w29)) (local.get $w30)) (local.get $w31))))

  (func $equal (param $at i32) (result i32)
    (i32.add (i32.add (i32.add (i32.add (i32.add (i32.add (i32.add (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=0 (local.get $at)) (global.get $q0))))
      (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $at)) (global.get $q1)))))
      (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=32 (local.get $at)) (global.get $q2)))))
      (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=48 (local.get $at)) (global.get $q3)))))
      (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=64 (local.get $at)) (global.get $q4)))))
      (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=80 (local.get $at)) (global.get $q5)))))
      (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=96 (local.get $at)) (global.get $q6)))))
      (i32.popcnt (i8x16.bitmask (i8x16.eq (v128.load offset=112 (local.get $at)) (global.get $q7))))))

  (func (export "equalBytes") (param $at i32) (result i32)
    (call $equal (local.get $at)))

  ;; Rows rows[0 … n) (u32 at `rows`) replaced by their rows' equal bytes: one call a batch, not a row.
  (func (export "bounds") (param $rows i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $rows) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $rows) (local.get $end)))
        (i32.store (local.get $rows) (call $equal (i32.shl (i32.load (local.get $rows)) (i32.const 7))))
        (local.set $rows (i32.add (local.get $rows) (i32.const 4)))
        (br $next)))))
