// SHA-1 shingles of the datasketch schemes: the wasm kernel and the TypeScript
// reference against node:crypto, and the byte windows against the shingle strings.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1WindowsReference } from '../../src/shingles/sha1.js';
import { charWindows, shingleStrings, wordWindows } from '../../src/shingles/sha1Shingles.js';
import { shingleDocument, shingleDocumentReference } from '../../src/shingles/shingles.js';
import { wasmShinglerUnavailable, wasmWindowHashes } from '../../src/shingles/wasm/shingleKernel.js';
import { DEFAULT_NORMALIZE, tokenize } from '../../src/text/normalize.js';
import { mulberry32, randomUnicodeText } from '../support/unicodeText.js';

/** datasketch's sha1_hash32 / sha1_hash64 by node:crypto, as a (lo, hi) pair. */
function nodeSha1(bytes: Uint8Array, wide: boolean): [number, number] {
  const digest = createHash('sha1').update(bytes).digest();
  return [digest.readUInt32LE(0), wide ? digest.readUInt32LE(4) : 0];
}

describe('SHA-1 of byte windows', () => {
  const random = mulberry32(22);
  const bytes = new Uint8Array(600).map(() => Math.floor(random() * 256));
  // Every length 0..200 (one and two padded tail blocks, whole blocks) plus long ones, at odd offsets.
  const lengths = [...Array.from({ length: 201 }, (_, i) => i), 255, 256, 257, 511, 512, 577];
  const windows = new Uint32Array(
    lengths.flatMap((length) => {
      const start = Math.floor(random() * (bytes.length - length + 1));
      return [start, start + length];
    }),
  );

  for (const wide of [false, true]) {
    it(`the TypeScript reference equals node:crypto's first ${wide ? 8 : 4} digest bytes, little-endian`, () => {
      const expected = new Uint32Array(windows.length);
      for (let i = 0; i < windows.length; i += 2)
        expected.set(nodeSha1(bytes.subarray(windows[i], windows[i + 1]), wide), i);
      expect(Array.from(sha1WindowsReference(bytes, windows, wide))).toEqual(Array.from(expected));
    });
  }

  it('the wasm shingle kernel hashes shingles of every length 1..130 bytes as node:crypto does', () => {
    expect(wasmShinglerUnavailable()).toBeUndefined();
    // One token of 300 code points of 1–4 UTF-8 bytes: char n-grams for n = 1..120 cover every byte length.
    const pool = Array.from('aé漢😀');
    const text = Array.from({ length: 300 }, () => pool[Math.floor(random() * pool.length)]).join('');
    const encoder = new TextEncoder();
    const lengthsSeen = new Set<number>();
    for (const hash of ['sha1-32', 'sha1-64'] as const) {
      for (let n = 1; n <= 120; n += hash === 'sha1-32' ? 1 : 7) {
        const got = wasmWindowHashes(text, 'char', n, hash)!.hashes;
        const strings = shingleStrings(text, { mode: 'char', n, normalize: DEFAULT_NORMALIZE });
        const expected = strings.flatMap((s) => {
          lengthsSeen.add(encoder.encode(s).length);
          return nodeSha1(encoder.encode(s), hash === 'sha1-64');
        });
        expect(Array.from(got), `${hash} n=${n}`).toEqual(expected);
      }
    }
    for (let length = 1; length <= 130; length++)
      expect(lengthsSeen.has(length), `a shingle of ${length} bytes`).toBe(true);
  });

  it('hashes word windows four at a time (SIMD lanes) and one by one alike: every window count mod 4, short and long windows mixed', () => {
    const encoder = new TextEncoder();
    const words = ['a', 'de', 'fox', 'über', '漢字', '😀x', 'supercalifragilistic', 'ab'.repeat(30)];
    let mixed = 0;
    for (let tokens = 1; tokens <= 40; tokens++) {
      const text = Array.from({ length: tokens }, () => words[Math.floor(random() * words.length)]).join(' ');
      for (const n of [1, 2, 5]) {
        for (const hash of ['sha1-32', 'sha1-64'] as const) {
          const strings = shingleStrings(text, { mode: 'word', n, normalize: DEFAULT_NORMALIZE });
          if (strings.some((s) => encoder.encode(s).length > 55) && strings.some((s) => encoder.encode(s).length <= 55))
            mixed++;
          const expected = strings.flatMap((s) => nodeSha1(encoder.encode(s), hash === 'sha1-64'));
          expect(Array.from(wasmWindowHashes(text, 'word', n, hash)!.hashes), `${hash} n=${n}: ${text}`).toEqual(
            expected,
          );
        }
      }
    }
    expect(mixed).toBeGreaterThan(10);
  });
});

describe('datasketch shingle strings', () => {
  const random = mulberry32(7);
  const texts = [
    'The quick brown fox jumps over the lazy dog',
    'one',
    '  two  words ',
    '',
    '東京都の天気は晴れです',
    ...Array.from({ length: 40 }, () => randomUnicodeText(random, Math.floor(random() * 30))),
  ];
  const decoder = new TextDecoder();

  it('the byte windows decode to the strings: word n-grams joined by one space, char n-grams of code points', () => {
    for (const text of texts) {
      const tokens = tokenize(text);
      if (tokens.length === 0) continue;
      for (const n of [1, 3, 5]) {
        for (const mode of ['word', 'char'] as const) {
          const { bytes, windows } = (mode === 'word' ? wordWindows : charWindows)(tokens, n);
          const decoded = Array.from({ length: windows.length / 2 }, (_, w) =>
            decoder.decode(bytes.subarray(windows[2 * w], windows[2 * w + 1])),
          );
          expect(decoded, `${mode} ${n}: ${JSON.stringify(text)}`).toEqual(
            shingleStrings(text, { mode, n, normalize: DEFAULT_NORMALIZE }),
          );
        }
      }
    }
  });

  it('shingleDocument with a SHA-1 hash is the deduplicated SHA-1 of those strings, in wasm and in the reference', () => {
    const encoder = new TextEncoder();
    for (const text of texts) {
      for (const hash of ['sha1-32', 'sha1-64'] as const) {
        for (const mode of ['word', 'char'] as const) {
          const options = { mode, n: 3, normalize: DEFAULT_NORMALIZE, hash };
          const seen = new Set<string>();
          const expected: number[] = [];
          for (const s of shingleStrings(text, options)) {
            const pair = nodeSha1(encoder.encode(s), hash === 'sha1-64');
            if (seen.has(pair.join())) continue;
            seen.add(pair.join());
            expected.push(...pair);
          }
          expect(Array.from(shingleDocument(text, options))).toEqual(expected);
          expect(Array.from(shingleDocumentReference(text, options))).toEqual(expected);
        }
      }
    }
  });
});
