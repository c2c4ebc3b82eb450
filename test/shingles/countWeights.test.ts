// Count weighting (src/shingles/countWeights.ts): c occurrences of a shingle become c distinct elements, so the plain
// Jaccard of the element sets is the weighted Jaccard of the counts; every shingling path gives the same elements.
import { describe, expect, it } from 'vitest';
import { countElements } from '../../src/shingles/countWeights.js';
import { kernelLines, kernelText, R } from '../../src/firstPass/wasm/unitKernel.js';
import { DEFAULT_SHINGLE, shingleDocument, shingleDocumentReference } from '../../src/shingles/shingles.js';
import { exactJaccard } from '../../src/verify/exactJaccard.js';
import { bigIntsToPairs, P, pairsToBigInts, randomBelow, rng, weightedElementRef } from '../support/reference.js';

const COUNTS = { ...DEFAULT_SHINGLE, weights: 'counts' as const };

/** Window values in which shingle i of `values` occurs counts[i] times, interleaved in a seeded order. */
function windowsOf(values: readonly bigint[], counts: readonly number[], seed: number): bigint[] {
  const windows = values.flatMap((v, i) => Array.from({ length: counts[i] }, () => v));
  const next = rng(seed);
  for (let i = windows.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [windows[i], windows[j]] = [windows[j], windows[i]];
  }
  return windows;
}

describe('countElements', () => {
  it('maps the (j + 1)-th occurrence of a shingle to element (g, j), in window order', () => {
    const g = [5n, P - 1n, 0n];
    const windows = [g[0], g[1], g[0], g[2], g[0], g[1]];
    const want = [
      g[0],
      g[1],
      weightedElementRef(g[0], 1),
      g[2],
      weightedElementRef(g[0], 2),
      weightedElementRef(g[1], 1),
    ];
    expect(pairsToBigInts(countElements(bigIntsToPairs(windows)))).toEqual(want);
    expect(countElements(new Uint32Array(0))).toEqual(new Uint32Array(0));
    expect(pairsToBigInts(countElements(bigIntsToPairs([7n])))).toEqual([7n]);
  });

  it('makes plain Jaccard of the elements equal Σ min / Σ max of the counts', () => {
    const next = rng(3);
    for (let trial = 0; trial < 200; trial++) {
      const values = Array.from({ length: 1 + Math.floor(next() * 40) }, () => randomBelow(next, P));
      const a = values.map(() => Math.floor(next() * 6));
      const b = values.map((_, i) => (next() < 0.5 ? a[i] : Math.floor(next() * 6)));
      const min = a.reduce((s, c, i) => s + Math.min(c, b[i]), 0);
      const max = a.reduce((s, c, i) => s + Math.max(c, b[i]), 0);
      const setA = countElements(bigIntsToPairs(windowsOf(values, a, trial)));
      const setB = countElements(bigIntsToPairs(windowsOf(values, b, trial + 1000)));
      expect(new Set(pairsToBigInts(setA)).size).toBe(setA.length / 2);
      expect(exactJaccard(setA, setB)).toBeCloseTo(max === 0 ? 1 : min / max, 12);
    }
  });
});

describe('shingleDocument with weights: counts', () => {
  const texts = [
    '',
    'one',
    'a b c d e',
    'the cat sat on the mat the cat sat on the mat the cat sat on the mat',
    'buy now buy now buy now buy now buy now buy now and again buy now buy now',
    'Ünïcödé wörds ünïcödé wörds ünïcödé wörds ünïcödé wörds 日本語 日本語 日本語',
  ];

  it('the wasm kernel path equals the TypeScript reference, word and char shingles', () => {
    for (const mode of ['word', 'char', 'auto'] as const)
      for (const text of texts) {
        const options = { ...COUNTS, mode, n: mode === 'word' ? 3 : 4 };
        expect(shingleDocument(text, options), `${mode}: ${text}`).toEqual(shingleDocumentReference(text, options));
      }
  });

  it('keeps one element per window, and equals the set when no shingle repeats', () => {
    const repeated = texts[3];
    const windows = repeated.split(' ').length - 3 + 1;
    expect(shingleDocument(repeated, { ...COUNTS, n: 3 }).length / 2).toBe(windows);
    expect(shingleDocument(texts[2], { ...COUNTS, n: 2 })).toEqual(
      shingleDocument(texts[2], { ...DEFAULT_SHINGLE, n: 2 }),
    );
  });

  it("the first pass's document kernel (unitKernel.as.ts) gives the same elements, one text or JSON lines", () => {
    const long = Array.from({ length: 3000 }, (_, i) => `w${i % 37}`).join(' ');
    const all = [...texts.slice(1), long];
    for (const char of [false, true]) {
      const setup = { textField: 'text', idField: 'id', idRequired: false, char, n: 4, hash: 'fnv1a64' as const };
      const options = { ...COUNTS, mode: char ? ('char' as const) : ('word' as const), n: 4 };
      for (const text of all) {
        const records = kernelText(text.toLowerCase(), { ...setup, counts: true })!;
        const got = records.shingles.slice(0, 2 * records.words[R.SH_COUNT]);
        expect(got, `${char ? 'char' : 'word'}: ${text.slice(0, 40)}`).toEqual(shingleDocumentReference(text, options));
      }
      const lines = new TextEncoder().encode(all.map((text) => JSON.stringify({ text })).join('\n'));
      const got: Uint32Array[] = [];
      kernelLines(lines, 1, true, { ...setup, counts: true }, '', (records, words) => {
        for (let r = 0; r < records.count; r++) {
          const start = records.words[r * words + R.SH_START];
          const count = records.words[r * words + R.SH_COUNT];
          got.push(records.shingles.slice(2 * start, 2 * (start + count)));
        }
      });
      expect(got).toEqual(all.map((text) => shingleDocumentReference(text, options)));
    }
  });
});
