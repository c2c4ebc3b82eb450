/** Cuts keep whole characters. */
import { describe, expect, it } from 'vitest';
import { cutRanges, wholeCharacters } from '../../src/substrings/cuts.js';

describe('cuts', () => {
  it('a span starting or ending inside a character keeps that character whole', () => {
    const bytes = Buffer.from('a😀b€c', 'utf8'); // a(0) 😀(1-4) b(5) €(6-8) c(9)
    expect(wholeCharacters(bytes, 2, 7)).toEqual([5, 6]); // inside 😀 … inside €: only b goes
    expect(cutRanges(bytes, [[2, 7]])).toEqual({ text: 'a😀€c', removed: 1 });
    expect(cutRanges(bytes, [[0, 1], [1, 5], [9, 10]])).toEqual({ text: 'b€', removed: 6 });
    expect(cutRanges(bytes, [[2, 4]])).toEqual({ text: 'a😀b€c', removed: 0 });
  });
});
