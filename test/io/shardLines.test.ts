// `sign --shard`'s pieces: a file cut into byte ranges anywhere gives every JSON line once, in order, with the byte
// range its text lies at — across the 1 MiB steps a piece is read in, a \r\n or a UTF-8 character cut at a boundary,
// a line longer than a step, and a last line without its end.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadOptions } from '../../src/io/documents.js';
import { readLines } from '../../src/io/shardLines.js';
import { rng } from '../support/reference.js';
import { tempDir } from '../support/tempDirs.js';

const read = { idField: 'id', textField: 'text' } as ReadOptions;

describe('readLines', () => {
  it('pieces cut anywhere hold every line once, in order, each text at its byte range', async () => {
    const random = rng(5);
    const words = ['a', 'é', '東京', '😀', 'xyz', ' '];
    const texts = Array.from({ length: 8000 }, (_, i) =>
      i === 1200
        ? 'L'.repeat(1_500_000)
        : Array.from({ length: 1 + Math.floor(random() * 400) }, () => words[Math.floor(random() * 6)]).join(''),
    );
    const lines = texts.map((text, i) => JSON.stringify({ id: `d${i}`, text }));
    const body = lines
      .map((line, i) => line + (i % 7 === 0 ? '\r\n' : '\n'))
      .join('')
      .slice(0, -1); // no last \n
    const path = join(tempDir(), 'corpus.jsonl');
    writeFileSync(path, body);
    const bytes = Buffer.from(body);
    const size = bytes.length;
    const cuts = [0, ...Array.from({ length: 3 }, () => Math.floor(random() * size)).sort((a, b) => a - b), size];
    const seen: string[] = [];
    for (let i = 0; i + 1 < cuts.length; i++) {
      for await (const doc of readLines(path, cuts[i], cuts[i + 1], false, read, () => {})) {
        seen.push(doc.id);
        const { start, bytes: length } = doc.range!;
        expect(JSON.parse(bytes.toString('utf8', start, start + length)).text).toBe(doc.text);
      }
    }
    expect(seen).toEqual(texts.map((_, i) => `d${i}`));
  });
});
