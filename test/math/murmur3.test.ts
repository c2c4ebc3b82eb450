/** Known answers from the SMHasher reference (through Python's mmh3.hash_bytes(data, 0, x64arch=False)). */
import { describe, expect, it } from 'vitest';
import { murmur3x86_128 } from '../../src/math/murmur3.js';

const hex = (words: Uint32Array): string => Buffer.from(words.buffer, words.byteOffset, 16).toString('hex');

const KNOWN: [string, string][] = [
  ['', '00000000000000000000000000000000'],
  ['a', '3c9394a71bb056551bb056551bb05655'],
  ['hello', 'a044242bf7de91dbb631db9ab631db9a'],
  ['hello world', '881ab2c0e1c1f3141a150d1c2c9e0c9b'],
  ['The quick brown fox jumps over the lazy dog', 'c383152f672ceeec6cf67b5d2c1de9e5'],
  ['éé ∑ 𝄞 \ufffd', 'b32039c2905ad148af543a35ae62d0d7'],
  ['x'.repeat(15), 'b543fa825b401c7893338d541b879d15'],
  ['y'.repeat(16), '318e443ed52925e6276b0a99fee16335'],
  ['z'.repeat(17), 'e978d4f0a05401182eb8688d1d82f632'],
  ['w'.repeat(31) + '!', 'a3c8046100c544ba0198daea00cccf96'],
];

describe('murmur3x86_128', () => {
  it.each(KNOWN)('hashes %j as the reference does', (text, expected) => {
    expect(hex(murmur3x86_128(new TextEncoder().encode(text)))).toBe(expected);
  });

  it('hashes every byte value (all tail lengths reached by prefixes)', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hex(murmur3x86_128(bytes))).toBe('8fc8562cdf0345db1ab252d3c0a24c49');
    // A prefix given by length equals the same bytes copied out.
    for (let n = 0; n <= 40; n++) expect(hex(murmur3x86_128(bytes, n))).toBe(hex(murmur3x86_128(bytes.slice(0, n))));
  });
});
