import { describe, expect, it } from 'vitest';
import { tokenize, type NormalizeOptions } from '../../src/text/normalize.js';
import { tokenOffsets } from '../../src/text/tokenOffsets.js';
import { rng } from '../support/reference.js';

const OPTIONS: NormalizeOptions[] = [
  { nfkc: false, stripPunctuation: false },
  { nfkc: true, stripPunctuation: false },
  { nfkc: false, stripPunctuation: true },
  { nfkc: true, stripPunctuation: true },
];

// Characters whose normalization moves code units or makes White_Space: İ (lowercases to two units), ¨ (NFKC: space +
// diaeresis), final sigma, ligatures, full-width forms, astral letters, lone surrogates, combining marks, punctuation.
const PIECES = [
  'İ',
  '¨',
  'ΟΔΟΣ',
  'Σ',
  'ﬁ',
  'Ａｂ',
  '𐐀',
  '\ud800',
  '\udc00',
  'e\u0301',
  "don't",
  '—',
  'x',
  'Hello',
  '漢字',
  '😀',
];
const SPACES = [' ', '\n', '\t', '\u3000', '\u00a0', '\u2028', '\u1680', '\u0085', '\u202f', '\ufeff'];

function randomText(random: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    const pool = random() < 0.3 ? SPACES : PIECES;
    text += pool[Math.floor(random() * pool.length)];
  }
  return text;
}

/** The byte offsets of tokens found independently: each word's own UTF-8, located by encoding the prefix. */
function wordBytes(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const match of text.matchAll(/[^\p{White_Space}]+/gu)) {
    const start = Buffer.byteLength(text.slice(0, match.index));
    out.push([start, start + Buffer.byteLength(match[0])]);
  }
  return out;
}

describe('tokenOffsets', () => {
  it('gives exactly the tokens of tokenize, for every normalization, on random texts', () => {
    const random = rng(32);
    for (let t = 0; t < 400; t++) {
      const text = randomText(random, Math.floor(random() * 30));
      for (const options of OPTIONS) expect(tokenOffsets(text, options).tokens).toEqual(tokenize(text, options));
    }
  });

  it("gives each token its word's byte offsets in the text's UTF-8", () => {
    const random = rng(7);
    for (let t = 0; t < 200; t++) {
      const text = randomText(random, Math.floor(random() * 30));
      const words = wordBytes(text);
      const plain = tokenOffsets(text);
      expect([...plain.starts].map((s, i) => [s, plain.ends[i]])).toEqual(words);
      for (const options of OPTIONS) {
        const got = tokenOffsets(text, options);
        const wordStarts = new Set(words.map(([s]) => s));
        for (let i = 0; i < got.tokens.length; i++) {
          expect(Buffer.byteLength(text.slice(0, got.from[i]))).toBe(got.starts[i]);
          expect(Buffer.byteLength(text.slice(0, got.to[i]))).toBe(got.ends[i]);
          expect(wordStarts.has(got.starts[i])).toBe(true);
          expect(words.find(([s]) => s === got.starts[i])![1]).toBe(got.ends[i]);
        }
      }
    }
  });

  it('splits a word that stripping punctuation splits, each token naming the whole word', () => {
    const got = tokenOffsets("Don't stop", { nfkc: false, stripPunctuation: true });
    expect(got.tokens).toEqual(['don', 't', 'stop']);
    expect([...got.starts]).toEqual([0, 0, 6]);
    expect([...got.ends]).toEqual([5, 5, 10]);
  });

  it('counts multi-byte characters: é is 2 bytes, 漢 3, 😀 4, a lone surrogate 3', () => {
    const got = tokenOffsets('é 漢 😀 \ud800 z');
    expect([...got.starts]).toEqual([0, 3, 7, 12, 16]);
    expect([...got.ends]).toEqual([2, 6, 11, 15, 17]);
  });
});
