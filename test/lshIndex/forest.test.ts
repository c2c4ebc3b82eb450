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
    const { trees, depth } = forest.shape;
    const queries = [0, 1, 250, 251, 599].map((r) =>
      forest.data.fingerprints.slice(r * forest.slots, (r + 1) * forest.slots),
    );
    queries.push(new Uint16Array(forest.slots).fill(7));
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
    expect(nonEmpty).toBeGreaterThan(100);
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
