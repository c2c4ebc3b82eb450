/**
 * `substrings --min-tokens`: the search against brute force (bruteForceTokenSpans.ts) on random corpora of few
 * words (many repeats, overlapping), several n, both cuts, with the normalizer's folds (case, NFKC, punctuation) and
 * multi-byte UTF-8, and on the bundled licences; the window numbers exact; the edge cases by hand; the library's entry.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { substrings } from '../../src/index.js';
import { CorpusTextBuilder } from '../../src/substrings/corpusText.js';
import { spanRows } from '../../src/substrings/spans.js';
import { TokenCorpusBuilder } from '../../src/substrings/tokenCorpus.js';
import { doublingPasses, numberWindows, searchTokenRepeats } from '../../src/substrings/tokenRepeats.js';
import { DEFAULT_NORMALIZE, tokenize, type NormalizeOptions } from '../../src/text/normalize.js';
import { bruteForceTokenSpans } from './bruteForceTokenSpans.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const VOCABULARIES: ReadonlyArray<{ words: string[]; normalize: NormalizeOptions }> = [
  { words: ['a', 'b'], normalize: DEFAULT_NORMALIZE },
  { words: ['a', 'A', 'b', 'B', 'c'], normalize: DEFAULT_NORMALIZE },
  { words: ['é', 'É', '€', '😀', 'Straße', 'ΣΑΣ'], normalize: DEFAULT_NORMALIZE },
  { words: ['ﬁ', 'fi', 'Ｆi', 'x', '①'], normalize: { nfkc: true, stripPunctuation: false } },
  { words: ['a.b', 'a', 'b', "don't", 'don', 't', '—'], normalize: { nfkc: false, stripPunctuation: true } },
];
const SPACES = [' ', ' ', ' ', '  ', '\n', '\t', '\u3000', '\u00a0'];

function randomCorpus(random: () => number, words: readonly string[]): string[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  return Array.from({ length: 1 + Math.floor(random() * 7) }, () => {
    const count = Math.floor(random() * 30);
    const body = Array.from({ length: count }, () => pick(words) + pick(SPACES)).join('');
    return random() < 0.3 ? ` ${body}` : body.trimEnd();
  });
}

function search(texts: readonly string[], n: number, cut: 'later' | 'all', normalize = DEFAULT_NORMALIZE) {
  const text = new CorpusTextBuilder(64);
  const tokens = new TokenCorpusBuilder(normalize);
  for (const t of texts) tokens.add(t, text);
  const corpus = text.finish(false);
  const found = searchTokenRepeats(tokens.finish(), { minTokens: n, cut });
  return { rows: spanRows(corpus, found.spans), stats: found.stats };
}

describe('substrings --min-tokens search', () => {
  it('finds exactly the brute-force spans and firsts on 250 random corpora (n 1 to 9, both cuts, folds)', () => {
    const random = seeded(3213);
    let spans = 0;
    for (let trial = 0; trial < 250; trial++) {
      const { words, normalize } = VOCABULARIES[trial % VOCABULARIES.length];
      const texts = randomCorpus(random, words);
      const n = 1 + Math.floor(random() * (trial % 7 === 0 ? 9 : 5));
      const cut = trial % 2 === 0 ? 'later' : 'all';
      const expected = bruteForceTokenSpans(texts, n, cut, normalize);
      expect(search(texts, n, cut, normalize).rows, JSON.stringify({ texts, n, cut, normalize })).toEqual(expected);
      spans += expected.length;
    }
    expect(spans).toBeGreaterThan(500); // the corpora repeat a lot: the comparison is not of empty lists
  });

  it("agrees with brute force on 8,000 tokens (the builder's chunks of 1,024, 2,048, 4,096 and more)", () => {
    const random = seeded(99);
    const words = ['the', 'The', 'licence', 'may', 'ünï', '☃', 'copy', 'x'];
    const texts = Array.from({ length: 160 }, () => randomCorpus(random, words).join(' '));
    const tokens = texts.reduce((sum, t) => sum + tokenize(t).length, 0);
    expect(tokens).toBeGreaterThan(8000);
    for (const [n, cut] of [
      [3, 'later'],
      [6, 'all'],
      [7, 'later'],
    ] as const)
      expect(search(texts, n, cut).rows).toEqual(bruteForceTokenSpans(texts, n, cut));
  });

  it('agrees with brute force on the bundled licences (data/sample.jsonl.gz: 0.76 M tokens), n = 13', () => {
    const texts = gunzipSync(readFileSync(new URL('../../data/sample.jsonl.gz', import.meta.url)))
      .toString('utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => (JSON.parse(line) as { text: string }).text);
    const expected = bruteForceTokenSpans(texts, 13, 'later');
    expect(expected.length).toBeGreaterThan(4000);
    expect(search(texts, 13, 'later').rows).toEqual(expected);
  });

  it('numbers windows exactly: equal numbers for equal token windows, −1 only for a window that occurs once', () => {
    const random = seeded(7);
    for (let trial = 0; trial < 60; trial++) {
      const texts = randomCorpus(random, ['a', 'b', 'c']);
      const n = 1 + (trial % 7);
      const builder = new TokenCorpusBuilder();
      const text = new CorpusTextBuilder(64);
      for (const t of texts) builder.add(t, text);
      const { numbers, counts } = numberWindows(builder.finish(), n);
      const windows: Array<{ key: string; number: number }> = [];
      texts.forEach((t) => {
        const tokens = tokenize(t);
        for (let p = 0; p < tokens.length; p++) {
          const inside = p + n <= tokens.length;
          windows.push({ key: inside ? tokens.slice(p, p + n).join(' ') : '', number: numbers[windows.length] });
        }
      });
      const occurrences = new Map<string, number>();
      for (const w of windows) if (w.key !== '') occurrences.set(w.key, (occurrences.get(w.key) ?? 0) + 1);
      const numberOf = new Map<string, number>();
      for (const w of windows) {
        if (w.key === '' || occurrences.get(w.key) === 1) {
          if (w.number >= 0) expect(counts[w.number], JSON.stringify({ texts, n })).toBe(1);
          continue;
        }
        expect(w.number).toBeGreaterThanOrEqual(0);
        expect(counts[w.number]).toBe(occurrences.get(w.key));
        expect(numberOf.get(w.key) ?? w.number).toBe(w.number);
        numberOf.set(w.key, w.number);
      }
      expect(new Set(numberOf.values()).size).toBe(numberOf.size); // different windows, different numbers
    }
  });

  it('edge cases: documents shorter than n, empty ones, repeats inside one document, overlapping repeats', () => {
    expect(search(['one two', '', 'one two', 'one'], 3, 'all').rows).toEqual([]);
    // "x y x y x y": the window "x y x" at 0 and 2 and "y x y" at 1 and 3 overlap; later occurrences start at token 2.
    const within = search(['x y x y x y'], 3, 'later');
    expect(within.rows).toEqual([{ document: 0, start: 4, end: 11, firstDocument: 0, firstStart: 0 }]);
    expect(within.stats).toMatchObject({ windows: 4, groups: 2, repeatedWindows: 4, collisions: 0, rounds: 2 });
    for (const n of [1, 2, 3, 4, 5, 13, 16, 17, 50, 64, 100_000]) {
      const passes: number[] = [];
      numberWindows(new TokenCorpusBuilder().finish(), n, (done) => passes.push(done));
      expect(passes.length, String(n)).toBe(doublingPasses(n));
      expect(passes).toEqual(Array.from({ length: passes.length }, (_, i) => i + 1));
    }
    expect(search(['x y x y x y'], 3, 'all').rows).toEqual([
      { document: 0, start: 0, end: 11, firstDocument: 0, firstStart: 0 },
    ]);
    // A run of one token: every window but the first is a later occurrence, and they overlap into one span.
    expect(search(['z z z z z'], 2, 'later').rows).toEqual([
      { document: 0, start: 2, end: 9, firstDocument: 0, firstStart: 0 },
    ]);
  });

  it('folds case and NFKC as the normalizer does, and reports the original bytes (multi-byte words, wraps)', () => {
    const texts = ['Intro: Ünïcode Straße Ⅻ ☃ ends here', 'Other ÜNÏCODE\nstraße\u3000Ⅻ  ☃ ENDS', 'x'];
    expect(search(texts, 4, 'later').rows).toEqual([
      {
        document: 1,
        start: Buffer.byteLength('Other '),
        end: Buffer.byteLength(texts[1]),
        firstDocument: 0,
        firstStart: Buffer.byteLength('Intro: '),
      },
    ]);
    const nfkc = ['the ﬁne print applies', 'THE FINE PRINT Applies'];
    expect(search(nfkc, 4, 'later').rows).toEqual([]);
    expect(search(nfkc, 4, 'later', { nfkc: true, stripPunctuation: false }).rows).toEqual([
      { document: 1, start: 0, end: Buffer.byteLength(nfkc[1]), firstDocument: 0, firstStart: 0 },
    ]);
  });

  it('--strip-punctuation: spans ending and starting inside one word merge in bytes', () => {
    // "a.b.c" is three tokens of one word; the later span "p q a" and "c r s" (n = 3) share that word.
    const texts = ['p q a', 'c r s', 'p q a.b.c r s'];
    const strip = { nfkc: false, stripPunctuation: true };
    const rows = search(texts, 3, 'later', strip).rows;
    expect(rows).toEqual([
      { document: 2, start: 0, end: Buffer.byteLength(texts[2]), firstDocument: 0, firstStart: 0 },
    ]);
    expect(rows).toEqual(bruteForceTokenSpans(texts, 3, 'later', strip));
  });
});

describe('substrings({ minTokens })', () => {
  it('cuts the later occurrences in the original text, marks emptied documents dropped', async () => {
    const P = 'A paragraph that three documents share, ünïcödé ☃, word for word';
    const docs = [
      { id: 'a', text: `one ${P} end` },
      { id: 'b', text: `two ${P.toUpperCase()}` },
      { id: 'c', text: P.replaceAll(' ', '\n') },
      { id: 'd', text: 'alone' },
    ];
    const result = await substrings(docs, { minTokens: 5 });
    expect(result.documents.map((d) => [d.id, d.text, d.dropped])).toEqual([
      ['a', `one ${P} end`, false],
      ['b', 'two ', false],
      ['c', '', true],
      ['d', 'alone', false],
    ]);
    expect(result.spans).toEqual([
      { id: 'b', start: 4, end: Buffer.byteLength(docs[1].text), firstId: 'a', firstStart: 4 },
      { id: 'c', start: 0, end: Buffer.byteLength(P), firstId: 'a', firstStart: 4 },
    ]);
    expect(result.topSpans[0]).toMatchObject({ count: 3, first: 4 }); // same bytes in b (upper case) and c (wraps)
    const all = await substrings(
      docs.map((d) => d.text),
      { minTokens: 5, cut: 'all', minRemaining: 4 },
    );
    expect(all.documents.map((d) => [d.text, d.dropped])).toEqual([
      ['one  end', false],
      ['two ', false],
      ['', true],
      ['alone', false],
    ]);
  });

  it("refuses minLength with minTokens, nfkc without it, and a bad minTokens with the CLI's message", async () => {
    await expect(substrings(['x'], { minTokens: 3, minLength: 10 })).rejects.toThrow(
      'minLength (bytes) and minTokens (tokens) both give the shortest span: give one',
    );
    await expect(substrings(['x'], { minTokens: 3, threads: 2 })).rejects.toThrow(
      "memoryLimitBytes and threads are the byte search's: minTokens searches in memory, in one thread",
    );
    await expect(substrings(['x'], { nfkc: true })).rejects.toThrow(
      'nfkc and stripPunctuation normalize tokens: give them with minTokens',
    );
    await expect(substrings(['x'], { minTokens: 0 })).rejects.toThrow(
      'minTokens must be an integer from 1 to 100000, got 0',
    );
  });
});
