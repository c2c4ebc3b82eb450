import { describe, expect, it } from 'vitest';
import { ExactDuplicateIndex } from '../../src/exact/exactDuplicates.js';
import { normalizedForExactMatch } from '../../src/text/normalize.js';
import { DEFAULT_NORMALIZE } from '../../src/text/normalize.js';

describe('exact pre-pass', () => {
  it('groups texts equal after normalization, in order of first appearance', () => {
    const index = new ExactDuplicateIndex();
    const texts = ['Hello  World', 'another text', 'hello world\n', 'HELLO WORLD', 'another  text ', 'third'];
    const groups = texts.map((t) => index.add(normalizedForExactMatch(t, DEFAULT_NORMALIZE)));
    expect(groups.map((g) => g.group)).toEqual([0, 1, 0, 0, 1, 2]);
    expect(groups.map((g) => g.isNew)).toEqual([true, true, false, false, false, true]);
    expect(index.size).toBe(3);
  });

  it('honours the normalization options', () => {
    const strip = { nfkc: true, stripPunctuation: true };
    expect(normalizedForExactMatch('Ｈello, world!', strip)).toBe(normalizedForExactMatch('hello world', strip));
    expect(normalizedForExactMatch('hello, world!', DEFAULT_NORMALIZE)).not.toBe(
      normalizedForExactMatch('hello world', DEFAULT_NORMALIZE),
    );
  });

  it('keeps 50,000 distinct texts apart while growing', () => {
    const index = new ExactDuplicateIndex();
    for (let i = 0; i < 50_000; i++) expect(index.add(`document number ${i}`).group).toBe(i);
    for (let i = 0; i < 50_000; i += 997) expect(index.add(`document number ${i}`)).toEqual({ group: i, isNew: false });
  });

  it('tells keys apart that share a slot, a tag (the second word) or both, in order of first appearance', () => {
    const index = new ExactDuplicateIndex();
    // Half the keys share the tag, which chooses the slot (one slot, then its neighbours); some differ
    // only in the third or the fourth word. A key is told equal only where all four words are.
    const keys: number[][] = [];
    for (let i = 0; i < 3000; i++) {
      const j = i % 2000; // keys 2000 to 2999 repeat the first thousand
      keys.push([(j % 3) * 2 ** 20, j % 2 === 0 ? 7 : j, j % 5, Math.floor(j / 5)]);
    }
    const key = (k: number[]) => Uint32Array.from(k);
    const groups = keys.map((k) => index.addKey(key(k), 0));
    const first = new Map<string, number>();
    keys.forEach((k, i) => {
      const seen = first.get(k.join());
      expect(groups[i]).toEqual(
        seen === undefined ? { group: first.size, isNew: true } : { group: seen, isNew: false },
      );
      if (seen === undefined) first.set(k.join(), first.size);
    });
    // Again, after the table grew (2000 groups: from 1024 slots to 4096): each finds its group.
    keys.forEach((k) =>
      expect(index.addKey(key([0, 0, 0, 0, ...k]), 4)).toEqual({ group: first.get(k.join()), isNew: false }),
    );
    expect(index.addKey(key([0, 7, 0, 1]), 0).isNew).toBe(true); // the tag and the first word of key 0, not the rest
    expect(index.size).toBe(first.size + 1);
  });

  it('touch reads ahead without adding: the same groups with it, across grows', () => {
    let seed = 3;
    const random = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    const keys = new Uint32Array(4 * 5000);
    for (let i = 0; i < keys.length; i++) keys[i] = random();
    for (let i = 100; i < 5000; i += 7) keys.copyWithin(4 * i, 4 * (i >> 1), 4 * (i >> 1) + 4); // repeats
    const plain = new ExactDuplicateIndex();
    const touched = new ExactDuplicateIndex();
    for (let unit = 0; unit < 5000; unit += 250) {
      const view = keys.subarray(4 * unit, 4 * (unit + 250));
      expect(typeof touched.touch(view, 250)).toBe('number');
      expect(touched.size).toBe(plain.size);
      for (let i = 0; i < 250; i++) expect(touched.addKey(view, 4 * i)).toEqual(plain.addKey(view, 4 * i));
    }
    expect(touched.size).toBe(plain.size);
  });
});
