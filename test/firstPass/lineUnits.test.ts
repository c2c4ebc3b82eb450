/**
 * The first pass's cutting and parsing (lineUnits, unitDocuments) against the
 * streaming reader (src/io/readDocuments.ts, readline's line ends): the same
 * documents, line numbers and kept bytes whatever the chunks and unit sizes,
 * down to one byte (lines and multi-byte characters split across chunks).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countLines, lineUnits } from '../../src/firstPass/lineUnits.js';
import type { InputUnit } from '../../src/firstPass/protocol.js';
import { unitDocuments } from '../../src/firstPass/unitDocuments.js';
import { DEFAULT_READ } from '../../src/io/documents.js';
import { NODE_SOURCES } from '../../src/firstPass/node/nodeSources.js';
import { listInputFiles, readDocuments } from '../../src/io/readDocuments.js';
import { tempDir } from '../support/cli.js';
import { rng } from '../support/reference.js';

const READ = { textField: 'text', idField: 'id', skipInvalid: true, strict: false };
const encoder = new TextEncoder();

/** JSON lines with every line end readline knows, blank lines, a BOM, multi-byte text and a line of invalid UTF-8. */
function corpus(seed: number): Uint8Array {
  const random = rng(seed);
  const words = ['alpha', 'héllo', 'wörld', '中文', '😀', 'x', 'line'];
  const ends = ['\n', '\r\n', '\r', '\n\n', '\r\r\n'];
  const parts: Uint8Array[] = [encoder.encode('\ufeff')];
  for (let i = 0; i < 60; i++) {
    const text = Array.from(
      { length: 1 + Math.floor(random() * 12) },
      () => words[Math.floor(random() * words.length)],
    ).join(' ');
    const record = random() < 0.3 ? { text } : { id: `d${i}`, text };
    parts.push(encoder.encode(JSON.stringify(record)));
    if (i === 17) parts.push(Uint8Array.of(0x20, 0xff, 0xfe)); // invalid UTF-8 after the object: a malformed line, skipped by both
    if (i === 30) parts.push(encoder.encode(' \t '));
    parts.push(encoder.encode(ends[Math.floor(random() * ends.length)]));
  }
  parts.push(encoder.encode(JSON.stringify({ id: 'last', text: 'no final line end' })));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

async function collect(units: AsyncIterable<InputUnit> | Iterable<InputUnit>) {
  const out: { id: string; text: string; bytes?: string }[] = [];
  for await (const doc of unitDocuments(units, READ, NODE_SOURCES))
    out.push({ id: doc.id, text: doc.text, bytes: doc.lineBytes && Buffer.from(doc.lineBytes).toString('latin1') });
  return out;
}

describe('lineUnits and unitDocuments', () => {
  for (const seed of [1, 2, 3]) {
    it(`give the streaming reader's documents, whatever the chunks and units (seed ${seed})`, async () => {
      const bytes = corpus(seed);
      const path = join(tempDir(), 'c.jsonl');
      writeFileSync(path, bytes);
      const expected: { id: string; text: string }[] = [];
      const skipped: string[] = [];
      for await (const doc of readDocuments(await listInputFiles([path]), {
        ...DEFAULT_READ,
        skipInvalid: true,
        onInvalid: (m) => skipped.push(m),
      }))
        expected.push({ id: doc.id, text: doc.text });
      expect(skipped.length).toBeGreaterThan(0); // the invalid line is there, and skipped by both
      for (const [chunk, unit] of [
        [1, 1],
        [3, 7],
        [7, 64],
        [64, 3],
        [1 << 16, 1 << 19],
      ]) {
        const docs = await collect(lineUnits(path, chunked(bytes, chunk), false, unit));
        expect(docs.map(({ id, text }) => ({ id, text }))).toEqual(expected);
        // Each document's bytes are its line as it came in, its line end included (the BOM left out).
        for (const doc of docs) {
          const line = Buffer.from(doc.bytes!, 'latin1').toString('utf8');
          expect(JSON.parse(line).text).toBe(doc.text);
          if (doc.id !== 'last') expect(line).toMatch(/[\r\n]$/);
          expect(line.startsWith('\ufeff')).toBe(false);
        }
      }
    });
  }

  it('counts lines as readline does: \\n, \\r\\n, a lone \\r, and a last line without an end', () => {
    const lines = (text: string, final = true) => countLines(encoder.encode(text), final);
    expect(lines('a\nb\n')).toBe(2);
    expect(lines('a\r\nb')).toBe(2);
    expect(lines('a\rb\r\n')).toBe(2);
    expect(lines('a\r')).toBe(1);
    expect(lines('a\r\r\n')).toBe(2);
    expect(lines('')).toBe(0);
  });

  it('reads a .json file holding one array of objects as one unit', async () => {
    const bytes = encoder.encode('  [\n{"id": "a", "text": "one"},\n{"id": "b", "text": "two"}\n]\n');
    const units: InputUnit[] = [];
    for await (const unit of lineUnits('x.json', chunked(bytes, 2), false, 4)) units.push(unit);
    expect(units.map((u) => u.kind)).toEqual(['json-array']);
    expect((await collect(units)).map((d) => d.id)).toEqual(['a', 'b']);
  });
});
