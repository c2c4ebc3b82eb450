import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  deduplicatePairs,
  shingleDocument,
  shingleDocumentReference,
  type ShingleOptions,
} from '../../../src/shingles/shingles.js';
import {
  wasmDistinctHashes,
  wasmShinglerUnavailable,
  wasmWindowHashes,
} from '../../../src/shingles/wasm/shingleKernel.js';
import { rng } from '../../support/reference.js';

// Every White_Space code point (Unicode PropList.txt), and look-alikes that are not White_Space.
const WHITE_SPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
].map((c) => String.fromCodePoint(c));
const NOT_WHITE_SPACE = [
  0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x1c, 0x1f, 0x84, 0x86, 0xa1, 0x1681, 0x167f, 0x200b, 0x2027, 0x202a,
  0x202e, 0x2030, 0x205e, 0x2060, 0x3001, 0x2fff, 0x9f, 0x80,
].map((c) => String.fromCodePoint(c));

function randomUnicode(next: () => number, length: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  let s = '';
  for (let i = 0; i < length; i++) {
    const r = next();
    if (r < 0.25) s += pick(WHITE_SPACE);
    else if (r < 0.35) s += pick(NOT_WHITE_SPACE);
    else if (r < 0.5) s += String.fromCharCode(0x61 + Math.floor(next() * 26));
    else if (r < 0.6)
      s += String.fromCodePoint(0x10000 + Math.floor(next() * 0xfffff)); // astral, all planes
    else if (r < 0.67)
      s += String.fromCharCode(0xd800 + Math.floor(next() * 0x800)); // lone surrogate (or a pair by chance)
    else if (r < 0.8)
      s += String.fromCharCode(0x80 + Math.floor(next() * 0x780)); // 2-byte UTF-8
    else s += String.fromCharCode(0x800 + Math.floor(next() * 0xd000)); // 3-byte UTF-8, CJK, Thai, …
  }
  return s;
}

const OPTION_SETS: ShingleOptions[] = [];
for (const mode of ['word', 'char', 'auto'] as const)
  for (const n of [1, 2, 5, 9])
    for (const [nfkc, stripPunctuation] of [
      [false, false],
      [true, true],
    ])
      OPTION_SETS.push({ mode, n, normalize: { nfkc, stripPunctuation } });

function expectSame(text: string, options: ShingleOptions): void {
  const got = shingleDocument(text, options);
  const want = shingleDocumentReference(text, options);
  expect(Array.from(got), `${options.mode}/${options.n} ${JSON.stringify(text.slice(0, 40))}`).toEqual(
    Array.from(want),
  );
}

describe('wasm shingling kernel', () => {
  it('loads in this engine', () => {
    expect(wasmShinglerUnavailable()).toBeUndefined();
  });

  it('splits on every White_Space code point and on nothing else', () => {
    for (const space of WHITE_SPACE) {
      expect(wasmWindowHashes(`a${space}b${space}${space}c`, 'word', 1)!.tokens, JSON.stringify(space)).toBe(3);
    }
    for (const other of NOT_WHITE_SPACE) {
      expect(wasmWindowHashes(`a${other}b`, 'word', 1)!.tokens, JSON.stringify(other)).toBe(1);
    }
  });

  it('is bit-identical with the TypeScript shingler on random Unicode text, every mode, n and normalization', () => {
    const next = rng(21);
    for (let i = 0; i < 300; i++) {
      const text = randomUnicode(next, Math.floor(next() * 200));
      for (const options of OPTION_SETS) expectSame(text, options);
    }
  });

  it('is bit-identical on documents of 0, 1, n − 1, n and n + 1 shingles, in word and char mode', () => {
    for (const n of [1, 2, 5, 9]) {
      for (const count of [0, 1, n - 1, n, n + 1]) {
        const words = Array.from({ length: count }, (_, i) => `w${i}é`).join('\u3000 ');
        const chars = Array.from({ length: count }, (_, i) => String.fromCodePoint(0x1f600 + i)).join('');
        for (const mode of ['word', 'char', 'auto'] as const) {
          expectSame(` ${words}\n`, { mode, n, normalize: { nfkc: false, stripPunctuation: false } });
          expectSame(chars, { mode, n, normalize: { nfkc: false, stripPunctuation: false } });
        }
      }
    }
  });

  it('is bit-identical on the sample corpus', () => {
    const texts = gunzipSync(readFileSync('data/sample.jsonl.gz'))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { text: string }).text);
    for (const text of texts.slice(0, 300)) {
      expectSame(text, { mode: 'word', n: 5, normalize: { nfkc: false, stripPunctuation: false } });
      expectSame(text.slice(0, 3000), { mode: 'char', n: 5, normalize: { nfkc: true, stripPunctuation: true } });
    }
  });

  it('is bit-identical on a 50 MB document, and gives its memory back afterwards', () => {
    const next = rng(3);
    const pieces = Array.from({ length: 64 }, () => randomUnicode(next, 400));
    let text = '';
    while (text.length < 25_000_000) text += pieces[Math.floor(next() * pieces.length)];
    expect(new TextEncoder().encode(text).length).toBeGreaterThan(50_000_000);
    const options: ShingleOptions = { mode: 'word', n: 5, normalize: { nfkc: false, stripPunctuation: false } };
    const got = shingleDocument(text, options);
    const want = shingleDocumentReference(text, options);
    expect(got.length).toBe(want.length);
    expect(got.findIndex((w, i) => w !== want[i])).toBe(-1);
    // The grown instance was dropped: the next document runs in a fresh, small one.
    expect(Array.from(shingleDocument('a b c d e f'))).toEqual(Array.from(shingleDocumentReference('a b c d e f')));
  });

  it('removes repeated windows where they lie, first occurrences in order, as deduplicatePairs does', () => {
    const next = rng(5);
    for (const words of [1, 2, 3, 7, 40, 3000]) {
      // Few distinct words: most windows repeat, some many times, in runs and far apart.
      const text = Array.from({ length: words }, () => `w${Math.floor(next() * 4)}`).join(' ');
      const { hashes } = wasmWindowHashes(text, 'word', 2)!;
      const [want, windows] = [deduplicatePairs(hashes.slice()), hashes.length];
      const got = wasmDistinctHashes(hashes)!;
      expect(Array.from(got)).toEqual(Array.from(want));
      if (words > 40) expect(got.length).toBeLessThan(windows / 100);
    }
    // Values not in the kernel's memory: the caller's TypeScript path.
    expect(wasmDistinctHashes(new Uint32Array([1, 2, 1, 2]))).toBeUndefined();
  });
});
