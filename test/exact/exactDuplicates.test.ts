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
});
