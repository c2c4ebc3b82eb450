import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chooseMode, deduplicatePairs, shingleDocument, type ShingleOptions } from '../../src/shingles/shingles.js';
import {
  exactMatchUtf8,
  isWhiteSpace,
  normalizeText,
  normalizedForExactMatch,
  tokenize,
} from '../../src/text/normalize.js';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { u64 } from '../../src/math/u64.js';
import { pairsToBigInts, rng, shinglesRef, signatureRef } from '../support/reference.js';

const NORMAL = { nfkc: false, stripPunctuation: false };

// Texts that stress tokenization and UTF-8: every Unicode plane, joiners, lone surrogates.
const SPECIAL_TEXTS = [
  '',
  ' ',
  'a',
  'one two three four',
  'one two three four five',
  'one two three four five six seven',
  'İstanbul ΣΊΣΥΦΟΣ straße ǅemal ﬁn',
  'Emoji 👩‍👩‍👧‍👦 family 🇫🇷 flag and 🏳️‍🌈 with skin tones 👍🏽 done now',
  '日本語のテキストは空白で区切られていません。中文也是这样。',
  'ภาษาไทยไม่มีช่องว่างระหว่างคำ',
  'tabs\tand\u00a0nbsp\u2003em\u3000ideographic\u2028line\u2029para\u0085nel\ufeffbom',
  'lone \ud800 surrogate \udfff here and there ok',
  'a'.repeat(5000),
  'ab '.repeat(3000),
];

function randomText(next: () => number): string {
  const alphabet = [
    'the',
    'quick',
    'brown',
    'fox',
    'Ünïcödé',
    '日本',
    'ß',
    '🦊',
    'a',
    'b',
    'c',
    '—',
    'Ωmega',
    '\u0301',
    'x',
  ];
  const spaces = [' ', '  ', '\n', '\t', '\u00a0', '\u3000'];
  const words = Math.floor(next() * 60);
  let s = '';
  for (let i = 0; i < words; i++) {
    s += alphabet[Math.floor(next() * alphabet.length)];
    s += spaces[Math.floor(next() * spaces.length)];
  }
  return s;
}

function sampleCorpus(): string[] {
  const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);
  return lines.map((line) => (JSON.parse(line) as { text: string }).text);
}

function expectSameSet(got: Uint32Array, want: Set<bigint>, label: string): void {
  const gotValues = pairsToBigInts(got);
  expect(new Set(gotValues).size, `${label}: duplicates left in the set`).toBe(gotValues.length);
  expect(new Set(gotValues), label).toEqual(want);
}

describe('shingle sets against the BigInt reference', () => {
  const modes: Array<['word' | 'char', number]> = [
    ['word', 5],
    ['word', 1],
    ['word', 3],
    ['char', 5],
    ['char', 1],
    ['char', 9],
  ];

  it('agree on special texts in every mode and n', () => {
    for (const text of SPECIAL_TEXTS)
      for (const [mode, n] of modes) {
        const options: ShingleOptions = { mode, n, normalize: NORMAL };
        expectSameSet(
          shingleDocument(text, options),
          shinglesRef(text, mode, n),
          `${mode}/${n} ${JSON.stringify(text.slice(0, 30))}`,
        );
      }
  });

  it('agree on 300 random texts', () => {
    const next = rng(20);
    for (let i = 0; i < 300; i++) {
      const text = randomText(next);
      const [mode, n] = modes[i % modes.length];
      expectSameSet(shingleDocument(text, { mode, n, normalize: NORMAL }), shinglesRef(text, mode, n), `random #${i}`);
    }
  });

  it('agree with NFKC and punctuation stripping', () => {
    const normalize = { nfkc: true, stripPunctuation: true };
    for (const text of [...SPECIAL_TEXTS, 'Ｆｕｌｌ－ｗｉｄｔｈ, “quoted” — text! $100 + 5% = ¥']) {
      expectSameSet(
        shingleDocument(text, { mode: 'word', n: 2, normalize }),
        shinglesRef(text, 'word', 2, normalize),
        text.slice(0, 20),
      );
    }
    expect(tokenize('Ｆｕｌｌ－ｗｉｄｔｈ, “quoted”!', { nfkc: true, stripPunctuation: true })).toEqual([
      'full',
      'width',
      'quoted',
    ]);
  });

  it('agree on the first 60 documents of the bundled corpus', () => {
    for (const text of sampleCorpus().slice(0, 60)) {
      expectSameSet(shingleDocument(text), shinglesRef(text, 'word', 5), text.slice(0, 30));
    }
  });
});

describe("exactMatchUtf8 (the exact key's bytes, without the token list)", () => {
  it('isWhiteSpace is the regex property \\p{White_Space} on every BMP code unit', () => {
    for (let c = 0; c <= 0xffff; c++)
      expect(isWhiteSpace(c), c.toString(16)).toBe(/\p{White_Space}/u.test(String.fromCharCode(c)));
  });

  it('equals the UTF-8 of normalizedForExactMatch on special, random and real texts, with and without NFKC', () => {
    const next = rng(21);
    const encoder = new TextEncoder();
    const texts = [
      ...SPECIAL_TEXTS,
      '\u2003 lead and trail \u00a0',
      '\n\n',
      'end \ud83d',
      '\udc00 start',
      ...Array.from({ length: 300 }, () => randomText(next)),
      ...sampleCorpus().slice(0, 60),
    ];
    for (const normalize of [NORMAL, { nfkc: true, stripPunctuation: true }])
      for (const text of texts) {
        const normalized = normalizeText(text, normalize);
        const out = new Uint8Array(3 * normalized.length);
        const written = exactMatchUtf8(normalized, out);
        expect(Array.from(out.subarray(0, written)), JSON.stringify(text.slice(0, 30))).toEqual(
          Array.from(encoder.encode(normalizedForExactMatch(text, normalize))),
        );
      }
  });
});

describe('auto mode', () => {
  it('picks char shingles for short and space-less texts, word shingles otherwise', () => {
    expect(chooseMode(tokenize('Hello World'), 5)).toBe('char');
    expect(chooseMode(tokenize('日本語のテキストは空白で区切られていません。 中文 也是 这样 的'), 5)).toBe('char');
    expect(chooseMode(tokenize('the quick brown fox jumps over'), 5)).toBe('word');
    const text = 'ภาษาไทยไม่มีช่องว่างระหว่างคำ';
    expectSameSet(
      shingleDocument(text, { mode: 'auto', n: 5, normalize: NORMAL }),
      shinglesRef(text, 'char', 5),
      'thai',
    );
  });

  it('counts letters only: marks, digits and symbols of space-less scripts do not tip the balance', () => {
    // 6 Thai letters (each with a combining vowel mark, Mn) against 10 Latin letters: mostly Latin.
    expect(chooseMode(tokenize('กิ กิ กิ กิ กิ กิ abcdefghij'), 5)).toBe('word');
    // Han-script symbols (Kangxi radicals, So) and Thai digits (Nd) are not letters.
    expect(chooseMode(tokenize('⼀⼁⼂⼃⼄⼅⼆⼇⼈⼉ ๑๒๓๔๕ ab cd ef gh'), 5)).toBe('word');
    expect(chooseMode(tokenize('กกกกกกกกกกกกกกกก abc def ghi jkl'), 5)).toBe('char');
  });
});

describe('deduplicatePairs', () => {
  it('keeps first occurrences in order', () => {
    const pairs = Uint32Array.of(1, 2, 3, 4, 1, 2, 5, 6, 3, 4, 1, 3);
    expect(Array.from(deduplicatePairs(pairs))).toEqual([1, 2, 3, 4, 5, 6, 1, 3]);
  });
});

describe('CPU signatures against the BigInt reference signer', () => {
  it('agree on special, random and real texts for several k and seeds', () => {
    const next = rng(21);
    const texts = [
      ...SPECIAL_TEXTS,
      ...Array.from({ length: 40 }, () => randomText(next)),
      ...sampleCorpus().slice(100, 112),
    ];
    for (const [k, seedHi, seedLo] of [
      [1, 0, 42],
      [7, 0xffffffff, 0xffffffff],
      [128, 0, 42],
      [33, 0x12345678, 0x9abcdef0],
    ] as const) {
      const family = makeHashFamily(k, u64(seedHi, seedLo));
      const seed = (BigInt(seedHi) << 32n) | BigInt(seedLo);
      const sets = texts.map((t) => shingleDocument(t));
      const offsets = new Uint32Array(sets.length + 1);
      sets.forEach((s, i) => (offsets[i + 1] = offsets[i] + s.length / 2));
      const shingles = new Uint32Array(offsets[sets.length] * 2);
      sets.forEach((s, i) => shingles.set(s, offsets[i] * 2));
      const sigs = signBatchOnCpu(family, { shingles, offsets });
      texts.forEach((text, d) => {
        const want = signatureRef(shinglesRef(text, 'word', 5), k, seed);
        expect(pairsToBigInts(sigs.subarray(d * k * 2, (d + 1) * k * 2)), `k=${k} doc ${d}`).toEqual(want);
      });
    }
  });
});
