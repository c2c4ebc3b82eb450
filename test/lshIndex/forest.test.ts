/**
 * The LSH Forest's prefix search (`PrefixForest.range`): for every tree,
 * size partition and prefix length, the positions it finds are exactly those
 * a scan of the partition finds — on rows drawn from a few values, so that
 * ranges are long (a family) as well as empty or single.
 */
import { describe, expect, it } from 'vitest';
import { forestShape, PrefixForest } from '../../src/lshIndex/forest.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { MemorySegment, rowWidthOf } from '../../src/lshIndex/segment.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Checks every range of each query (each tree, partition and prefix length, longest first and shortest first) against
 * a scan of the partition; the count of non-empty ones.
 */
function scannedRanges(forest: PrefixForest, queries: readonly Uint16Array[]): number {
  const { trees, depth } = forest.shape;
  let nonEmpty = 0;
  // Each query's prefixes longest first (each range widened from the one before, as a descent asks) and shortest
  // first (each searched afresh): the same positions, and where none share the prefix, where it would go.
  for (const order of [
    [4, 3, 2, 1],
    [1, 2, 3, 4],
  ])
    for (const query of queries) {
      forest.beginQuery();
      for (let t = 0; t < trees; t++)
        for (let part = 0; part < forest.partitions; part++)
          for (const r of order.filter((r) => r <= depth)) {
            const found: number[] = [];
            let before = forest.data.starts[part]; // where the prefix would go
            for (let i = forest.data.starts[part]; i < forest.data.starts[part + 1]; i++) {
              const at = forest.data.sorted[t * forest.data.banded + i] * forest.slots + t * depth;
              let same = true;
              let less = false;
              for (let j = 0; j < r && same; j++) {
                same = forest.data.fingerprints[at + j] === query[t * depth + j];
                less = forest.data.fingerprints[at + j] < query[t * depth + j];
              }
              if (same) found.push(i);
              else if (less) before = i + 1;
            }
            const [lo, hi] = forest.range(t, part, query, r);
            if (found.length > 0) {
              nonEmpty++;
              expect([lo, hi]).toEqual([found[0], found[found.length - 1] + 1]);
            } else expect([r, lo, hi]).toEqual([r, before, before]);
          }
    }
  return nonEmpty;
}

describe('PrefixForest.range', () => {
  it('finds exactly the positions whose first r fingerprints are the query’s, in every tree and partition', () => {
    const parameters = resolveParameters({ k: 16 });
    const width = rowWidthOf(parameters);
    const segment = new MemorySegment('seg-test', parameters, false);
    const random = rng(7);
    const row = new Uint32Array(width);
    const key = new Uint32Array(4);
    for (let r = 0; r < 600; r++) {
      // Few distinct values (and a family of 200 identical rows): long, short and empty ranges.
      for (let w = 0; w < width; w++) row[w] = r < 200 ? 5 + (w % 3) : Math.floor(random() * (r % 2 ? 3 : 40000));
      segment.append(`d${r}`, 1, row, 0, key, 0, false, undefined);
    }
    const forest = new PrefixForest(segment, parameters, forestShape(parameters.k));
    const queries = [0, 1, 250, 251, 599].map((r) =>
      forest.data.fingerprints.slice(r * forest.slots, (r + 1) * forest.slots),
    );
    queries.push(new Uint16Array(forest.slots).fill(7));
    expect(scannedRanges(forest, queries)).toBeGreaterThan(100);
  });

  it('sketchAgreement bounds the fingerprint agreement from above, and rarely by more than a slot', () => {
    const parameters = resolveParameters({ k: 128 });
    const width = rowWidthOf(parameters);
    const segment = new MemorySegment('seg-sketch', parameters, false);
    const random = rng(11);
    const base = Uint32Array.from({ length: width }, () => Math.floor(random() * 2 ** 32));
    const row = new Uint32Array(width);
    const key = new Uint32Array(4);
    for (let r = 0; r < 300; r++) {
      // Rows share a growing share of the base row's slots: agreements from none to all.
      for (let w = 0; w < width; w++) row[w] = random() < r / 300 ? base[w] : Math.floor(random() * 2 ** 32);
      segment.append(`d${r}`, 1, row, 0, key, 0, false, undefined);
    }
    const forest = new PrefixForest(segment, parameters, forestShape(parameters.k));
    const query = forest.data.fingerprints.slice(299 * forest.slots, 300 * forest.slots);
    let slack = 0;
    for (let r = 0; r < 300; r++) {
      const exact = Math.round(forest.agreement(r, query) * forest.slots);
      const bound = forest.sketchAgreement(r, query);
      expect(bound).toBeGreaterThanOrEqual(exact);
      slack += bound - exact;
    }
    expect(forest.sketchAgreement(299, query)).toBe(forest.slots);
    expect(slack / 300).toBeLessThan(1.5); // 1/256 of the ≤ 128 disagreeing slots, on average
  });
});

/** A slot word (64-bit slots, high word 0) whose forest fingerprint (forestBuild.ts) is `print`. */
function slotOf(print: number): number {
  const c = 0x9e3779b1;
  let inverse = c; // c · inverse = 1 mod 2^32, by Newton's iteration
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(c, inverse));
  return Math.imul(print << 16, inverse) >>> 0;
}

describe('PrefixForest.range past the prefix keys', () => {
  it('tells apart prefixes whose keys are equal: the first fingerprint equal, the second alike in its top bits', () => {
    // Every row in one first-fingerprint bucket (0x1234, 0x1235), second fingerprints differing only below the
    // 10 bits a key keeps (or in them), so that searches compare keys equal and must read the fingerprints.
    for (const k of [16, 2, 1]) {
      const parameters = resolveParameters({ k, lsh: { bands: k, rows: 1 } });
      const segment = new MemorySegment(`seg-keys-${k}`, parameters, false);
      const random = rng(k);
      const row = new Uint32Array(rowWidthOf(parameters));
      const pick = (values: readonly number[]): number => values[Math.floor(random() * values.length)];
      for (let r = 0; r < 400; r++) {
        for (let s = 0; s < k; s++) {
          const print = [pick([0x1234, 0x1235]), pick([0xabc1, 0xabc2, 0xabe8, 0xab81]), pick([1, 2, 70])][s % 4] ?? 9;
          row[2 * s] = slotOf(print);
        }
        segment.append(`d${r}`, 1, row, 0, new Uint32Array(4), 0, false, undefined);
      }
      const forest = new PrefixForest(segment, parameters, forestShape(k));
      expect(forest.data.fingerprints[0] >>> 1).toBe(0x1234 >>> 1);
      const queries = [0, 7, 399].map((r) => forest.data.fingerprints.slice(r * forest.slots, (r + 1) * forest.slots));
      // Prefixes no row has: a second fingerprint between two rows' (equal keys), and one past them all.
      for (const second of [0xabc3, 0xabc0, 0xabff]) {
        const query = queries[0].slice();
        for (let t = 0; t < forest.shape.trees && forest.shape.depth > 1; t++)
          query[t * forest.shape.depth + 1] = second;
        queries.push(query);
      }
      expect(scannedRanges(forest, queries)).toBeGreaterThan(10);
    }
  });
});
