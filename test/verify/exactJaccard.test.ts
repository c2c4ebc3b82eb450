// The WebAssembly intersection kernel against the TypeScript reference (PairIndex) and a BigInt set: the same
// similarity to the last bit, on random sets of every size (the kernel's table grows and is reused across calls),
// edge values, and sets that share most of their values.
import { describe, expect, it } from 'vitest';
import { exactJaccard, exactJaccardTs, jaccardWith } from '../../src/verify/exactJaccard.js';
import { pairsToBigInts, rng } from '../support/reference.js';

function jaccardBigInt(x: Uint32Array, y: Uint32Array): number {
  const a = new Set(pairsToBigInts(x));
  const b = new Set(pairsToBigInts(y));
  if (Math.min(a.size, b.size) === 0) return 0;
  let common = 0;
  for (const v of a) if (b.has(v)) common++;
  return common / (a.size + b.size - common);
}

/** A deduplicated set of `n` random 64-bit values, as (lo, hi) pairs; `edge` mixes in 0 and all-ones halves. */
function randomSet(random: () => number, n: number, edge = false): Uint32Array {
  const word = (): number =>
    edge && random() < 0.3 ? [0, 0xffffffff, 1, 0x80000000][Math.floor(random() * 4)] : (random() * 2 ** 32) >>> 0;
  const seen = new Set<bigint>();
  const out: number[] = [];
  while (seen.size < n) {
    const lo = word();
    const hi = word();
    const v = (BigInt(hi) << 32n) | BigInt(lo);
    if (seen.has(v)) continue;
    seen.add(v);
    out.push(lo, hi);
  }
  return Uint32Array.from(out);
}

/** `set` with a fraction of its values replaced by new ones and its order shuffled. */
function nearCopy(random: () => number, set: Uint32Array, changed: number): Uint32Array {
  const copy = set.slice();
  const fresh = randomSet(random, set.length / 2);
  for (let i = 0; i < copy.length / 2; i++) {
    if (random() < changed) {
      copy[2 * i] = fresh[2 * i];
      copy[2 * i + 1] = fresh[2 * i + 1];
    }
  }
  for (let i = copy.length / 2 - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    for (const h of [0, 1]) [copy[2 * i + h], copy[2 * j + h]] = [copy[2 * j + h], copy[2 * i + h]];
  }
  return copy;
}

describe('exactJaccard (WebAssembly) against the TypeScript reference and BigInt sets', () => {
  it('equal to the last bit on 3,000 random pairs of sizes 0 to 5,000, near and far', () => {
    const random = rng(37);
    for (let trial = 0; trial < 3000; trial++) {
      const n = trial % 50 === 0 ? Math.floor(random() * 5000) : Math.floor(random() * 600);
      const x = randomSet(random, n, trial % 3 === 0);
      const y = trial % 4 === 0 ? randomSet(random, Math.floor(random() * 600)) : nearCopy(random, x, random() * 0.5);
      const got = exactJaccard(x, y);
      expect(got).toBe(exactJaccardTs(x, y));
      if (trial % 10 === 0) expect(got).toBe(jaccardBigInt(x, y));
      expect(exactJaccard(y, x)).toBe(got);
    }
  });

  it('1 for a set with itself or a reordered copy, 0 with an empty set', () => {
    const random = rng(5);
    for (const n of [1, 2, 3, 7, 64, 1000]) {
      const x = randomSet(random, n, true);
      expect(exactJaccard(x, x)).toBe(1);
      expect(exactJaccard(x, nearCopy(random, x, 0))).toBe(1);
      expect(exactJaccard(x, new Uint32Array(0))).toBe(0);
    }
    expect(exactJaccard(new Uint32Array(0), new Uint32Array(0))).toBe(0);
  });

  it('a large set after small ones and small ones after it: the table is reused, never read stale', () => {
    const random = rng(11);
    const sizes = [3, 40000, 2, 5, 20000, 1, 900, 3, 70000, 4];
    let previous = randomSet(random, 10);
    for (const n of sizes) {
      const x = randomSet(random, n);
      const y = nearCopy(random, x, 0.2);
      expect(exactJaccard(x, y)).toBe(jaccardBigInt(x, y));
      expect(exactJaccard(previous, y)).toBe(exactJaccardTs(previous, y));
      previous = x;
    }
  });

  it('jaccardWith(query) gives exactJaccard(query, ·) for many sets, given or read in, interleaved with other queries and pairs', () => {
    const random = rng(23);
    const queries = [randomSet(random, 300), randomSet(random, 5), randomSet(random, 3000), new Uint32Array(0)];
    const against = queries.map((q) => jaccardWith(q));
    let checked = 0;
    for (let trial = 0; trial < 2000; trial++) {
      const i = trial % 7 === 0 ? Math.floor(random() * queries.length) : 0; // mostly one query, as a rescoring reads
      const q = queries[i];
      const other =
        random() < 0.5 && q.length > 0 ? nearCopy(random, q, random()) : randomSet(random, Math.floor(random() * 700));
      // Half given as arrays, half read straight into the kernel's memory.
      const got = trial % 2 === 0 ? against[i](other) : against[i].reading(other.length, (into) => into.set(other));
      expect(got).toBe(exactJaccardTs(q, other));
      checked += q.length > 0 && exactJaccardTs(q, other) > 0 ? 1 : 0;
      // Other uses of the kernel between two rows: pairs, one past the query's table (it grows and is reset).
      if (trial % 97 === 0) {
        const big = randomSet(random, 1 + Math.floor(random() * 30000));
        const near = nearCopy(random, big, 0.3);
        expect(exactJaccard(big, near)).toBe(exactJaccardTs(big, near));
      } else if (trial % 11 === 0) exactJaccard(randomSet(random, 50), randomSet(random, 60));
    }
    expect(checked).toBeGreaterThan(500);
  });
});
