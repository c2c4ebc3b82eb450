// A file read by range (the CLI's uncompressed JSON Lines): ranges cut anywhere hold every line once, in order, each
// whole — a line split across two ranges, a UTF-8 character or a \r\n cut at a boundary, a last line without its
// end, a line longer than several ranges — and their line counts add up to the file's.
import { describe, expect, it } from 'vitest';
import { countLines } from '../../src/firstPass/lineUnits.js';
import { loadRange, rangeLines, type RangeUnit } from '../../src/firstPass/rangeUnits.js';
import { rng } from '../support/reference.js';
import { expectSameWords } from '../support/sameWords.js';

const encode = (text: string) => new TextEncoder().encode(text);

async function loadAll(bytes: Uint8Array, step: number) {
  const reads: number[] = [];
  const readAt = async (_source: unknown, position: number, length: number) => {
    reads.push(length);
    return bytes.slice(position, position + length);
  };
  const loaded = [];
  for (let start = 0; start < bytes.length; start += step) {
    const range: RangeUnit = {
      kind: 'range',
      path: 'f.jsonl',
      source: 'f.jsonl',
      start,
      end: Math.min(bytes.length, start + step),
      size: bytes.length,
      qualifyIds: false,
    };
    loaded.push(await loadRange(range, readAt));
  }
  return { loaded, reads };
}

/** Every range's lines end to end are the file, each piece whole lines at its place, the counts the file's. */
function expectWhole(bytes: Uint8Array, loaded: Awaited<ReturnType<typeof loadAll>>['loaded']) {
  const joined = new Uint8Array(loaded.reduce((n, l) => n + l.bytes.length, 0));
  let at = 0;
  for (const piece of loaded) {
    if (piece.bytes.length === 0) {
      expect(piece.lines).toBe(0);
      continue;
    }
    expect(piece.offset).toBe(at);
    expect(at === 0 || bytes[at - 1] === 0x0a).toBe(true);
    const end = at + piece.bytes.length;
    expect(end === bytes.length || bytes[end - 1] === 0x0a).toBe(true);
    joined.set(piece.bytes, at);
    at = end;
  }
  expect(at).toBe(bytes.length);
  expectSameWords(joined, bytes, 'the units joined');
  expect(loaded.reduce((n, l) => n + l.lines, 0)).toBe(countLines(bytes, true));
}

describe('loadRange', () => {
  it('cuts after a \\n only, whatever the range boundaries cut', async () => {
    const text = '{"a":"é"}\r\n{"b":"东京"}\n\n{"c":1}\r{"d":"👩‍👩‍👧"}\r\n{"e":"last, no end"}';
    const bytes = encode(text);
    for (let step = 1; step <= bytes.length + 1; step++) expectWhole(bytes, (await loadAll(bytes, step)).loaded);
  });

  it('gives a line longer than several ranges to the range it starts in, reading on past its end', async () => {
    const long = `{"text":"${'x'.repeat(200_000)}"}`;
    const bytes = encode(`{"a":1}\n${long}\n{"b":2}\n${long}`);
    const { loaded, reads } = await loadAll(bytes, 50_000);
    expectWhole(bytes, loaded);
    expect(loaded.filter((l) => l.bytes.length === 0).length).toBeGreaterThanOrEqual(4);
    expect(reads.length).toBeGreaterThan(loaded.length); // read on for the line's end
    expect(loaded[0].lines).toBe(2);
  });

  it('holds every line of random files cut in random steps once, in order', async () => {
    const random = rng(3);
    const pieces = ['{"t":"a"}', 'é', '東', '😀', '\r\n', '\n', '\r', ' ', 'xyz'];
    for (let trial = 0; trial < 40; trial++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 300) }, () => pieces[Math.floor(random() * 9)]).join(
        '',
      );
      const bytes = encode(text);
      const step = 1 + Math.floor(random() * 40);
      expectWhole(bytes, (await loadAll(bytes, step)).loaded);
    }
  });

  it('reads as the lines unit of its place: the byte order mark stripped only at the start of the file', async () => {
    const bytes = encode('\ufeff{"a":1}\n{"b":2}\n');
    const { loaded } = await loadAll(bytes, 8);
    const range = { kind: 'range', path: 'f.jsonl', source: 'f.jsonl', qualifyIds: true } as RangeUnit;
    const units = loaded.filter((l) => l.bytes.length > 0).map((l, i) => rangeLines(range, l, i + 1));
    expect(units.map((u) => [u.offset, u.stripBom, u.firstLine, u.qualifyIds])).toEqual([
      [0, true, 1, true],
      [11, false, 2, true],
    ]);
  });
});
