import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { rangedLines, splitLines } from '../../src/io/lines.js';
import { rng } from '../support/reference.js';

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** The bytes in chunks cut at random places, multibyte characters and \r\n pairs included. */
function chunked(bytes: Buffer, random: () => number): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(random() * 40);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks, { objectMode: false });
}

describe('splitLines', () => {
  it('splits exactly as readline (crlfDelay: Infinity) does, on random text cut into random chunks', async () => {
    const random = rng(7);
    const pieces = ['a', 'bc', ' ', 'é', '€', '😀', '\n', '\r\n', '\r', '{"id":1}', '\n\n', '\uFFFD'];
    for (let trial = 0; trial < 300; trial++) {
      const parts = Array.from(
        { length: Math.floor(random() * 30) },
        () => pieces[Math.floor(random() * pieces.length)],
      );
      let bytes = Buffer.from(parts.join(''), 'utf8');
      // Invalid UTF-8 too: a truncated sequence before a line end decodes to U+FFFD both ways.
      if (trial % 5 === 0) bytes = Buffer.concat([bytes, Buffer.from([0xe2, 0x82, 0x0a, 0x41])]);

      const expected = await collect(createInterface({ input: Readable.from([bytes]), crlfDelay: Infinity }));
      expect(await collect(splitLines(chunked(bytes, random))), JSON.stringify(bytes.toString('latin1'))).toEqual(
        expected,
      );
    }
  });

  it('joins a line spread over many chunks once', async () => {
    const long = 'x'.repeat(100_000);
    const bytes = Buffer.from(`${long}\nshort\n${long}`);
    expect(await collect(splitLines(chunked(bytes, rng(1))))).toEqual([long, 'short', long]);
  });
});

describe('rangedLines', () => {
  it("gives splitLines' lines, each the decoding of its byte range, invalid UTF-8 and lone \\r included", async () => {
    const random = rng(11);
    const pieces = ['a', 'bc', ' ', 'é', '€', '😀', '\n', '\r\n', '\r', '{"id":1}', '\n\n', '\uFFFD', '\r\r\n'];
    for (let trial = 0; trial < 300; trial++) {
      const parts = Array.from(
        { length: Math.floor(random() * 30) },
        () => pieces[Math.floor(random() * pieces.length)],
      );
      let bytes = Buffer.from(parts.join(''), 'utf8');
      if (trial % 3 === 0)
        bytes = Buffer.concat([bytes, Buffer.from([0xe2, 0x82, 0x0d, 0xf0, 0x9f, 0x0a, 0x41, 0xc3])]);
      // The lines lie at byte `base` of a file.
      const base = Math.floor(random() * 1000);
      const ranged = rangedLines(bytes, base);
      const label = JSON.stringify(bytes.toString('latin1'));
      expect(
        ranged.map((l) => l.text),
        label,
      ).toEqual(await collect(splitLines(Readable.from([bytes]))));
      for (const line of ranged)
        expect(bytes.toString('utf8', line.start - base, line.end - base), label).toBe(line.text);
    }
  });
});
