import { describe, expect, it } from 'vitest';
import { ReferenceNgrams } from '../../src/substrings/ngramOverlap.js';
import { rng } from '../support/reference.js';
import { bruteForceSpans } from '../support/ngramReference.js';

function randomTokens(random: () => number, vocabulary: number, length: number): string[] {
  return Array.from({ length }, () => `w${Math.floor(random() * vocabulary)}`);
}

describe('ReferenceNgrams', () => {
  it('finds exactly the brute-force spans on random small corpora (small vocabularies: many overlaps)', () => {
    const random = rng(1332);
    let spans = 0;
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(random() * 5);
      const vocabulary = 2 + Math.floor(random() * 5);
      const references = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        randomTokens(random, vocabulary, Math.floor(random() * 30)),
      );
      const index = new ReferenceNgrams(n);
      for (const ref of references) index.add(ref);
      for (let d = 0; d < 4; d++) {
        const corpus = randomTokens(random, vocabulary + 1, Math.floor(random() * 40));
        const expected = bruteForceSpans(corpus, references, n);
        expect(index.overlaps(corpus)).toEqual(expected);
        spans += expected.length;
      }
    }
    expect(spans).toBeGreaterThan(1000); // the comparison saw many spans
  });

  it('finds a reference passage planted in a long random document, and nothing else', () => {
    const random = rng(5);
    const reference = randomTokens(random, 50_000, 200);
    const index = new ReferenceNgrams(13);
    index.add(reference);
    const corpus = [
      ...randomTokens(random, 50_000, 500),
      ...reference.slice(40, 90),
      ...randomTokens(random, 50_000, 500),
    ];
    expect(index.overlaps(corpus)).toEqual([
      { reference: 0, start: 500, end: 550, referenceStart: 40, referenceEnd: 90 },
    ]);
  });

  it('reports nothing for spans shorter than n, and every place a repeated passage occurs in the reference', () => {
    const index = new ReferenceNgrams(3);
    index.add(['a', 'b', 'c', 'x', 'a', 'b', 'c']);
    expect(index.overlaps(['a', 'b', 'y', 'b', 'c'])).toEqual([]);
    expect(index.overlaps(['z', 'a', 'b', 'c'])).toEqual([
      { reference: 0, start: 1, end: 4, referenceStart: 0, referenceEnd: 3 },
      { reference: 0, start: 1, end: 4, referenceStart: 4, referenceEnd: 7 },
    ]);
  });

  it('never reports a hash collision: with every window given one of two keys, the spans are still exact', () => {
    class Colliding extends ReferenceNgrams {
      protected override windowKey = (
        ids: Int32Array,
        from: number,
        _n: number,
        out: Uint32Array,
        at: number,
      ): void => {
        out[at] = ids[from] & 1;
        out[at + 1] = 0;
      };
    }
    const random = rng(77);
    const references = Array.from({ length: 20 }, () => randomTokens(random, 5, 40));
    const index = new Colliding(4);
    for (const ref of references) index.add(ref);
    for (let d = 0; d < 20; d++) {
      const corpus = randomTokens(random, 6, 200);
      expect(index.overlaps(corpus)).toEqual(bruteForceSpans(corpus, references, 4));
    }
  });

  it('refuses n below 1 or fractional', () => {
    expect(() => new ReferenceNgrams(0)).toThrow('n must be a positive integer, got 0');
    expect(() => new ReferenceNgrams(2.5)).toThrow('n must be a positive integer, got 2.5');
  });
});
