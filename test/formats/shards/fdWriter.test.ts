import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fdWriter } from '../../../src/formats/shards/fdWriter.js';

const dir = mkdtempSync(join(tmpdir(), 'gpudedup-fdwriter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fdWriter', () => {
  it('writes what was appended, in order, across its megabyte flushes and a growth past its buffer', () => {
    const path = join(dir, 'out.bin');
    const writer = fdWriter(path);
    const expected: number[] = [];
    // Small appends through the first flush, then one larger than the buffer, then varints and a tail.
    for (let i = 0; i < 300_000; i++) {
      writer.appendUint32(i);
      expected.push(i & 0xff, (i >>> 8) & 0xff, (i >>> 16) & 0xff, i >>> 24);
    }
    const big = new Uint8Array(5 << 20).map((_, i) => (i * 7) & 0xff);
    writer.appendBytes(big);
    for (const byte of big) expected.push(byte);
    writer.appendVarInt(300);
    expected.push(0xac, 0x02);
    expect(writer.offset).toBe(expected.length);
    writer.finish();
    const written = readFileSync(path);
    expect(written.length).toBe(expected.length);
    expect(Buffer.compare(written, Buffer.from(expected))).toBe(0);
  });

  it('close() gives the file up without writing what is buffered (an aborted shard)', () => {
    const path = join(dir, 'aborted.bin');
    const writer = fdWriter(path);
    writer.appendBytes(new Uint8Array(1000).fill(1));
    writer.close();
    writer.close(); // twice is harmless
    expect(statSync(path).size).toBe(0);
  });
});
