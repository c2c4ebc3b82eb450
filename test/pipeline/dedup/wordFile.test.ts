// The spill files written behind: every word appended (copied, or owned and gathered where it lies) reads back at once (from its block while the write is in
// flight, from the file after), across block boundaries and past the bound on bytes in flight; drain puts it all in
// the file, which another reader (an exact worker) then sees whole; remove leaves nothing.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { partsFrom, WordFile } from '../../../src/pipeline/dedup/wordFile.js';
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
      // Owned words are gathered where they lie (one write per 4 MiB); others copied into a block, reused once written.
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

  it('writes owned words from where they lie, however small, in order with copied ones', async () => {
    const file = new WordFile(dir, 'owned');
    // 3000 small owned arrays between copied ones: gathered, not copied (a change made before the write shows in the
    // file, which a copy would not), and in the order appended.
    const owned: Uint32Array[] = [];
    const expected: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const words = Uint32Array.from({ length: 300 + (i % 7) }, (_, j) => (i * 1000 + j) >>> 0);
      file.appendOwned(words);
      owned.push(words);
      const copied = Uint32Array.of(0xdead0000 + i, 0xbeef0000 + i);
      file.append(copied);
      copied.fill(0); // copied at once: a later change does not reach the file
      expected.push(...words.map((w) => w + 1), 0xdead0000 + i, 0xbeef0000 + i);
    }
    // The last arrays gathered (under 4 MiB since the last write) are not written yet: changed, they are written so.
    for (const words of owned.slice(-20)) for (let j = 0; j < words.length; j++) words[j] += 1;
    await file.drain();
    const onDisk = new Uint32Array(new Uint8Array(readFileSync(file.path)).buffer);
    expect(onDisk.length).toBe(expected.length);
    const start = expected.length - owned.slice(-20).reduce((n, w) => n + w.length + 2, 0);
    // Those written before the change hold the words as appended; those gathered at the end, as changed.
    const firstOwned = owned[0];
    expect(Array.from(onDisk.subarray(0, firstOwned.length))).toEqual(Array.from(firstOwned));
    expect(Array.from(onDisk.subarray(start))).toEqual(expected.slice(start));
    await file.remove();
  });

  it('copies owned words that are a small view of a larger buffer, which holding would keep whole until written', async () => {
    const file = new WordFile(dir, 'views');
    const answer = Uint32Array.from({ length: 2 ** 18 }, (_, i) => i); // 1 MiB, as a worker's answer
    const rows = answer.subarray(1000, 1300); // its rows: 1,200 bytes of it
    file.appendOwned(rows);
    answer.fill(0); // copied at once: the change does not reach the file
    await file.drain();
    const onDisk = new Uint32Array(new Uint8Array(readFileSync(file.path)).buffer);
    expect(Array.from(onDisk)).toEqual(Array.from({ length: 300 }, (_, i) => 1000 + i));
    await file.remove();
  });

  it('frees given words once written, or at once where it copies them, never before', async () => {
    const file = new WordFile(dir, 'given');
    const whole = Uint32Array.from({ length: 3000 }, (_, i) => i); // its buffer all words: written where it lies
    const answer = Uint32Array.from({ length: 2 ** 18 }, (_, i) => 7 * i); // a small view of it: copied
    const rows = answer.subarray(10, 20);
    const expected = [...whole, ...rows];
    file.appendOwned(whole, true);
    file.appendOwned(rows, true);
    expect(answer.buffer.byteLength).toBe(0); // copied, then freed
    expect(whole).toHaveLength(3000); // still to be written from where it lies
    const back = new Uint32Array(3010);
    file.read(back, 0);
    expect([...back]).toEqual(expected);
    await file.drain();
    expect(whole.buffer.byteLength).toBe(0); // written, then freed
    expect([...new Uint32Array(new Uint8Array(readFileSync(file.path)).buffer)]).toEqual(expected);
    await file.remove();
  });

  it('reuses a written copy block: words copied after it read back and reach the file unchanged', async () => {
    const file = new WordFile(dir, 'reuse');
    // 40 MiB copied in appends of 1 MiB: ten blocks, drained every 6 MiB (mid-block: a block's rest is filled after
    // its first part went), so later blocks come from the spares; every word differs, so a block reused while a write
    // of it is in flight, or refilled in the wrong place, shows.
    const blockWords = 2 ** 18;
    const all = Uint32Array.from({ length: 10 * 4 * blockWords }, (_, i) => (i * 2246822519 + 7) >>> 0);
    for (let at = 0; at < all.length; at += blockWords) {
      file.append(all.subarray(at, at + blockWords));
      if ((at / blockWords) % 6 === 5) await file.drain();
      // Everything so far: from the file, from writes in flight (blocks that must not be refilled yet) and the block.
      const got = new Uint32Array(at + blockWords);
      file.read(got, 0);
      expect(got.every((w, i) => w === all[i])).toBe(true);
    }
    await file.drain();
    const onDisk = new Uint32Array(new Uint8Array(readFileSync(file.path)).buffer);
    expect(onDisk.length).toBe(all.length);
    expect(onDisk.every((w, i) => w === all[i])).toBe(true);
    await file.remove();
  });

  it('resumes a write that went part of the way from the right byte of the right part', () => {
    const parts = [Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5), Uint8Array.of(6, 7, 8, 9)];
    const flat = (from: number) => partsFrom(parts, from).flatMap((p) => Array.from(p));
    for (let from = 0; from <= 9; from++) expect(flat(from)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].slice(from));
    expect(partsFrom(parts, 3)[0]).toBe(parts[1]); // whole parts are passed as they are
  });
});
