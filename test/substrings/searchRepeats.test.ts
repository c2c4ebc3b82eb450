/**
 * The search against the definition: brute force on small random corpora
 * (few letters, so that repeats are many and overlap), both cut modes, many
 * rounds (a tiny memory budget) and one; hash collisions resolved by bytes;
 * the worker threads agree with this thread.
 */
import { describe, expect, it } from 'vitest';
import { corpusOf } from '../../src/substrings/corpusText.js';
import { collectRound, markRound, type RoundEntries } from '../../src/substrings/repeatGroups.js';
import { newMarks, searchRepeatsHere } from '../../src/substrings/searchRepeats.js';
import { searchRepeatsInWorkers } from '../../src/substrings/repeatWorkers.js';
import { mergeMarks, spanRows } from '../../src/substrings/spans.js';
import { bruteForceSpans } from './bruteForceSpans.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomCorpus(random: () => number, alphabet: readonly string[]): string[] {
  const documents = 1 + Math.floor(random() * 8);
  return Array.from({ length: documents }, () => {
    const n = Math.floor(random() * 40);
    return Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  });
}

async function found(texts: readonly string[], minLength: number, cut: 'later' | 'all', memoryLimitBytes = 1 << 20) {
  const corpus = corpusOf(texts);
  return spanRows(corpus, (await searchRepeatsHere(corpus, { minLength, cut, memoryLimitBytes })).spans);
}

describe('substrings search', () => {
  it('finds exactly the brute-force spans and firsts on 160 random corpora (both cuts, 1 to many rounds)', async () => {
    const random = seeded(32);
    for (let trial = 0; trial < 160; trial++) {
      const alphabet = trial % 3 === 0 ? ['a', 'b'] : trial % 3 === 1 ? ['a', 'b', 'c', 'd'] : ['a', 'é', '€', '😀'];
      const texts = randomCorpus(random, alphabet);
      const minLength = 1 + Math.floor(random() * 8);
      const cut = trial % 2 === 0 ? 'later' : 'all';
      const budget = trial % 4 === 0 ? 24 : 1 << 20; // 24 bytes: one window a round, so thousands of rounds
      expect(await found(texts, minLength, cut, budget), JSON.stringify({ texts, minLength, cut })).toEqual(bruteForceSpans(texts, minLength, cut));
    }
  });

  it('a paragraph repeated across documents is cut from all but the first; touching windows merge; no span crosses documents', async () => {
    const p = 'x'.repeat(5) + 'the repeated paragraph';
    const texts = [`head ${p} tail`, `other ${p}`, `${p}`, 'unrelated text'];
    const rows = await found(texts, 10, 'later');
    expect(rows).toEqual([
      { document: 1, start: 5, end: 6 + p.length, firstDocument: 0, firstStart: 4 }, // the space before p repeats too
      { document: 2, start: 0, end: p.length, firstDocument: 0, firstStart: 5 },
    ]);
    // Each document ends with what the next begins with: never one span across the boundary.
    expect(await found(['aaaaXbbbb', 'bbbbYaaaa'], 4, 'all')).toEqual(bruteForceSpans(['aaaaXbbbb', 'bbbbYaaaa'], 4, 'all'));
  });

  it('equal hashes of different windows (a collision) are split by their bytes, never merged', () => {
    const corpus = corpusOf(['abcd', 'abce', 'abcd', 'abce', 'zzzz']);
    const marks = newMarks(corpus, false);
    // One run of equal (key, lane) holding two different windows twice each, and a third window alone.
    const entries: RoundEntries = { keys: new Uint32Array(5), lanes: new Uint32Array(5), positions: Uint32Array.from([0, 4, 8, 12, 16]), count: 5 };
    const stats = markRound(corpus, 4, entries, marks, 'later');
    expect(stats).toEqual({ windows: 5, groups: 2, repeatedWindows: 4, collisions: 1 });
    const spans = mergeMarks(corpus, 4, marks);
    expect(Array.from(spans.starts)).toEqual([8, 12]); // the later 'abcd' and the later 'abce'; 'zzzz' unmarked
  });

  it('the WebAssembly kernel gives the TypeScript rolling hash windows, a document longer than its batch included', () => {
    const random = seeded(3);
    const long = Array.from({ length: (1 << 22) + 5000 }, () => 'abcd'[Math.floor(random() * 4)]).join('');
    const corpus = corpusOf(['short', 'x'.repeat(120), long, 'é€'.repeat(80)]);
    for (const [lo, hi] of [[0, 2 ** 32], [2 ** 31, 2 ** 31 + 2 ** 28]]) {
      const wasm = collectRound(corpus, 100, lo, hi, 0, 4, true);
      const ts = collectRound(corpus, 100, lo, hi, 0, 4, false);
      expect(wasm.count).toBe(ts.count);
      expect(wasm.count).toBeGreaterThan(100_000);
      const bytesOf = (a: Uint32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, wasm.count * 4);
      for (const column of ['keys', 'lanes', 'positions'] as const) expect(bytesOf(wasm[column]).equals(bytesOf(ts[column])), column).toBe(true);
    }
  });

  it('worker threads find the same spans as this thread', async () => {
    const random = seeded(7);
    const words = ['alpha ', 'beta ', 'gamma ', 'delta ', 'epsilon ', 'zeta '];
    const texts = Array.from({ length: 300 }, () => Array.from({ length: 60 }, () => words[Math.floor(random() * words.length)]).join(''));
    for (const cut of ['later', 'all'] as const) {
      const options = { minLength: 30, cut, memoryLimitBytes: 1 << 16 };
      const here = await searchRepeatsHere(corpusOf(texts), options);
      const shared = corpusOf(texts, true);
      const there = await searchRepeatsInWorkers(shared, options, 2);
      expect(spanRows(shared, there.spans)).toEqual(spanRows(corpusOf(texts), here.spans));
      expect(there.stats.rounds).toBeGreaterThan(2);
      expect(here.spans.count).toBeGreaterThan(100);
    }
  });
});
