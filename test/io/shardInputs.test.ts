import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ } from '../../src/io/documents.js';
import { listInputFiles, readDocuments } from '../../src/io/readDocuments.js';
import { describeForShards, readPiece } from '../../src/io/shardInputs.js';
import { tempDir } from '../support/tempDirs.js';

const dir = tempDir();

/** JSON Lines with the awkward cases: a BOM, \r\n and lone \r ends, blank lines, a 20 kB line, no final line end. */
function awkwardFile(): string {
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    const text = i === 17 ? 'long '.repeat(4000) : `document ${i} ${'é'.repeat(i % 5)}`;
    lines.push(JSON.stringify({ id: `d${i}`, text }));
    if (i % 11 === 3) lines.push('   ');
  }
  const body = lines.map((line, i) => line + (i % 7 === 2 ? '\r\n' : i % 13 === 5 ? '\r' : '\n')).join('');
  const path = join(dir, 'awkward.jsonl');
  writeFileSync(path, '\ufeff' + body.replace(/\n$/, ''));
  return path;
}

async function collect(it: AsyncIterable<{ id: string; text: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const doc of it) out.push(`${doc.id}\t${doc.text}`);
  return out;
}

describe('readPiece on byte ranges', () => {
  it('gives every document once, in order, for any cuts (each line to the range holding its first byte)', async () => {
    const path = awkwardFile();
    const [file] = await listInputFiles([path]);
    const want = await collect(readDocuments([file]));
    expect(want.length).toBe(60);
    const size = file.size!;
    let state = 99;
    const random = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let trial = 0; trial < 40; trial++) {
      const cuts = [...new Set(Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * size)))]
        .filter((c) => c > 0)
        .sort((a, b) => a - b);
      const bounds = [0, ...cuts, size];
      const got: string[] = [];
      let read = 0;
      for (let i = 0; i + 1 < bounds.length; i++) {
        const piece = { kind: 'bytes' as const, file: 0, start: bounds[i], end: bounds[i + 1] };
        got.push(...(await collect(readPiece(file, piece, undefined, false, DEFAULT_READ, (n) => (read += n)))));
      }
      expect(got, `cuts ${cuts.join(', ')}`).toEqual(want);
      expect(read).toBeLessThanOrEqual(size + cuts.length * (20_100 + (1 << 14)));
    }
  });

  it('reads only the first bytes of a big JSON Lines file a cut falls in, and says why one goes whole', async () => {
    const gz = join(dir, 'big.jsonl.gz');
    writeFileSync(gz, Buffer.from([0x1f, 0x8b, 8, 0, ...new Array(40_000).fill(0)]));
    const plain = awkwardFile(); // about 21 kB: no cut falls in it, so it is not looked into
    const files = await listInputFiles([plain, gz]);
    let read = 0;
    const described = await describeForShards(files, DEFAULT_READ, 2, (n) => (read += n));
    expect(described.planned.map((p) => p.split.kind)).toEqual(['whole', 'whole']);
    expect(described.notes).toEqual([
      `${gz}: read whole by one shard (gzip-compressed: a compressed stream cannot be entered mid-way; give several files to spread it)`,
    ]);
    expect(read).toBe(4096); // the gzip file's first 4 kB
  });
});
