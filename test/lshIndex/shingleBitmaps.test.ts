/**
 * The rows' shingle bitmaps (src/lshIndex/shingleBitmaps.ts) rule a row out
 * only where its set would: what they count as surely missing never exceeds
 * what the row lacks, the thresholds they are compared with are the exact
 * ones, and containment and top-K answer with them what they answer without
 * them (a forest whose bitmaps are all ones rules nothing out), planted rows
 * at the boundary included, while reading fewer sets.
 */
import { describe, expect, it } from 'vitest';
import { containmentMatches } from '../../src/lshIndex/containment.js';
import { fingerprintsOf, forestShape, PrefixForest } from '../../src/lshIndex/forest.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { RowScorer } from '../../src/lshIndex/rowScorer.js';
import { MemorySegment, type IndexSegment } from '../../src/lshIndex/segment.js';
import {
  BITMAP_WORDS,
  fillBitmaps,
  missingBelow,
  missingBelowContainment,
  queryBits,
  setBits,
  surelyMissing,
  worthTesting,
} from '../../src/lshIndex/shingleBitmaps.js';
import { inlineIndexSigner, signTexts } from '../../src/lshIndex/signing.js';
import { topMatches } from '../../src/lshIndex/topK.js';
import { rng } from './queryCorpus.js';

const parameters = resolveParameters({ storeSets: true });

const randomWords = (random: () => number, n: number, prefix = 'w'): string[] =>
  Array.from({ length: n }, () => `${prefix}${Math.floor(random() * 1e9)}`);

/** A set of `n` random shingles as (lo, hi) pairs. */
function randomSet(random: () => number, n: number): Uint32Array {
  const set = new Uint32Array(2 * n);
  for (let i = 0; i < set.length; i++) set[i] = Math.floor(random() * 2 ** 32);
  return set;
}

describe('shingle bitmaps: the bounds', () => {
  it('worthTesting: a family row near the K-th is not tested, a row well below it is (a cost gate, not a bound)', () => {
    const random = rng(3);
    // How often a row of 300 shingles at Jaccard j with a query of 300 is ruled out against `kth` by its bitmap.
    const ruledOut = (j: number, kth: number): number => {
      const common = Math.round((j * 600) / (1 + j));
      let out = 0;
      for (let trial = 0; trial < 50; trial++) {
        const query = randomSet(random, 300);
        const row = new Uint32Array([...query.subarray(0, 2 * common), ...randomSet(random, 300 - common)]);
        const bitmaps = new Uint32Array(BITMAP_WORDS);
        setBits(row, 0, row.length, bitmaps, 0);
        const lack = missingBelow(kth, 300, 300);
        if (surelyMissing(bitmaps, 0, queryBits(query), lack) >= lack) out++;
      }
      return out / 50;
    };
    // Issue 39's family queries: rows at 0.38–0.45 read against a K-th of 0.446 are never ruled out: not tested.
    expect(ruledOut(0.4, 0.446)).toBe(0);
    expect(worthTesting(0.4, 128, 0.446, 300, 300)).toBe(false);
    // A near copy's K-th (0.9) rules out rows at 0.8, and a K-th of 0.45 rows at 0.25: tested.
    expect(ruledOut(0.8, 0.9)).toBeGreaterThan(0.9);
    expect(worthTesting(0.8, 128, 0.9, 300, 300)).toBe(true);
    expect(ruledOut(0.25, 0.45)).toBeGreaterThan(0.9);
    expect(worthTesting(0.25, 128, 0.45, 300, 300)).toBe(true);
  });

  it('missingBelow is the least missing count at which every possible common gives Jaccard < K-th', () => {
    const random = rng(11);
    const wrong: object[] = [];
    for (let trial = 0; trial < 3000; trial++) {
      const q = 1 + Math.floor(random() * 60);
      const x = Math.floor(random() * 80);
      // K-ths on the grid of possible Jaccards as well as between them (ties are where an off-by-one shows).
      const kth =
        trial % 2 === 0
          ? random()
          : (() => {
              const c = Math.floor(random() * (Math.min(q, x) + 1));
              return c / (q + x - c);
            })();
      const below = (m: number): boolean => {
        const common = Math.min(q - m, x);
        return common / (q + x - common) < kth;
      };
      const m = missingBelow(kth, q, x);
      for (let n = 0; n <= q; n++) if (below(n) !== n >= m) wrong.push({ q, x, kth, n, m });
    }
    expect(wrong).toEqual([]);
  });

  it('missingBelowContainment is the least missing count at which common / q < C', () => {
    const wrong: object[] = [];
    for (let q = 1; q <= 120; q++)
      for (const c of [0.5, 0.7, 0.75, 0.8, 0.9, 0.95, 1, 0.8 + 1e-12, 1 / 3]) {
        const least = missingBelowContainment(c, q);
        for (let m = 0; m <= q; m++) if ((q - m) / q < c !== m >= least) wrong.push({ q, c, m, least });
      }
    expect(wrong).toEqual([]);
  });

  it('never counts more of the query missing than the row lacks (sets of 1 to 3,000 shingles)', () => {
    const random = rng(3);
    for (let trial = 0; trial < 300; trial++) {
      const q = randomSet(random, 1 + Math.floor(random() * 400));
      const shared = Math.floor(random() * (q.length / 2 + 1));
      // The row: `shared` of the query's shingles and up to 3,000 others (a full bitmap as well as a sparse one).
      const row = new Uint32Array([...q.subarray(0, 2 * shared), ...randomSet(random, Math.floor(random() * 3000))]);
      const bitmaps = new Uint32Array(BITMAP_WORDS * 2);
      const segment = { count: 2, readSet: (r: number) => (r === 1 ? row : new Uint32Array(0)) };
      fillBitmaps(segment as unknown as IndexSegment, bitmaps);
      const lacks = q.length / 2 - shared;
      const counted = surelyMissing(bitmaps, 1, queryBits(q), q.length);
      expect(counted).toBeLessThanOrEqual(lacks);
      expect(Math.min(2, surelyMissing(bitmaps, 1, queryBits(q), 2))).toBe(Math.min(2, counted)); // stops past `enough`
      if (row.length < 2 * 60 && lacks > 40) expect(counted).toBeGreaterThan(lacks / 2); // a sparse bitmap tells
    }
  });

  it('reads the sets in blocks where the segment can, and gives what row-by-row reads give', () => {
    const random = rng(5);
    const sets = Array.from({ length: 700 }, (_, r) =>
      randomSet(random, r % 7 === 0 ? 0 : Math.floor(random() * 5000)),
    );
    const offsets = [0];
    for (const s of sets) offsets.push(offsets[offsets.length - 1] + s.length);
    const all = new Uint32Array(offsets[offsets.length - 1]);
    sets.forEach((s, r) => all.set(s, offsets[r]));
    let bulk = 0;
    const plain = { count: sets.length, readSet: (r: number) => sets[r] } as unknown as IndexSegment;
    const blocks = {
      ...plain,
      setSize: (r: number) => sets[r].length / 2,
      readSetsInto: (from: number, to: number, into: Uint32Array) => {
        bulk++;
        expect(into.length).toBe(offsets[to] - offsets[from]);
        into.set(all.subarray(offsets[from], offsets[to]));
      },
    } as unknown as IndexSegment;
    const [a, b] = [new Uint32Array(BITMAP_WORDS * sets.length), new Uint32Array(BITMAP_WORDS * sets.length)];
    fillBitmaps(plain, a);
    fillBitmaps(blocks, b);
    expect(b).toEqual(a);
    expect(bulk).toBeGreaterThan(1);
    expect(bulk).toBeLessThan(sets.length / 10);
  });
});

/** A segment of `texts` (sets stored), a forest over it, and a view of it that counts the sets read. */
async function indexed(texts: readonly string[]) {
  const signer = inlineIndexSigner(parameters);
  const signed = await signTexts(texts, signer, parameters, true);
  const segment = new MemorySegment('seg-bitmaps', parameters, true);
  const width = signed.words.length / texts.length;
  texts.forEach((text, i) =>
    segment.append(`d${i}`, text.length, signed.words, i * width, signed.exactKeys, 4 * i, false, signed.sets![i]),
  );
  const forest = new PrefixForest(segment, parameters, forestShape(parameters.k));
  // The same forest with bitmaps that rule nothing out: what the answers were before them.
  const ones = new PrefixForest(segment, parameters, forest.shape, {
    ...forest.data,
    bitmaps: new Uint32Array(forest.data.bitmaps!.length).fill(0xffffffff),
  });
  const reads = { count: 0 };
  const counting: IndexSegment = {
    ...segment,
    name: segment.name,
    count: segment.count,
    hasSets: true,
    isRemoved: (r) => segment.isRemoved(r),
    id: (r) => segment.id(r),
    readRow: (r, out, at) => segment.readRow(r, out, at),
    readSet: (r) => {
      reads.count++;
      return segment.readSet(r);
    },
    setSize: (r) => segment.setSize(r),
    lookup: (band, lo, hi, out) => segment.lookup(band, lo, hi, out),
  };
  const query = async (text: string) => {
    const s = await signTexts([text], signer, parameters, true);
    const fingerprints = new Uint16Array(forest.slots);
    fingerprintsOf(parameters, s.words, 0, fingerprints);
    return { words: s.words, at: 0, fingerprints, set: s.sets![0] };
  };
  return { forest, ones, counting, reads, query, scorer: new RowScorer(parameters) };
}

describe('shingle bitmaps: the answers', () => {
  it('containment keeps the row holding exactly C of the query, reads fewer sets, answers as without bitmaps', async () => {
    const random = rng(21);
    const excerpt = randomWords(random, 40); // 36 shingles: C = 0.8 needs 29 of them
    const filler = () => randomWords(random, 6, 'f');
    const texts = [
      [...filler(), ...excerpt.slice(0, 33), ...filler()].join(' '), // 29 of 36: 0.806, in
      [...filler(), ...excerpt.slice(0, 32), ...filler()].join(' '), // 28 of 36: 0.778, out
      [...filler(), ...excerpt, ...filler()].join(' '), // all of it
      // Rows the forests meet that hold 55–75 % of it: candidates the bitmaps rule out.
      ...Array.from({ length: 60 }, (_, i) => [...excerpt.slice(0, 24 + (i % 8)), ...filler()].join(' ')),
    ];
    const { forest, ones, counting, reads, query, scorer } = await indexed(texts);
    const q = await query(excerpt.join(' '));
    const ask = (f: PrefixForest) => {
      reads.count = 0;
      const found = containmentMatches([counting], [f], () => undefined, { ...q, q: 36, c: 0.8 }, scorer);
      return { found, reads: reads.count };
    };
    const without = ask(ones);
    const withBitmaps = ask(forest);
    expect(withBitmaps.found).toEqual(without.found);
    expect(withBitmaps.found.map((m) => [m.id, m.exactContainment])).toEqual([
      ['d2', 1],
      ['d0', 29 / 36],
    ]);
    expect(withBitmaps.reads).toBeLessThan(without.reads / 4);
  });

  it('top-K answers as without bitmaps (sets and scores, ties at the K-th), reading fewer sets', async () => {
    const random = rng(8);
    const base = randomWords(random, 240);
    // Copies with 1–25 words replaced, far apart (each costs 5 shingles), three each at other places: equal Jaccards
    // with other agreements (ties at the K-th). And runs of the base (sets smaller than the query's, J = x / q).
    const texts = Array.from({ length: 75 }, (_, i) => {
      const words = [...base];
      for (let j = 0; j < 1 + (i % 25); j++) words[5 + 2 * Math.floor(i / 25) + 6 * j] = `x${i}-${j}`;
      return words.join(' ');
    });
    for (let cut = 1; cut <= 30; cut++)
      texts.push(base.slice(cut % 2 === 0 ? cut : 0, 240 - (cut % 2) * cut).join(' '));
    const { forest, ones, counting, reads, query, scorer } = await indexed(texts);
    const q = await query(base.join(' '));
    const ask = (f: PrefixForest, top: number) => {
      reads.count = 0;
      const found = topMatches([counting], [f], () => undefined, q, top, 'exact', scorer);
      return { found, reads: reads.count };
    };
    const read = { without: 0, with: 0 };
    for (const top of [1, 2, 3, 4, 5, 7, 10, 15, 20]) {
      const without = ask(ones, top);
      const withBitmaps = ask(forest, top);
      expect([top, withBitmaps.found]).toEqual([top, without.found]);
      expect(withBitmaps.found).toHaveLength(top);
      read.without += without.reads;
      read.with += withBitmaps.reads;
    }
    expect(read.with).toBeLessThan(0.8 * read.without);
  });
});
