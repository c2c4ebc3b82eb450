// The spill files written behind: every word appended (copied, or owned and written where it lies) reads back at once (from its block while the write is in
// flight, from the file after), across block boundaries and past the bound on bytes in flight; drain puts it all in
// the file, which another reader (an exact worker) then sees whole; remove leaves nothing.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { WordFile } from '../../../src/pipeline/dedup/wordFile.js';
import { rng } from '../../support/reference.js';
import { tempDir } from '../../support/cli.js';

describe('WordFile', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back every word appended, written or in flight, and drains all of it to the file', async () => {
    const random = rng(3);
    const file = new WordFile(dir, 'test');
    // 100 MiB in appends of every size: blocks of 4 MiB, past the 64 MiB written behind at most.
    const total = 25 * 2 ** 20;
    const all = Uint32Array.from({ length: total }, (_, i) => (i * 2654435761) >>> 0);
    let appended = 0;
    while (appended < total) {
      const size = random();
      const n = Math.min(
        total - appended,
        size < 0.1 ? 3 * 2 ** 20 : 1 + Math.floor(random() * (size < 0.3 ? 2 ** 17 : 5000)),
      );
      // Owned words (past 256 KiB) are written from where they lie, their own block; others copied into a block.
      if (random() < 0.5) file.appendOwned(all.subarray(appended, appended + n));
      else file.append(all.subarray(appended, appended + n));
      appended += n;
      // A read right after the append, of a range that may lie in the file, in flight and in the block being filled.
      const from = Math.floor(random() * appended);
      const length = Math.min(appended - from, 1 + Math.floor(random() * 2 ** 21));
      const got = new Uint32Array(length);
      file.read(got, from);
      expect(got.every((w, i) => w === all[from + i])).toBe(true);
    }
    expect(() => file.read(new Uint32Array(2), total - 1)).toThrow(/end early/);
    await file.drain();
    const onDisk = new Uint32Array(new Uint8Array(readFileSync(file.path)).buffer);
    expect(onDisk.length).toBe(total);
    expect(onDisk.every((w, i) => w === all[i])).toBe(true);
    await file.remove();
    expect(existsSync(file.path)).toBe(false);
  });

  it('asks an appender to wait while much is written behind, and never writes owned words on its own thread', async () => {
    const file = new WordFile(dir, 'room');
    // 80 MiB owned, in one array: past every bound, still written behind (a write in place would leave none in flight).
    const words = Uint32Array.from({ length: 20 * 2 ** 20 }, (_, i) => (i * 40503) >>> 0);
    file.appendOwned(words);
    const waiting = file.room();
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
    expect(file.room()).toBeUndefined();
    // Small appends leave room at once.
    file.append(words.subarray(0, 1000));
    expect(file.room()).toBeUndefined();
    await file.drain();
    const onDisk = new Uint32Array(new Uint8Array(readFileSync(file.path)).buffer);
    expect(onDisk.length).toBe(words.length + 1000);
    expect(onDisk.subarray(0, words.length).every((w, i) => w === words[i])).toBe(true);
    await file.remove();
  });
});
