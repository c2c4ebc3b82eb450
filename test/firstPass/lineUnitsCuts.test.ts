/**
 * lineUnits (which copies each byte once) against the implementation it
 * replaced, kept here as the reference: it joined everything held on every
 * chunk and searched it whole. On random inputs — line lengths from empty to
 * longer than a unit, \n, \r\n and lone \r, with and without a final line end,
 * a BOM, `.json` files — and random chunks from one byte to more than a unit,
 * both must give the same units: kind, bytes, first line, offset, stripBom.
 * Both ways it searches: with Node's Buffer, and without (the tab).
 */
import { describe, expect, it, vi } from 'vitest';
import { lineUnits } from '../../src/firstPass/lineUnits.js';
import type { InputUnit } from '../../src/firstPass/protocol.js';
import { isJsonName } from '../../src/io/jsonLines.js';
import { rng } from '../support/reference.js';

// ---- The reference: lineUnits as it was before it copied each byte once. ----

const LF = 0x0a;
const CR = 0x0d;

async function* referenceLineUnits(
  path: string,
  chunks: AsyncIterable<Uint8Array>,
  qualifyIds: boolean,
  unitBytes: number,
  unitLines = Infinity,
): AsyncGenerator<InputUnit> {
  let parts: Uint8Array[] = [];
  let held = 0;
  let firstLine = 1;
  let offset = 0;
  let opened = false;
  const unit = (bytes: Uint8Array, final: boolean): InputUnit => {
    const out: InputUnit = { kind: 'lines', path, bytes, firstLine, offset, qualifyIds, stripBom: offset === 0 };
    firstLine += referenceCountLines(bytes, final);
    offset += bytes.length;
    return out;
  };
  for await (const chunk of chunks) {
    parts.push(chunk);
    held += chunk.length;
    if (!opened && isJsonName(path)) {
      const start = openingText(parts);
      if (start === undefined) continue;
      opened = true;
      if (start === '[') {
        for await (const more of chunks) parts.push(more);
        yield {
          kind: 'json-array',
          path,
          bytes: copy(
            concat(
              parts,
              parts.reduce((n, p) => n + p.length, 0),
            ),
          ),
          qualifyIds,
        };
        return;
      }
    }
    opened = true;
    for (;;) {
      const joined = concat(parts, held);
      const cut = cutAfter(joined, unitBytes, unitLines);
      if (cut === 0) {
        parts = [joined];
        break;
      }
      yield unit(copy(joined.subarray(0, cut)), false);
      const rest = joined.subarray(cut);
      parts = rest.length > 0 ? [rest] : [];
      held = rest.length;
    }
  }
  if (held > 0) yield unit(copy(concat(parts, held)), true);
}

function cutAfter(held: Uint8Array, bytes: number, lines: number): number {
  if (lines !== Infinity) {
    let at = -1;
    for (let n = 0; n < lines; n++) {
      at = held.indexOf(LF, at + 1);
      if (at < 0) break;
      if (n === lines - 1) return at + 1;
    }
  }
  return held.length >= bytes ? held.lastIndexOf(LF) + 1 : 0;
}

function referenceCountLines(bytes: Uint8Array, final: boolean): number {
  let lines = 0;
  for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, i + 1)) lines++;
  const last = bytes.length - 1;
  if (final && bytes.length > 0 && bytes[last] !== LF) lines++;
  for (let i = bytes.indexOf(CR); i >= 0; i = bytes.indexOf(CR, i + 1)) {
    if (i < last && bytes[i + 1] !== LF) lines++;
  }
  return lines;
}

const decoder = new TextDecoder('utf-8');

function openingText(parts: readonly Uint8Array[]): string | undefined {
  for (const part of parts) {
    const text = decoder.decode(part.subarray(0, 4096)).trimStart();
    if (text.length > 0) return text[0];
    if (part.length > 4096) return '{';
  }
  return undefined;
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0].length === length) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function copy(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}

// ---- Random inputs and chunks. ----

const encoder = new TextEncoder();

/** Lines of random length (mostly short, some longer than a unit) with random line ends; maybe a BOM, leading white space, no final end. */
function randomInput(random: () => number, unitBytes: number, json: boolean): Uint8Array {
  const ends = ['\n', '\n', '\r\n', '\r', '\r\r\n', '\n\n'];
  let text = random() < 0.2 ? '\ufeff' : '';
  if (json && random() < 0.5) text += ' \n\t'.repeat(Math.floor(random() * 3));
  if (json && random() < 0.3) text += '[';
  const lines = Math.floor(random() * 40);
  for (let i = 0; i < lines; i++) {
    const length = random() < 0.1 ? unitBytes + Math.floor(random() * 2 * unitBytes) : Math.floor(random() * 12);
    text += 'é'.repeat(length % 3) + 'x'.repeat(length) + ends[Math.floor(random() * ends.length)];
  }
  if (random() < 0.5) text += 'last line without an end';
  return encoder.encode(text);
}

/** The bytes in chunks of random sizes: single bytes, a few bytes, about a unit, several units; now and then an empty chunk. */
function randomChunks(random: () => number, bytes: Uint8Array, unitBytes: number): Uint8Array[] {
  const sizes = [
    () => 1,
    () => 1 + Math.floor(random() * 5),
    () => 1 + Math.floor(random() * 2 * unitBytes),
    () => unitBytes + Math.floor(random() * 4 * unitBytes),
    () => 0,
  ];
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = sizes[Math.floor(random() * sizes.length)]();
    chunks.push(bytes.slice(at, at + size));
    at += size;
  }
  return chunks;
}

async function* from(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

async function all(units: AsyncIterable<InputUnit>): Promise<InputUnit[]> {
  const out: InputUnit[] = [];
  for await (const unit of units) out.push(unit);
  return out;
}

describe('lineUnits', () => {
  /** lineUnits as the tab loads it: no Buffer, so its searches are Uint8Array's own. */
  async function withoutBuffer(): Promise<typeof lineUnits> {
    vi.stubGlobal('Buffer', undefined);
    vi.resetModules();
    try {
      return (await import('../../src/firstPass/lineUnits.js')).lineUnits;
    } finally {
      vi.unstubAllGlobals();
    }
  }

  it.each([
    ['with', async () => lineUnits],
    ['without', withoutBuffer],
  ])(
    'cuts random inputs in random chunks into the units the joining implementation gave, each in a buffer of its own (%s Buffer)',
    async (_, load) => {
      const lineUnits = await load();
      const random = rng(29);
      let units = 0;
      for (let round = 0; round < 1500; round++) {
        const unitBytes = 1 + Math.floor(random() * (random() < 0.5 ? 16 : 200));
        const unitLines = random() < 0.3 ? 1 + Math.floor(random() * 6) : Infinity;
        const path = random() < 0.2 ? 'in.json' : 'in.jsonl';
        const bytes = randomInput(random, unitBytes, path.endsWith('.json'));
        const chunks = randomChunks(random, bytes, unitBytes);
        const got = await all(lineUnits(path, from(chunks), round % 2 === 0, unitBytes, unitLines));
        const expected = await all(referenceLineUnits(path, from(chunks), round % 2 === 0, unitBytes, unitLines));
        expect(got, `round ${round}: ${unitBytes} bytes, ${unitLines} lines, ${chunks.length} chunks`).toEqual(
          expected,
        );
        for (const unit of got) {
          if (unit.kind !== 'lines' && unit.kind !== 'json-array') continue;
          expect(unit.bytes.byteOffset).toBe(0);
          expect(unit.bytes.byteLength).toBe(unit.bytes.buffer.byteLength);
        }
        units += got.length;
      }
      expect(units).toBeGreaterThan(10_000);
    },
  );

  it('cuts half-MiB units from 16 KiB to 1 MiB chunks as the joining implementation did', async () => {
    const random = rng(7);
    const bytes = randomInput(random, 1 << 12, false);
    const big = new Uint8Array(bytes.length * 200);
    for (let i = 0; i < 200; i++) big.set(bytes, i * bytes.length);
    for (const size of [1 << 14, 1 << 16, (1 << 16) + 7, 1 << 20]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < big.length; at += size) chunks.push(big.subarray(at, at + size));
      expect(await all(lineUnits('big.jsonl', from(chunks), false))).toEqual(
        await all(referenceLineUnits('big.jsonl', from(chunks), false, 1 << 19)),
      );
    }
  });
});
