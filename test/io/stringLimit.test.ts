/**
 * The longest string (issue 31, item 11): V8's 2^29 − 24 code units, the
 * same in Node and Chromium. Past it Node's TextDecoder throws and
 * Chromium's returns "" (test/web/tabEdges.test.ts runs the tab on a real
 * file past it); decodeWithin refuses both, naming the file and the limit.
 * Here with the real constant on a real 512 MiB buffer, and the check's
 * arithmetic on small ones with an injected limit.
 */
import { describe, expect, it } from 'vitest';
import { decodeWithin, MAX_STRING_LENGTH } from '../../src/io/stringLimit.js';
import { splitUnitLines } from '../../src/firstPass/readUnit.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

describe('decodeWithin', () => {
  it("is V8's limit: a string of MAX_STRING_LENGTH code units exists, one more does not", () => {
    expect(MAX_STRING_LENGTH).toBe(536_870_888);
    expect('a'.repeat(MAX_STRING_LENGTH).length).toBe(MAX_STRING_LENGTH);
    expect(() => 'a'.repeat(MAX_STRING_LENGTH + 1)).toThrow(/Invalid string length/);
  });

  it('refuses one byte past the limit with the real constant, naming the file, the line and the limit', () => {
    const bytes = new Uint8Array(MAX_STRING_LENGTH + 1).fill(0x61);
    expect(() => decoder.decode(bytes)).toThrow(); // what Node does unchecked: a raw error naming nothing
    expect(() => decodeWithin(decoder, bytes, 'big.txt', 0)).toThrow(
      'big.txt: this file, one document, is 536,870,889 bytes, more text than one JavaScript string holds (536,870,888 UTF-16 code units, about 512 MiB): split it into smaller documents',
    );
    expect(() => [...splitUnitLines(bytes, 'big.jsonl', 7)]).toThrow(
      /^big\.jsonl:7: this line is 536,870,889 bytes, more text than one JavaScript string holds/,
    );
  }, 60_000);

  it("refuses what Chromium's decoder does past the limit (an empty string), and a truncated result", () => {
    const bytes = new Uint8Array(100).fill(0x61);
    const chromium = { decode: () => '' } as unknown as TextDecoder;
    expect(() => decodeWithin(chromium, bytes, 'a.txt', 0, 50)).toThrow(
      /^a\.txt: this file, one document, is 100 bytes/,
    );
    const truncating = { decode: () => 'a'.repeat(20) } as unknown as TextDecoder;
    expect(() => decodeWithin(truncating, bytes, 'a.txt', 3, 50)).toThrow(/^a\.txt:3: this line is 100 bytes/);
  });

  it('past the limit in bytes, text that fits in code units is decoded (three bytes a character)', () => {
    const text = '語'.repeat(30); // 90 bytes, 30 code units
    expect(decodeWithin(decoder, new TextEncoder().encode(text), 'cjk.txt', 0, 50)).toBe(text);
    expect(() => decodeWithin(decoder, new TextEncoder().encode('語'.repeat(60)), 'cjk.txt', 0, 50)).toThrow(
      /180 bytes/,
    );
    expect(decodeWithin(decoder, new TextEncoder().encode('fits'), 'small.txt', 0, 50)).toBe('fits');
  });
});
