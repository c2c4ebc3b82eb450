// --weights idf: the quantization rule against its real-number statement, exact df counting against a Map, the
// table file round trip (same table, same identity; a changed byte, a cut file, another magic refused), the
// expansion into count weighting's elements, and the kernel path equal to the TypeScript reference.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  DfCounter,
  decodeIdfTable,
  encodeIdfTable,
  shinglingDifferences,
  tableOf,
} from '../../src/shingles/idfTable.js';
import { IDF_W_MAX, idfElements, idfWeight, tableDf, type IdfShingling } from '../../src/shingles/idfWeights.js';
import { DEFAULT_SHINGLE, shingleDocument, shingleDocumentReference } from '../../src/shingles/shingles.js';
import { DfSketch } from '../../src/shingles/dfSketch.js';
import { countIdfTable } from '../../src/pipeline/shared/idfPass.js';
import { bigIntsToPairs, P, pairsToBigInts, randomBelow, rng, weightedElementRef } from '../support/reference.js';
import { expectSameWords } from '../support/sameWords.js';

const SHINGLING: IdfShingling = { shingle: 'word', n: 5, nfkc: false, stripPunctuation: false };

/** The rule as stated, in real numbers: min(8, 1 + ⌊log2(N / df)⌋), df 0 → 8. */
function weightRef(documents: number, df: number): number {
  if (df === 0) return IDF_W_MAX;
  // log2 of a ratio of integers, exact at powers of two: compare df·2^j ≤ N in integers instead of trusting log2.
  let j = 0;
  while (j + 1 < IDF_W_MAX && df * 2 ** (j + 1) <= documents) j++;
  return 1 + j;
}

/** Random sets over a pool of shingles, some shared by many sets: the df of each shingle varies widely. */
function randomSets(count: number, seed: number): bigint[][] {
  const next = rng(seed);
  const pool = Array.from({ length: 3000 }, () => randomBelow(next, P));
  return Array.from({ length: count }, () => {
    const set = new Set<bigint>();
    const size = 1 + Math.floor(next() * 80);
    // Skewed towards the pool's front: its first shingles are in most sets.
    while (set.size < size) set.add(pool[Math.floor(pool.length * next() ** 4)]);
    return [...set];
  });
}

describe('the idf weight', () => {
  it('is min(8, 1 + ⌊log2(N / df)⌋), 8 for a shingle the table lacks', () => {
    expect(idfWeight(1000, 1000)).toBe(1);
    expect(idfWeight(1000, 501)).toBe(1);
    expect(idfWeight(1000, 500)).toBe(2);
    expect(idfWeight(1024, 8)).toBe(8);
    expect(idfWeight(1024, 9)).toBe(7);
    expect(idfWeight(1000, 0)).toBe(IDF_W_MAX);
    for (const documents of [1, 2, 3, 7, 127, 128, 129, 1000, 4096, 1_000_003, 0xffffffff])
      for (const df of [1, 2, 3, 5, 8, 31, 32, 33, 1000, documents >> 7, (documents >> 7) + 1, documents])
        if (df >= 1 && df <= documents)
          expect(idfWeight(documents, df), `${df} of ${documents}`).toBe(weightRef(documents, df));
  });
});

describe('DfCounter', () => {
  it('counts each set once per shingle, exactly, through its growth; keeps the shingles lighter than 8, sorted', () => {
    const sets = randomSets(900, 41);
    const counter = new DfCounter();
    const truth = new Map<bigint, number>();
    for (const set of sets) {
      counter.addSet(bigIntsToPairs(set));
      for (const g of set) truth.set(g, (truth.get(g) ?? 0) + 1);
    }
    counter.addSet(new Uint32Array(0)); // a document without shingles is not counted
    expect(counter.documents).toBe(sets.length);
    expect(counter.distinct).toBe(truth.size);
    const table = counter.table(SHINGLING);
    const light = [...truth].filter(([, df]) => idfWeight(sets.length, df) < IDF_W_MAX);
    expect(light.length).toBeGreaterThan(50);
    expect(light.length).toBeLessThan(truth.size);
    expect(table.entries.length / 3).toBe(light.length);
    for (const [g, df] of truth) {
      const [lo, hi] = bigIntsToPairs([g]);
      expect(tableDf(table, lo, hi)).toBe(idfWeight(sets.length, df) < IDF_W_MAX ? df : 0);
    }
    const keys = pairsToBigInts(table.entries.filter((_, i) => i % 3 !== 2));
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('the table file', () => {
  const table = (() => {
    const counter = new DfCounter();
    for (const set of randomSets(300, 7)) counter.addSet(bigIntsToPairs(set));
    return counter.table(SHINGLING);
  })();

  it('reads back to the same table and identity', () => {
    const bytes = encodeIdfTable(table);
    const back = decodeIdfTable(bytes, 't.idf');
    expect(back.identity).toBe(table.identity);
    expect(back.identity).toMatch(/^[0-9a-f]{32}$/);
    expect(back.documents).toBe(table.documents);
    expect(back.shingling).toEqual(SHINGLING);
    expect(back.entries).toEqual(table.entries);
    expect(encodeIdfTable(back)).toEqual(bytes);
    expect(tableOf(SHINGLING, table.documents, table.entries).identity).toBe(table.identity);
  });

  it('changes identity with any change, and refuses what is not a table', () => {
    const bytes = encodeIdfTable(table);
    const changed = bytes.slice();
    const view = new DataView(changed.buffer);
    view.setUint32(changed.length - 4, view.getUint32(changed.length - 4, true) - 1, true); // the last df, one less
    expect(decodeIdfTable(changed, 't.idf').identity).not.toBe(table.identity);
    expect(tableOf({ ...SHINGLING, n: 4 }, table.documents, table.entries).identity).not.toBe(table.identity);
    expect(() => decodeIdfTable(bytes.subarray(0, bytes.length - 4), 't.idf')).toThrow(
      /t.idf: not a gpudedup idf table \(its length/,
    );
    const other = bytes.slice();
    other[0] = 0x47;
    expect(() => decodeIdfTable(other, 't.idf')).toThrow(/does not start with/);
    expect(shinglingDifferences(SHINGLING, { ...SHINGLING, n: 3 })).toEqual(['n: 5 in the table vs 3']);
  });
});

describe('idf elements', () => {
  it('a shingle of weight w is the elements (g, 0) … (g, w − 1); Jaccard of the elements is the idf-weighted Jaccard', () => {
    const sets = randomSets(400, 3);
    const counter = new DfCounter();
    for (const set of sets) counter.addSet(bigIntsToPairs(set));
    const table = counter.table(SHINGLING);
    const weightOf = (g: bigint): number => {
      const [lo, hi] = bigIntsToPairs([g]);
      return idfWeight(table.documents, tableDf(table, lo, hi));
    };
    const weights = new Set<number>();
    for (const set of sets.slice(0, 40)) {
      const expected = set.flatMap((g) => Array.from({ length: weightOf(g) }, (_, j) => weightedElementRef(g, j)));
      set.forEach((g) => weights.add(weightOf(g)));
      expect(pairsToBigInts(idfElements(bigIntsToPairs(set), table))).toEqual(expected);
    }
    expect([...weights].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (let p = 0; p < 40; p += 2) {
      const [a, b] = [sets[p], sets[p + 1]];
      const inB = new Set(b);
      const union = new Set([...a, ...b]);
      const shared = a.filter((g) => inB.has(g)).reduce((s, g) => s + weightOf(g), 0);
      const all = [...union].reduce((s, g) => s + weightOf(g), 0);
      const ea = new Set(pairsToBigInts(idfElements(bigIntsToPairs(a), table)));
      const eb = pairsToBigInts(idfElements(bigIntsToPairs(b), table));
      const common = eb.filter((e) => ea.has(e)).length;
      expect(common / (ea.size + eb.length - common)).toBeCloseTo(shared / all, 12);
    }
  });

  it('the wasm shingler and the TypeScript reference give the same idf elements on the bundled corpus', () => {
    const texts = gunzipSync(readFileSync('data/sample.jsonl.gz'))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { text: string }).text);
    const counter = new DfCounter();
    for (const text of texts) counter.addSet(shingleDocument(text));
    const idf = counter.table(SHINGLING);
    const options = { ...DEFAULT_SHINGLE, weights: 'idf' as const, idf };
    let elements = 0;
    let shingles = 0;
    for (const text of texts.slice(0, 150)) {
      const weighted = shingleDocument(text, options);
      expectSameWords(weighted, shingleDocumentReference(text, options), text.slice(0, 40));
      elements += weighted.length / 2;
      shingles += shingleDocument(text).length / 2;
    }
    // Most shingles are rare (weight 8); the licences' shared boilerplate weighs less.
    expect(elements).toBeGreaterThan(4 * shingles);
    expect(elements).toBeLessThan(8 * shingles);
    expect(() => shingleDocument(texts[0], { ...DEFAULT_SHINGLE, weights: 'idf' })).toThrow(
      /needs its document-frequency table/,
    );
  });
});

describe('bounded-memory counting', () => {
  it('the sketch never puts a df below the true one', () => {
    const sets = randomSets(900, 11);
    const sketch = new DfSketch(8); // 4 × 256 counters for ~2 900 shingles: crowded on purpose
    const truth = new Map<bigint, number>();
    for (const set of sets) {
      sketch.addSet(bigIntsToPairs(set));
      for (const g of set) truth.set(g, (truth.get(g) ?? 0) + 1);
    }
    let over = 0;
    for (const [g, df] of truth) {
      const [lo, hi] = bigIntsToPairs([g]);
      expect(sketch.estimate(lo, hi)).toBeGreaterThanOrEqual(df);
      if (sketch.estimate(lo, hi) > df) over++;
    }
    expect(over).toBeGreaterThan(0); // crowded: it does overestimate, and the table must not care
  });

  it('past the distinct limit, a second pass over the candidates gives the one-pass table, byte for byte', async () => {
    const read = { textField: 'text', idField: 'id', skipInvalid: false };
    const notes: string[] = [];
    const source = { inputs: ['data/sample.jsonl.gz'], read, shingling: SHINGLING };
    const exact = await countIdfTable(source);
    const bounded = await countIdfTable({ ...source, limit: 5000, sketchBits: 12, note: (n: string) => notes.push(n) });
    expect(notes).toEqual(['idf: over 5000 distinct shingles; counting the heavy ones in a second pass']);
    expect(bounded.identity).toBe(exact.identity);
    expectSameWords(encodeIdfTable(bounded), encodeIdfTable(exact), 'encoded table');
  });
});
