import { describe, expect, it } from 'vitest';
import { sharedShingleView } from '../../src/shingles/sharedShingles.js';
import { shingleDocument, type ShingleOptions } from '../../src/shingles/shingles.js';
import { exactJaccard } from '../../src/verify/verification.js';
import { looksBinary } from '../../src/io/binaryText.js';

const word: ShingleOptions = { mode: 'word', n: 3, normalize: { nfkc: false, stripPunctuation: false } };

describe('sharedShingleView', () => {
  it('marks the words covered by shingles the other document has, and only those', () => {
    const a = 'one two three four five six seven eight nine ten';
    const b = 'One two three four CHANGED six seven eight nine ten';
    const view = sharedShingleView(a, shingleDocument(b, word), word);
    expect(view.segments).toEqual([
      { text: 'one two three four ', shared: true }, // "two three four" is in b
      { text: 'five ', shared: false },
      { text: 'six seven eight nine ten', shared: true },
    ]);
    expect(view.segments.map((s) => s.text).join('')).toBe(a);
    const setA = shingleDocument(a, word);
    const setB = shingleDocument(b, word);
    expect(view.shingles).toBe(8);
    // |A ∩ B| from the view and the sizes give the exact Jaccard.
    expect(view.sharedShingles / (setA.length / 2 + setB.length / 2 - view.sharedShingles)).toBeCloseTo(
      exactJaccard(setA, setB),
      12,
    );
  });

  it('works on code points in character mode', () => {
    const char: ShingleOptions = { ...word, mode: 'char', n: 2 };
    const view = sharedShingleView('abcd😀', shingleDocument('xbcy😀', char), char);
    expect(view.segments).toEqual([
      { text: 'a', shared: false },
      { text: 'bc', shared: true },
      { text: 'd😀', shared: false },
    ]);
  });

  it('has nothing to show for an empty document', () => {
    expect(sharedShingleView('  ', new Uint32Array(0), word).segments).toEqual([]);
  });
});

describe('looksBinary', () => {
  const utf8 = new TextEncoder();
  it('takes text (with non-ASCII and a literal U+FFFD) for text, NULs and invalid UTF-8 for binary', () => {
    expect(looksBinary(utf8.encode('{"text": "héllo wörld 中文 \ufffd"}\n'.repeat(300)))).toBe(false);
    expect(looksBinary(new Uint8Array(0))).toBe(false);
    expect(looksBinary(Uint8Array.from([0x7b, 0x22, 0x00, 0x22]))).toBe(true);
    const random = Uint8Array.from({ length: 4096 }, (_, i) => ((i * 2654435761) >>> 24) | 0x80);
    expect(looksBinary(random)).toBe(true);
    // Cut in the middle of a multi-byte sequence at the end: still text.
    const cut = utf8.encode('é'.repeat(100)).subarray(0, 199);
    expect(looksBinary(cut)).toBe(false);
  });
});
