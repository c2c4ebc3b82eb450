// The first pass's document kernel against the TypeScript reference, line by line: every line
// the kernel takes as a document must give what JSON.parse, toLowerCase, exactMatchUtf8,
// MurmurHash3 and the reference shingler give; blank lines must be blank to String.trim; the rest
// go to JavaScript. Random Unicode from every plane, every White_Space, lone surrogates, NUL,
// escapes, Greek sigma, Turkish İ, ZWJ emoji, a BOM, CRLF and invalid UTF-8.
import { describe, expect, it } from 'vitest';
import { kernelLines, kernelText, R, LineStatus, type KernelSetup } from '../../../src/firstPass/wasm/unitKernel.js';
import { parseJsonLine } from '../../../src/io/jsonLines.js';
import { InputError } from '../../../src/io/documents.js';
import { murmur3x86_128 } from '../../../src/math/murmur3.js';
import { exactMatchUtf8, normalizeText } from '../../../src/text/normalize.js';
import { shingleDocumentReference } from '../../../src/shingles/shingles.js';
import { DEFAULT_NORMALIZE } from '../../../src/text/normalize.js';

const encoder = new TextEncoder();
const WHITE_SPACE = [
  0x09,
  0x0a,
  0x0b,
  0x0c,
  0x0d,
  0x20,
  0x85,
  0xa0,
  0x1680,
  ...Array.from({ length: 11 }, (_, i) => 0x2000 + i),
  0x2028,
  0x2029,
  0x202f,
  0x205f,
  0x3000,
];
const SPECIAL = [
  0x3a3, 0x3c3, 0x3c2, 0x130, 0x131, 0x49, 0x69, 0x307, 0x200d, 0x1f468, 0x1f469, 0x1f467, 0xfeff, 0xfffd, 0, 0x22,
  0x5c, 0x2f, 0x7f, 0x212a, 0x23a, 0x1e9e, 0xdf, 0x10400, 0x1e900, 0x1c89,
];

function randomGenerator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random string of code points: words, every White_Space, specials, anything in the planes, lone surrogates. */
function randomText(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const r = random();
    if (r < 0.35) out += 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,'[Math.floor(random() * 64)];
    else if (r < 0.5) out += ' ';
    else if (r < 0.6) out += String.fromCodePoint(WHITE_SPACE[Math.floor(random() * WHITE_SPACE.length)]);
    else if (r < 0.72) out += String.fromCodePoint(SPECIAL[Math.floor(random() * SPECIAL.length)]);
    else if (r < 0.8)
      out += String.fromCharCode(0xd800 + Math.floor(random() * 0x800)); // a lone surrogate (JSON.stringify escapes it)
    else if (r < 0.9)
      out += String.fromCodePoint(0x80 + Math.floor(random() * 0x3000)); // Latin to CJK, where most case pairs are
    else {
      let c = Math.floor(random() * 0x110000);
      if (c >= 0xd800 && c <= 0xdfff) c = 0x41;
      out += String.fromCodePoint(c);
    }
  }
  return out;
}

/** JSON.stringify, with some characters written as \u escapes instead (surrogate pairs as two). */
function jsonString(text: string, random: () => number): string {
  const plain = JSON.stringify(text);
  if (random() < 0.5) return plain;
  let out = '"';
  for (const ch of text) {
    if (random() < 0.3)
      for (let j = 0; j < ch.length; j++) out += `\\u${ch.charCodeAt(j).toString(16).padStart(4, '0')}`;
    else out += JSON.stringify(ch).slice(1, -1);
  }
  return out + '"';
}

const setup: KernelSetup = { textField: 'text', idField: 'id', idRequired: false, char: false, n: 5, hash: 'fnv1a64' };

interface KernelLine {
  status: number;
  line: number;
  start: number;
  end: number;
  id: string;
  words: Int32Array;
  shingles: Uint32Array;
}

function runKernel(bytes: Uint8Array, options: KernelSetup = setup, firstLine = 1, prefix = ''): KernelLine[] {
  const out: KernelLine[] = [];
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // an id may start with U+FEFF
  kernelLines(bytes, firstLine, true, options, prefix, (records, width) => {
    for (let r = 0; r < records.count; r++) {
      const w = records.words.slice(r * width, (r + 1) * width);
      const idStart = w[R.ID_START];
      const sh = w[R.SH_START];
      out.push({
        status: w[R.STATUS],
        line: w[R.LINE],
        start: w[R.START],
        end: w[R.END],
        id:
          w[R.STATUS] === LineStatus.Document
            ? decoder.decode(records.ids.subarray(idStart, idStart + w[R.ID_LEN]))
            : '',
        words: w,
        shingles: records.shingles.slice(2 * sh, 2 * (sh + w[R.SH_COUNT])),
      });
    }
  });
  return out;
}

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** What the TypeScript path gives for a document's text. */
function expectedText(text: string, options: KernelSetup) {
  const normalized = normalizeText(text, DEFAULT_NORMALIZE);
  const buffer = new Uint8Array(normalized.length * 3 + 4);
  const exactBytes = exactMatchUtf8(normalized, buffer);
  return {
    utf16: text.length,
    utf8: utf8Length(text),
    empty: exactBytes === 0 ? 1 : 0,
    exact: exactBytes === 0 ? [0, 0, 0, 0] : [...murmur3x86_128(buffer, exactBytes)].map((x) => x | 0),
    shingles: shingleDocumentReference(text, {
      mode: options.char ? 'char' : 'word',
      n: options.n,
      normalize: DEFAULT_NORMALIZE,
      hash: options.hash,
    }),
  };
}

function checkDocument(got: KernelLine, text: string, id: string, options: KernelSetup): void {
  const want = expectedText(text, options);
  expect(got.id).toBe(id);
  expect([...got.words.subarray(R.ID_KEY, R.ID_KEY + 4)]).toEqual(
    [...murmur3x86_128(encoder.encode(id))].map((x) => x | 0),
  );
  expect(got.words[R.UTF16]).toBe(want.utf16);
  expect(got.words[R.UTF8]).toBe(want.utf8);
  expect(got.words[R.EMPTY]).toBe(want.empty);
  expect([...got.words.subarray(R.EXACT, R.EXACT + 4)]).toEqual(want.exact);
  expect([...got.shingles]).toEqual([...want.shingles]);
}

describe('the first pass kernel', () => {
  for (const [mode, hash] of [
    ['word', 'fnv1a64'],
    ['char', 'fnv1a64'],
    ['word', 'sha1-32'],
    ['char', 'sha1-32'],
    ['word', 'sha1-64'],
    ['char', 'sha1-64'],
  ] as const) {
    it(`equals the TypeScript reference on random Unicode lines (${mode} shingles, ${hash})`, () => {
      const options: KernelSetup = { ...setup, char: mode === 'char', n: mode === 'char' ? 3 : 5, hash };
      const random = randomGenerator(
        (mode === 'char' ? 7 : 3) + (hash === 'fnv1a64' ? 0 : hash === 'sha1-32' ? 100 : 200),
      );
      let documents = 0;
      for (let round = 0; round < 40; round++) {
        const texts: string[] = [];
        const ids: string[] = [];
        const lines: string[] = [];
        for (let i = 0; i < 25; i++) {
          const text = randomText(random, Math.floor(random() * 60));
          const r = random();
          const id =
            r < 0.3
              ? `d${round}-${i}`
              : r < 0.5
                ? randomText(random, 4).replace(/[\ud800-\udfff]/g, '')
                : r < 0.7
                  ? String(Math.floor(random() * 1e12))
                  : '';
          const idJson = r < 0.5 ? `"id": ${jsonString(id, random)}, ` : r < 0.7 ? `"id":${id},` : '';
          texts.push(text);
          ids.push(idJson === '' ? String(round * 1000 + lines.length + 1) : id);
          lines.push(
            `{${idJson}"meta": {"a": [1, -2.5e3, true, null, {"b": "\\u00e9"}]}, "text": ${jsonString(text, random)}}`,
          );
        }
        // Line numbers from round * 1000 + 1; documents without an id are named by them.
        const bytes = encoder.encode(lines.join(round % 2 === 0 ? '\n' : '\r\n') + '\n');
        const got = runKernel(bytes, options, round * 1000 + 1);
        expect(got.length).toBe(lines.length);
        for (let i = 0; i < lines.length; i++) {
          const parsed = parseJsonLine(lines[i], 'f', round * 1000 + i + 1, false, options);
          expect(parsed).not.toBeInstanceOf(InputError);
          if (got[i].status === LineStatus.ForJs) {
            expect(texts[i]).toMatch(/Σ/); // only a capital sigma (final or not, by context) goes to JavaScript
            continue;
          }
          expect(got[i].status).toBe(LineStatus.Document);
          expect(got[i].line).toBe(round * 1000 + i + 1);
          checkDocument(got[i], texts[i], ids[i], options);
          documents++;
        }
      }
      expect(documents).toBeGreaterThan(600);
    });
  }

  it('lowercases every code point as String.prototype.toLowerCase does', () => {
    // Each code point alone between spaces (U+03A3 aside: its lower case depends on context), 2,048 a text:
    // the exact key of the joined tokens hashes exactly the lowercased UTF-8, so equal keys mean equal bytes.
    const points: number[] = [];
    for (let c = 0; c < 0x110000; c++) if ((c < 0xd800 || c > 0xdfff) && c !== 0x3a3) points.push(c);
    for (let at = 0; at < points.length; at += 2048) {
      const text = points
        .slice(at, at + 2048)
        .map((c) => String.fromCodePoint(c))
        .join(' ');
      const records = kernelText(text, setup)!;
      const want = expectedText(text, setup);
      expect(
        [...records.words.subarray(R.EXACT, R.EXACT + 4)],
        `code points from U+${points[at].toString(16)}`,
      ).toEqual(want.exact);
      expect(records.words[R.UTF8]).toBe(want.utf8);
    }
  });

  it('takes one text at a time for readers that stay in JavaScript', () => {
    const random = randomGenerator(11);
    for (let i = 0; i < 300; i++) {
      const text = randomText(random, Math.floor(random() * 80)).replace(/Σ/g, 'x');
      const records = kernelText(text, setup)!;
      const want = expectedText(text, setup);
      const w = records.words;
      expect(w[R.UTF16]).toBe(want.utf16);
      expect(w[R.EMPTY]).toBe(want.empty);
      expect([...w.subarray(R.EXACT, R.EXACT + 4)]).toEqual(want.exact);
      expect([...records.shingles.slice(0, 2 * w[R.SH_COUNT])]).toEqual([...want.shingles]);
    }
  });

  it('reads ASCII prose 16 bytes at a time as byte by byte: spaces single, double, leading, trailing, at a block edge', () => {
    // Mostly printable ASCII and single spaces, so that many 16-byte blocks take the kernel's fast path, and now and
    // then what must leave it: two spaces, a tab, a quote or backslash (escaped in JSON, plain in a raw text), é, DEL.
    const random = randomGenerator(23);
    const PROSE = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;@[`{~';
    const piece = (): string => {
      const r = random();
      if (r < 0.78) return PROSE[Math.floor(random() * PROSE.length)];
      if (r < 0.93) return ' ';
      return ['  ', '   ', '\t', '"', '\\', 'é', '\u007f', 'Z', '@', '['][Math.floor(random() * 10)];
    };
    for (const options of [setup, { ...setup, char: true, n: 4 }]) {
      for (let round = 0; round < 12; round++) {
        const texts = Array.from({ length: 30 }, () => {
          let text = random() < 0.3 ? ' '.repeat(Math.floor(random() * 3)) : '';
          const length = Math.floor(random() * 200);
          while (text.length < length) text += piece();
          return text;
        });
        const lines = texts.map((text, i) => `{"id": "a${i}", "text": ${JSON.stringify(text)}}`);
        const got = runKernel(encoder.encode(lines.join('\n')), options);
        texts.forEach((text, i) => checkDocument(got[i], text, `a${i}`, options));
        for (const text of texts) {
          const records = kernelText(text, options)!;
          const want = expectedText(text, options);
          expect([...records.words.subarray(R.EXACT, R.EXACT + 4)]).toEqual(want.exact);
          expect([...records.shingles.slice(0, 2 * records.words[R.SH_COUNT])]).toEqual([...want.shingles]);
        }
      }
    }
  });

  it('reads every edge of a 16-byte block as byte by byte: escapes, runs of spaces, UTF-8, white space, the text end', () => {
    // Each piece at every offset of two blocks, in prose, at the text's start and end, JSON and raw: the block path
    // takes escaped quotes, runs of spaces and spaces at a block start, and stops before any other byte.
    const pieces = [
      '"',
      '\\',
      '\\"',
      '"\\',
      'a"b',
      '  ',
      '   x',
      ' ',
      'é',
      'Éa',
      'İ',
      '😀',
      '\t',
      '\u00a0',
      '\u2003',
      'ÄÖ  Ü',
      '\n "',
    ];
    const prose = 'Lorem Ipsum dolor sit Amet, consectetur adipiscing elit';
    for (const options of [setup, { ...setup, char: true, n: 4 }]) {
      const texts: string[] = [];
      for (const piece of pieces)
        for (let at = 0; at < 34; at++) {
          texts.push(prose.slice(0, at) + piece + prose.slice(at));
          texts.push(' '.repeat(at % 3) + prose.slice(0, at) + piece);
          texts.push(piece + ' '.repeat(at % 4) + prose.slice(0, at));
        }
      // The text last in its line (its quote within 16 bytes of the line end) and first, before other members.
      const lines = texts.map((text, i) =>
        i % 2 === 0
          ? `{"id": "e${i}", "text": ${JSON.stringify(text)}}`
          : `{"text":${JSON.stringify(text)},"id":"e${i}"}`,
      );
      const got = runKernel(encoder.encode(lines.join('\n')), options);
      texts.forEach((text, i) => checkDocument(got[i], text, `e${i}`, options));
      for (const text of texts) {
        const records = kernelText(text, options)!;
        const want = expectedText(text, options);
        expect(records.words[R.UTF16]).toBe(want.utf16);
        expect([...records.words.subarray(R.EXACT, R.EXACT + 4)]).toEqual(want.exact);
        expect([...records.shingles.slice(0, 2 * records.words[R.SH_COUNT])]).toEqual([...want.shingles]);
      }
    }
  });

  it('hashes SHA-1 windows of every length as the reference (one block, two, several; SIMD lanes and one by one)', () => {
    // Tokens of 1–40 code points (ASCII, 2- and 3-byte UTF-8), so that word windows run from a few bytes
    // to hundreds and groups of four mix windows of one padded block (≤ 55 bytes) with longer ones.
    const random = randomGenerator(5);
    const lengths = new Set<number>();
    for (const hash of ['sha1-32', 'sha1-64'] as const) {
      for (const [char, n] of [
        [false, 1],
        [false, 2],
        [false, 3],
        [false, 5],
        [false, 9],
        [true, 1],
        [true, 13],
        [true, 14],
        [true, 20],
        [true, 40],
      ] as const) {
        const options: KernelSetup = { ...setup, char, n, hash };
        for (let i = 0; i < 20; i++) {
          const tokens = Array.from({ length: 1 + Math.floor(random() * 30) }, () => {
            const alphabet = random() < 0.7 ? 'abcdefghij' : random() < 0.5 ? 'äöüßé' : '漢字かな';
            return Array.from(
              { length: 1 + Math.floor(random() * 40) },
              () => alphabet[Math.floor(random() * alphabet.length)],
            ).join('');
          });
          const text = tokens.join(random() < 0.5 ? ' ' : ' \u2003 ');
          const records = kernelText(text, options)!;
          const want = expectedText(text, options);
          expect(
            [...records.shingles.slice(0, 2 * records.words[R.SH_COUNT])],
            `${hash} ${char ? 'char' : 'word'} n = ${n}`,
          ).toEqual([...want.shingles]);
          for (let t = 0; t + n <= tokens.length; t++)
            lengths.add(encoder.encode(tokens.slice(t, t + n).join(' ')).length);
        }
      }
    }
    // Word windows of every size class: one block with room for the length (≤ 55), a tail past it (56–63), several blocks.
    expect(
      [...lengths].some((l) => l <= 55) &&
        [...lengths].some((l) => l >= 56 && l <= 63) &&
        [...lengths].some((l) => l >= 128),
    ).toBe(true);
  });

  it('takes one text at a time with SHA-1 shingles (the datasketch schemes), word and char', () => {
    const random = randomGenerator(13);
    for (let i = 0; i < 300; i++) {
      const text = randomText(random, Math.floor(random() * 120)).replace(/Σ/g, 'x');
      const options: KernelSetup = {
        ...setup,
        char: i % 2 === 1,
        n: i % 2 === 1 ? 5 : 3,
        hash: i % 3 === 0 ? 'sha1-64' : 'sha1-32',
      };
      const records = kernelText(text, options)!;
      const want = expectedText(text, options);
      expect(records.words[R.EMPTY]).toBe(want.empty);
      expect([...records.shingles.slice(0, 2 * records.words[R.SH_COUNT])]).toEqual([...want.shingles]);
    }
  });

  it('splits lines as readline does, strips a BOM on line 1 only, and names lines in the unit', () => {
    const text = '\ufeff{"text":"a"}\r\n\r{"text":"b"}\r  \t\n{"text":"c"}';
    const got = runKernel(encoder.encode(text), setup, 1, 'p:');
    expect(got.map((g) => [g.status, g.line, g.start, g.end])).toEqual([
      [LineStatus.Document, 1, 3, 17],
      [LineStatus.Blank, 2, 17, 18],
      [LineStatus.Document, 3, 18, 31],
      [LineStatus.Blank, 4, 31, 35],
      [LineStatus.Document, 5, 35, 47],
    ]);
    expect(got.map((g) => g.id)).toEqual(['p:1', '', 'p:3', '', 'p:5']);
  });

  it('hands JavaScript every line it is not sure of', () => {
    const cases = [
      '{"text": "a",}', // trailing comma
      '{"text": 1}', // not a string
      '{"id": null, "text": "a"}',
      '{"id": 1.5, "text": "a"}',
      '{"id": 12345678901234567, "text": "a"}', // beyond 15 digits
      '{"id": -0, "text": "a"}',
      '{"id": "\\ud800", "text": "a"}', // a lone surrogate in an id
      '{"t\\u0065xt": "a"}', // an escaped key
      '{"text": "a"} x',
      '{"text": "\\x"}',
      '{"text": "a\tb"}', // a raw control character
      '{"text": "ΑΣ"}',
      '[1]',
      '\u00a0{"text": "a"}',
      '{"text": "a", "n": 01}',
      '{"text": "a", "n": [1 2]}',
      '{"text": "a", "n": {"a" 1}}',
      '{"other": "a"}',
    ];
    for (const line of cases) expect(runKernel(encoder.encode(line))[0].status, line).toBe(LineStatus.ForJs);
    // Invalid UTF-8 in a string: TextDecoder would replace it; JavaScript reads the line.
    const invalid = new Uint8Array([...encoder.encode('{"text": "a'), 0xc3, 0x28, ...encoder.encode('"}')]);
    expect(runKernel(invalid)[0].status).toBe(LineStatus.ForJs);
    expect(
      runKernel(encoder.encode('{"id": "x", "text": "a"}'), { ...setup, idField: 'doc', idRequired: true })[0].status,
    ).toBe(LineStatus.ForJs);
  });

  it('keeps the last of repeated fields, as JSON.parse does', () => {
    const [got] = runKernel(encoder.encode('{"text": 1, "id": "a", "text": "Hello World", "id": "b"}'));
    expect(got.status).toBe(LineStatus.Document);
    checkDocument(got, 'Hello World', 'b', setup);
  });
});

describe('the first pass kernel at its size limit', () => {
  it('leaves a text past its layout limit to the TypeScript path instead of addressing past 2^31', () => {
    // 3 bytes a UTF-16 unit, about 28 bytes of layout per input byte: 15 M units lay out past 1 GiB.
    const text = 'word '.repeat(3_000_000);
    expect(kernelText(text, setup) === undefined).toBe(true); // (a failure here must not print 15 M words)
    expect(kernelText('word '.repeat(1000), setup) !== undefined).toBe(true);
  });
});
