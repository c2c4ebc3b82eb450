import { describe, expect, it } from 'vitest';
import { bandKey } from '../../src/bands/bandKeys.js';
import { matrixBandKeys } from '../../src/bands/bandKeySource.js';
import { BucketTable } from '../../src/bands/bucketTable.js';
import { crossPairsInBucket, findCandidates, pairsInBucket } from '../../src/bands/candidates.js';
import { PairSet } from '../../src/bands/pairSet.js';
import {
  fromSignerWords,
  isEmptySignature,
  signatureAgreement,
  signatureMatrix,
} from '../../src/bands/signatureMatrix.js';
import { randomU32, rng } from '../support/reference.js';

const K = 12;

function randomMatrix(docs: number, seed: number) {
  const next = rng(seed);
  const words = new Uint32Array(docs * K * 2);
  for (let i = 0; i < words.length; i++) words[i] = i % 2 === 1 ? randomU32(next) & 0x1fffffff : randomU32(next);
  return signatureMatrix(words, K);
}

function keyOf(m: ReturnType<typeof randomMatrix>, doc: number, band: number, rows: number): string {
  const out = new Uint32Array(2);
  bandKey(m, doc, band, { rows }, out, 0);
  return `${out[1].toString(16)}:${out[0].toString(16)}`;
}

/** Copies slots [from, to) of document `src` into document `dst`. */
function copySlots(m: ReturnType<typeof randomMatrix>, src: number, dst: number, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    m.words[(dst * K + i) * 2] = m.words[(src * K + i) * 2];
    m.words[(dst * K + i) * 2 + 1] = m.words[(src * K + i) * 2 + 1];
  }
}

describe('band keys', () => {
  it('equal band contents give equal keys, any difference or another band index a different key', () => {
    const m = randomMatrix(4, 1);
    copySlots(m, 0, 1, 3, 6); // band 1 of rows 3 equal in docs 0 and 1
    expect(keyOf(m, 0, 1, 3)).toBe(keyOf(m, 1, 1, 3));
    expect(keyOf(m, 0, 0, 3)).not.toBe(keyOf(m, 1, 0, 3));
    m.words[(1 * K + 5) * 2 + 1] ^= 1; // flip one bit of a hi word
    expect(keyOf(m, 0, 1, 3)).not.toBe(keyOf(m, 1, 1, 3));
    // The same values in band 0 and band 1 of two documents: keys differ by band index.
    for (let i = 0; i < 3; i++) {
      m.words[(3 * K + i) * 2] = m.words[(2 * K + 3 + i) * 2];
      m.words[(3 * K + i) * 2 + 1] = m.words[(2 * K + 3 + i) * 2 + 1];
    }
    expect(keyOf(m, 3, 0, 3)).not.toBe(keyOf(m, 2, 1, 3));
  });

  it('32-bit slots: the low words of the 64-bit slots, compact, and they band and compare alike', () => {
    const m = randomMatrix(2, 2);
    copySlots(m, 0, 1, 0, K);
    for (let i = 0; i < K; i++) m.words[(1 * K + i) * 2 + 1] = 12345; // doc 1 differs from doc 0 in hi words only
    expect(keyOf(m, 0, 2, 4)).not.toBe(keyOf(m, 1, 2, 4));
    expect(signatureAgreement(m, 0, 1)).toBe(0);
    const low = signatureMatrix(fromSignerWords(m.words, 32), K, 32);
    expect(low.count).toBe(2);
    expect(low.words.length).toBe(2 * K);
    expect(keyOf(low, 0, 2, 4)).toBe(keyOf(low, 1, 2, 4));
    expect(signatureAgreement(low, 0, 1)).toBe(1);
    low.words[K + 5] ^= 1;
    expect(signatureAgreement(low, 0, 1)).toBeCloseTo((K - 1) / K, 12);
    expect(keyOf(low, 0, 1, 4)).not.toBe(keyOf(low, 1, 1, 4));
    expect(isEmptySignature(signatureMatrix(new Uint32Array(K).fill(0xffffffff), K, 32), 0)).toBe(true);
  });

  it('keys spread: 2000 random bands give 2000 distinct keys', () => {
    const m = randomMatrix(2000, 3);
    expect(new Set(Array.from({ length: 2000 }, (_, d) => keyOf(m, d, 0, 4))).size).toBe(2000);
  });
});

describe('bucket table', () => {
  it('groups documents by key, members ascending, only buckets of two or more, honouring include', () => {
    const m = randomMatrix(10, 4);
    for (const d of [7, 2, 9]) copySlots(m, 5, d, 0, 4);
    copySlots(m, 1, 3, 0, 4);
    const table = new BucketTable(m.count);
    const keys = matrixBandKeys(m, { bands: 1, rows: 4 }).keysOf(0);
    const seen: number[][] = [];
    table.forEachBucket(keys, m.count, undefined, (members, size) => seen.push(Array.from(members.subarray(0, size))));
    expect(seen.sort((a, b) => a[0] - b[0])).toEqual([
      [1, 3],
      [2, 5, 7, 9],
    ]);
    const include = new Uint8Array(10).fill(1);
    include[3] = 0;
    include[5] = 0;
    const seen2: number[][] = [];
    table.forEachBucket(keys, m.count, include, (members, size) => seen2.push(Array.from(members.subarray(0, size))));
    expect(seen2).toEqual([[2, 7, 9]]);
  });

  it('groups as a map of keys does: buckets past the scratch size, keys with the top bit set, tables reused', () => {
    const next = rng(7);
    const count = 3000;
    const table = new BucketTable(count);
    for (const distinct of [40, 900]) {
      // Few distinct keys (big buckets, long probe chains) or many; every word's top bit set half the time.
      const pool = Array.from({ length: distinct }, () => [randomU32(next), randomU32(next)]);
      const keys = new Uint32Array(2 * count);
      for (let d = 0; d < count; d++) keys.set(pool[randomU32(next) % distinct], 2 * d);
      const expected = new Map<string, number[]>();
      for (let d = 0; d < count; d++) {
        const key = `${keys[2 * d]}:${keys[2 * d + 1]}`;
        expected.set(key, [...(expected.get(key) ?? []), d]);
      }
      const seen: number[][] = [];
      table.forEachBucket(keys, count, undefined, (members, size) => seen.push(Array.from(members.subarray(0, size))));
      const groups = [...expected.values()].filter((g) => g.length > 1);
      expect(seen.sort((a, b) => a[0] - b[0])).toEqual(groups.sort((a, b) => a[0] - b[0]));
      // The few keys' buckets outgrow the 16-member scratch array; the many keys' do not.
      expect(Math.max(...seen.map((g) => g.length)) > 16).toBe(distinct < 100);
    }
  });
});

describe('pairs of a bucket', () => {
  const collect = (f: (emit: (a: number, b: number) => void) => void): string[] => {
    const out: string[] = [];
    f((a, b) => out.push(`${a}-${b}`));
    return out;
  };

  it('all pairs of a small bucket', () => {
    expect(collect((emit) => pairsInBucket(Uint32Array.of(1, 4, 6), 3, 3, emit))).toEqual(['1-4', '1-6', '4-6']);
  });

  it('a big bucket gives a star around the first member plus a chain: 2m − 3 pairs, not m(m−1)/2', () => {
    const members = Uint32Array.from({ length: 1000 }, (_, i) => 3 * i);
    const pairs = collect((emit) => pairsInBucket(members, 1000, 16, emit));
    expect(pairs.length).toBe(2 * 1000 - 3);
    expect(pairs).toContain('0-2997');
    expect(pairs).toContain('2994-2997');
  });

  it('cross pairs only join reference and corpus documents', () => {
    const reference = Uint8Array.of(0, 0, 1, 0, 1);
    expect(collect((emit) => crossPairsInBucket(Uint32Array.of(0, 1, 2, 3, 4), 5, 16, reference, emit))).toEqual([
      '0-2',
      '0-4',
      '1-2',
      '1-4',
      '2-3',
      '3-4',
    ]);
    // A big bucket (size > maxBucketPairs): every corpus member with the first two reference members.
    expect(collect((emit) => crossPairsInBucket(Uint32Array.of(0, 1, 2, 3, 4), 5, 2, reference, emit))).toEqual([
      '2-0',
      '2-1',
      '2-3',
      '4-0',
      '4-1',
      '4-3',
    ]);
  });

  it('a big bucket pairs each corpus member with several references, not only the first, and stays linear', () => {
    // Members 0..99: references at 10, 20, 30, 40, 50; the rest corpus.
    const reference = new Uint8Array(100);
    for (const r of [10, 20, 30, 40, 50]) reference[r] = 1;
    const members = Uint32Array.from({ length: 100 }, (_, i) => i);
    const pairs = collect((emit) => crossPairsInBucket(members, 100, 16, reference, emit));
    expect(pairs).toContain('20-7'); // the second reference is an anchor too
    expect(pairs).toContain('40-99');
    expect(pairs.some((p) => p.startsWith('50-'))).toBe(false); // 4 anchors with maxBucketPairs 16
    expect(pairs.length).toBe(4 * 95);
  });
});

describe('pair set', () => {
  it('deduplicates unordered pairs, grows, and lists them sorted', () => {
    const set = new PairSet(5000);
    const next = rng(5);
    const truth = new Set<string>();
    for (let i = 0; i < 20000; i++) {
      const a = Math.floor(next() * 5000);
      let b = Math.floor(next() * 5000);
      if (a === b) b = (b + 1) % 5000;
      const added = set.add(a, b);
      const key = `${Math.min(a, b)}-${Math.max(a, b)}`;
      expect(added).toBe(!truth.has(key));
      truth.add(key);
    }
    const list = set.toSortedList();
    expect(list.a.length).toBe(truth.size);
    const listed = Array.from(list.a, (a, i) => `${a}-${list.b[i]}`);
    expect(new Set(listed)).toEqual(truth);
    for (let i = 1; i < list.a.length; i++) {
      expect(list.a[i - 1] < list.a[i] || (list.a[i - 1] === list.a[i] && list.b[i - 1] < list.b[i])).toBe(true);
    }
    expect(() => set.add(3, 3)).toThrow(/itself/);
  });
});

describe('findCandidates', () => {
  it('finds exactly the pairs sharing some band (brute force), never an empty document', () => {
    const docs = 300;
    const m = randomMatrix(docs, 6);
    const next = rng(7);
    const bands = 4;
    const rows = 3;
    // Plant shared bands between random pairs.
    for (let i = 0; i < 400; i++) {
      const src = Math.floor(next() * docs);
      const dst = Math.floor(next() * docs);
      const band = Math.floor(next() * bands);
      copySlots(m, src, dst, band * rows, band * rows + rows);
    }
    // Document 10 is empty: all ones, and document 11 too; they must never pair.
    m.words.fill(0xffffffff, 10 * K * 2, 12 * K * 2);
    expect(isEmptySignature(m, 10)).toBe(true);
    expect(isEmptySignature(m, 12)).toBe(false);
    const truth = new Set<string>();
    for (let a = 0; a < docs; a++) {
      for (let b = a + 1; b < docs; b++) {
        if (isEmptySignature(m, a) || isEmptySignature(m, b)) continue;
        for (let band = 0; band < bands; band++) {
          let same = true;
          for (let w = band * rows * 2; w < (band + 1) * rows * 2; w++)
            if (m.words[a * K * 2 + w] !== m.words[b * K * 2 + w]) same = false;
          if (same) {
            truth.add(`${a}-${b}`);
            break;
          }
        }
      }
    }
    expect(truth.size).toBeGreaterThan(300);
    const found = findCandidates(m, { bands, rows, maxBucketPairs: 1000 });
    expect(new Set(Array.from(found.a, (a, i) => `${a}-${found.b[i]}`))).toEqual(truth);
    expect(found.stats.bigBuckets).toBe(0);
  });

  it('big buckets stay linear', () => {
    const docs = 3000;
    const m = randomMatrix(docs, 8);
    for (let d = 1; d < docs; d++) copySlots(m, 0, d, 0, 3); // one band shared by everybody
    const found = findCandidates(m, { bands: 4, rows: 3 });
    expect(found.a.length).toBe(2 * docs - 3);
    expect(found.stats.largestBucket).toBe(docs);
  });
});
