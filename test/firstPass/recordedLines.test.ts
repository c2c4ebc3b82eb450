/**
 * The second pass's cut of recorded lines (recordedLines), shared by the
 * CLI's writing and the tab's downloads: the wanted documents' lines, byte
 * for byte, against slicing the whole file, whatever the chunks (down to one
 * byte) and whichever documents are wanted; a file that ends early is named;
 * a file with nothing wanted is closed unread.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentRecords } from '../../src/firstPass/documentRecords.js';
import { parseRecordedLine, recordedLines, type FileSpan } from '../../src/firstPass/recordedLines.js';
import { rng } from '../support/reference.js';

const encoder = new TextEncoder();

/** Lines of random lengths (with CRLF, blank lines between documents and multi-byte text), and each document's range. */
function corpus(seed: number): { bytes: Uint8Array; ranges: [number, number][] } {
  const random = rng(seed);
  let text = '';
  const ranges: [number, number][] = [];
  for (let i = 0; i < 80; i++) {
    if (random() < 0.2) text += '\n'; // a blank line: no document
    const start = encoder.encode(text).length;
    text +=
      JSON.stringify({ id: `d${i}`, text: 'wörd '.repeat(Math.floor(random() * 40)) }) +
      (random() < 0.3 ? '\r\n' : '\n');
    ranges.push([start, encoder.encode(text).length]);
  }
  return { bytes: encoder.encode(text), ranges };
}

function recordsOf(ranges: readonly [number, number][]): DocumentRecords {
  return { byteRange: (d: number) => ranges[d] } as unknown as DocumentRecords;
}

async function* chunked(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.slice(at, cut);
    at = cut;
  }
}

async function collect(lines: AsyncIterable<{ document: number; bytes: Uint8Array }>): Promise<[number, string][]> {
  const out: [number, string][] = [];
  for await (const { document, bytes } of lines) out.push([document, Buffer.from(bytes).toString('latin1')]);
  return out;
}

describe('recordedLines', () => {
  it('gives the wanted lines as slicing the whole file does, whatever the chunks', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = rng(seed * 7919);
      const { bytes, ranges } = corpus(seed);
      const span: FileSpan = { first: Math.floor(random() * 5), end: ranges.length - Math.floor(random() * 5) };
      const wanted = new Set(ranges.map((_, d) => d).filter(() => random() < (seed % 4) / 3));
      const cuts =
        seed % 5 === 0
          ? Array.from({ length: bytes.length - 1 }, (_, i) => i + 1) // one byte a chunk
          : Array.from({ length: Math.floor(random() * 20) }, () => Math.floor(random() * bytes.length)).sort(
              (a, b) => a - b,
            );
      const expected: [number, string][] = [];
      for (let d = span.first; d < span.end; d++)
        if (wanted.has(d)) expected.push([d, Buffer.from(bytes.subarray(...ranges[d])).toString('latin1')]);
      const got = await collect(
        recordedLines(chunked(bytes, cuts), 'c.jsonl', recordsOf(ranges), span, (d) => wanted.has(d)),
      );
      expect(got, `seed ${seed}`).toEqual(expected);
    }
  });

  it('in runs: writes the same bytes as line by line, a line without a line feed ending its run', async () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = rng(seed * 104729);
      // Line ends of every kind (a lone CR too) and a last line without one: a copier adds a line feed after a line
      // that lacks one, so a run must end at such a line.
      let text = '';
      const ranges: [number, number][] = [];
      for (let i = 0; i < 60; i++) {
        if (random() < 0.1) text += '\n';
        const start = encoder.encode(text).length;
        const end = i === 59 ? '' : ['\n', '\r\n', '\r', '\n'][Math.floor(random() * 4)];
        text += JSON.stringify({ id: `d${i}`, text: 'wörd '.repeat(Math.floor(random() * 30)) }) + end;
        ranges.push([start, encoder.encode(text).length]);
      }
      const bytes = encoder.encode(text);
      const span: FileSpan = { first: Math.floor(random() * 3), end: ranges.length - (seed % 2) };
      const wanted = new Set(ranges.map((_, d) => d).filter(() => random() < 0.8));
      const cuts = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * bytes.length)).sort(
        (a, b) => a - b,
      );
      const written = (lines: [number, string][]) => lines.map(([, line]) => line + (line.endsWith('\n') ? '' : '\n'));
      const records = recordsOf(ranges);
      const one = await collect(recordedLines(chunked(bytes, cuts), 'c.jsonl', records, span, (d) => wanted.has(d)));
      const runs = await collect(
        recordedLines(chunked(bytes, cuts), 'c.jsonl', records, span, (d) => wanted.has(d), true),
      );
      expect(written(runs).join(''), `seed ${seed}`).toBe(written(one).join(''));
      expect(runs.length, `seed ${seed}`).toBeLessThan(one.length); // lines did go together
      // Each run is named by its first document, one of the lines given one by one.
      const firsts = new Set(one.map(([d]) => d));
      for (const [d] of runs) expect(firsts.has(d)).toBe(true);
    }
  });

  it('names the file when it ends before a wanted line, and closes a file with nothing wanted unread', async () => {
    const { bytes, ranges } = corpus(3);
    const short = bytes.subarray(0, ranges[70][1] - 1);
    const lines = recordedLines(
      chunked(short, [100]),
      'c.jsonl',
      recordsOf(ranges),
      { first: 0, end: ranges.length },
      (d) => d === 70,
    );
    await expect(collect(lines)).rejects.toThrow(
      'c.jsonl: the file changed between passes (it ends before the line of document 71)',
    );
    let pulled = 0;
    let closed = false;
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          pulled++;
          return { done: false, value: bytes };
        },
        return: async () => {
          closed = true;
          return { done: true, value: undefined };
        },
      }),
    };
    expect(
      await collect(recordedLines(source, 'c.jsonl', recordsOf(ranges), { first: 0, end: ranges.length }, () => false)),
    ).toEqual([]);
    expect([pulled, closed]).toEqual([0, true]);
  });

  it('parses a recorded line again (CRLF and a BOM dropped), and names the document of one that no longer parses', () => {
    const read = { textField: 'text', idField: 'id' };
    expect(parseRecordedLine(encoder.encode('\ufeff{"id":"a","text":"wörd"}\r\n'), 'c.jsonl', 0, read)).toMatchObject({
      id: 'a',
      text: 'wörd',
    });
    expect(() => parseRecordedLine(encoder.encode('{"id":"a",\n'), 'c.jsonl', 4, read)).toThrow(
      'c.jsonl: the file changed between passes (document 5 no longer parses)',
    );
  });
});
