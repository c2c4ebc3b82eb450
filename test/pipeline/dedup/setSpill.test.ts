// The first pass's shingle sets past their memory share: held, then in a temporary file, read back exactly,
// loaded within a budget or one at a time.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSetSpool } from '../../../src/pipeline/dedup/setSpill.js';
import { rng } from '../../support/reference.js';
import { tempDir } from '../../support/cli.js';

describe('FileSetSpool', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back every needed set exactly, from memory or from its file, up to the budget, and removes the file', async () => {
    const random = rng(7);
    const sets = Array.from({ length: 300 }, (_, g) =>
      Uint32Array.from(
        { length: 2 * (g % 7 === 0 ? 0 : 1 + Math.floor(random() * 40)) },
        () => (random() * 2 ** 32) >>> 0,
      ),
    );
    let spilled = 0;
    const spool = new FileSetSpool(dir, 4096, () => spilled++);
    for (const set of sets) spool.append(set);
    expect(spilled).toBe(1);
    expect(readdirSync(dir).some((f) => f.endsWith('.sets'))).toBe(true);
    const needed = Uint8Array.from(sets, (_, g) => (g % 3 === 0 ? 1 : 0));
    const all = await spool.load(needed, Number.POSITIVE_INFINITY);
    for (let g = 0; g < sets.length; g++) {
      if (needed[g] === 1) expect([...all[g]!]).toEqual([...sets[g]]);
      else expect(all[g]).toBeUndefined();
    }
    const limited = await spool.load(needed, 2000);
    const bytes = limited.reduce((n, s) => n + (s?.byteLength ?? 0), 0);
    expect(bytes).toBeLessThanOrEqual(2000);
    expect(limited.filter((s) => s !== undefined).length).toBeLessThan(all.filter((s) => s !== undefined).length);
    // Any one set on demand, held or in the file, exactly (the last ones still in the write buffer too).
    for (const g of [0, 1, 150, 298, 299, 7]) expect([...spool.fetch(g)]).toEqual([...sets[g]]);
    await spool.release();
    expect(readdirSync(dir).some((f) => f.endsWith('.sets'))).toBe(false);
  });

  it('takes a unit run of sets: held while they fit, the rest to the file as one run, each read back exactly', async () => {
    const random = rng(11);
    const units = Array.from({ length: 6 }, () => {
      const lengths = Array.from({ length: 50 }, (_, i) => (i % 9 === 0 ? 0 : 1 + Math.floor(random() * 3000)));
      const offsets = Uint32Array.from({ length: 51 }, (_, i) => lengths.slice(0, i).reduce((a, b) => a + b, 0));
      const words = Uint32Array.from({ length: 2 * offsets[50] }, () => (random() * 2 ** 32) >>> 0);
      return { words, offsets };
    });
    const sets = units.flatMap(({ words, offsets }) =>
      Array.from({ length: 50 }, (_, i) => words.slice(2 * offsets[i], 2 * offsets[i + 1])),
    );
    // Room for about a unit and a half: the second unit's run straddles it; runs past 256 KiB go as they lie.
    const spool = new FileSetSpool(dir, 1.5 * units[0].words.byteLength);
    for (const { words, offsets } of units) spool.appendRun(words, offsets, 50);
    const shared = spool.share()!;
    const held = Array.from(shared.chunk).filter((c) => c >= 0).length;
    expect(held).toBeGreaterThan(50);
    expect(held).toBeLessThan(100);
    for (let g = sets.length - 1; g >= 0; g--) expect([...spool.fetch(g)], `group ${g}`).toEqual([...sets[g]]);
    await spool.drain();
    // As the workers read them: the held ones in shared chunks, the others at their place in the file.
    const file = new Uint32Array(new Uint8Array(readFileSync(shared.file!)).buffer);
    for (let g = 0; g < sets.length; g++) {
      const { start, length } = { start: shared.start[g], length: shared.length[g] };
      const where = shared.chunk[g] >= 0 ? new Uint32Array(shared.chunks[shared.chunk[g]]) : file;
      expect([...where.subarray(start, start + length)], `group ${g}`).toEqual([...sets[g]]);
    }
    await spool.release();
  });

  it('frees the buffer of a run given to it once its sets are copied or written, each set still read back exactly', async () => {
    const random = rng(13);
    const units = Array.from({ length: 4 }, () => {
      const offsets = Uint32Array.from({ length: 21 }, (_, i) => 500 * i);
      return { words: Uint32Array.from({ length: 2 * offsets[20] }, () => (random() * 2 ** 32) >>> 0), offsets };
    });
    const sets = units.flatMap(({ words, offsets }) =>
      Array.from({ length: 20 }, (_, i) => words.slice(2 * offsets[i], 2 * offsets[i + 1])),
    );
    const spool = new FileSetSpool(dir, 1.5 * units[0].words.byteLength); // the second run straddles the room
    for (const { words, offsets } of units) spool.appendRun(words, offsets, 20, true);
    expect(units[0].words.buffer.byteLength).toBe(0); // held: copied into the arena, then freed
    await spool.drain();
    for (const { words } of units) expect(words.buffer.byteLength).toBe(0); // the others once written
    for (let g = 0; g < sets.length; g++) expect([...spool.fetch(g)], `group ${g}`).toEqual([...sets[g]]);
    await spool.release();
  });

  it("counts reserved bytes (the first pass's tables) against its room, and writes sets larger than its write buffer whole", async () => {
    const spool = new FileSetSpool(dir, 4096);
    spool.reserve(4000);
    const small = Uint32Array.from({ length: 64 }, (_, i) => i); // 256 bytes: would fit 4096 alone, not with 4000 reserved
    const large = Uint32Array.from({ length: 2 ** 18 + 10 }, (_, i) => (i * 2654435761) >>> 0); // past the 1 MiB write buffer
    spool.append(small);
    spool.append(large);
    spool.append(small);
    expect(readdirSync(dir).some((f) => f.endsWith('.sets'))).toBe(true);
    expect([...spool.fetch(1)]).toEqual([...large]);
    expect([...spool.fetch(2)]).toEqual([...small]);
    const all = await spool.load(Uint8Array.of(1, 1, 1), Number.POSITIVE_INFINITY);
    expect(all.map((set) => set?.length)).toEqual([64, 2 ** 18 + 10, 64]);
    await spool.release();
  });

  it('fetches through its ring: a set stays valid through the next fetch, also when the ring wraps', async () => {
    const spool = new FileSetSpool(dir, 0);
    // 2^19 − 8 words: just under a quarter of the 2^21-word ring, so the ring wraps every fourth set.
    const sets = Array.from({ length: 7 }, (_, g) =>
      Uint32Array.from({ length: 2 ** 19 - 8 }, (_, i) => (g * 7919 + i * 31) >>> 0),
    );
    const huge = Uint32Array.from({ length: 2 ** 19 + 8 }, (_, i) => i ^ 0x5555); // past a quarter: its own array
    for (const set of sets) spool.append(set);
    spool.append(huge);
    const order = [0, 1, 2, 3, 4, 5, 6, 0, 3, 6, 2, 5, 1, 4, 7, 0, 7, 6];
    for (let i = 0; i + 1 < order.length; i++) {
      const a = spool.fetch(order[i]);
      const b = spool.fetch(order[i + 1]);
      const want = (g: number) => (g === 7 ? huge : sets[g]);
      expect(a.length).toBe(want(order[i]).length);
      expect(a.every((w, j) => w === want(order[i])[j])).toBe(true);
      expect(b.every((w, j) => w === want(order[i + 1])[j])).toBe(true);
    }
    await spool.release();
  });

  it('moves the latest sets held to its file when the reserved bytes grow past its room, and still gives each back', async () => {
    const sets = Array.from({ length: 10 }, (_, g) => Uint32Array.from({ length: 2 * (g + 1) }, (_, i) => 100 * g + i)); // 8·(g + 1) bytes
    let spilled = 0;
    const spool = new FileSetSpool(dir, 440, () => spilled++); // all ten sets: 440 bytes
    for (const set of sets) spool.append(set);
    expect(spilled).toBe(0);
    spool.reserve(100); // the last three (80 + 72 + 64 = 216 bytes) go; 224 + 100 fit
    expect(spilled).toBe(1);
    const budget = await spool.load(new Uint8Array(10).fill(1), 224); // exactly the seven held
    expect(budget.filter((set) => set !== undefined).length).toBe(7);
    for (let g = 0; g < 7; g++) expect(budget[g]).toBe(spool.fetch(g)); // held: the same views, not copies
    spool.append(sets[0]);
    spool.reserve(10_000); // the tables alone pass the room: every set goes
    for (let g = 0; g < 10; g++) expect([...spool.fetch(g)]).toEqual([...sets[g]]);
    expect([...spool.fetch(10)]).toEqual([...sets[0]]);
    await spool.release();
  });

  it('after the pass moves the sets it still holds to its file only if it spilled', async () => {
    const sets = Array.from({ length: 4 }, (_, g) => Uint32Array.from({ length: 8 }, (_, i) => 10 * g + i)); // 32 bytes each
    const fits = new FileSetSpool(dir, 128);
    for (const set of sets) fits.append(set);
    await fits.passDone();
    for (let g = 0; g < 4; g++) {
      // Still held: copies in shared memory, which the exact workers read.
      expect(fits.fetch(g).buffer).toBeInstanceOf(SharedArrayBuffer);
      expect([...fits.fetch(g)]).toEqual([...sets[g]]);
    }
    expect(readdirSync(dir).some((f) => f.endsWith('.sets'))).toBe(false);
    const spilled = new FileSetSpool(dir, 64);
    for (const set of sets) spilled.append(set);
    expect(spilled.fetch(0).buffer).toBeInstanceOf(SharedArrayBuffer);
    await spilled.passDone();
    for (let g = 0; g < 4; g++) {
      expect(spilled.fetch(g).buffer).not.toBeInstanceOf(SharedArrayBuffer); // read from the file
      expect([...spilled.fetch(g)]).toEqual([...sets[g]]);
    }
    await fits.release();
    await spilled.release();
  });

  it("keeps the sets of a worker's shared buffer where they lie, and moves them to its file as runs from there", async () => {
    const random = rng(5);
    // Units as the first-pass workers answer with `sharedSets`: each unit's sets end to end in a buffer of its own.
    const units = Array.from({ length: 5 }, () => {
      const lengths = Array.from({ length: 30 }, (_, i) => (i % 8 === 0 ? 0 : 1 + Math.floor(random() * 500)));
      const offsets = Uint32Array.from({ length: 31 }, (_, i) => lengths.slice(0, i).reduce((a, b) => a + b, 0));
      const words = new Uint32Array(new SharedArrayBuffer(8 * offsets[30]));
      for (let i = 0; i < words.length; i++) words[i] = (random() * 2 ** 32) >>> 0;
      return { words, offsets };
    });
    const sets = units.flatMap(({ words, offsets }) =>
      Array.from({ length: 30 }, (_, i) => words.slice(2 * offsets[i], 2 * offsets[i + 1])),
    );
    const spool = new FileSetSpool(dir, 4 * units[0].words.byteLength);
    for (const { words, offsets } of units.slice(0, 3)) spool.appendRun(words, offsets, 30);
    // Held where they lie: the arena's chunks are the units' own buffers, no copy.
    const before = spool.share()!;
    expect(before.chunks.length).toBe(3);
    expect(before.chunks.every((chunk, u) => chunk === units[u].words.buffer)).toBe(true);
    expect(spool.fetch(31).buffer).toBe(units[1].words.buffer);
    spool.reserve(units[0].words.byteLength + 4 * 7 * (units[2].offsets[30] - units[2].offsets[23])); // moves part of a unit
    for (const { words, offsets } of units.slice(3)) spool.appendRun(words, offsets, 30);
    for (let g = sets.length - 1; g >= 0; g--) expect([...spool.fetch(g)], `group ${g}`).toEqual([...sets[g]]);
    await spool.passDone();
    await spool.drain();
    const shared = spool.share()!;
    expect(Array.from(shared.chunk).every((c) => c === -1)).toBe(true);
    const file = new Uint32Array(new Uint8Array(readFileSync(shared.file!)).buffer);
    expect(file.length).toBe(sets.reduce((n, set) => n + set.length, 0));
    for (let g = 0; g < sets.length; g++) {
      const at = shared.start[g];
      expect([...file.subarray(at, at + shared.length[g])], `group ${g}`).toEqual([...sets[g]]);
      expect([...spool.fetch(g)], `group ${g}`).toEqual([...sets[g]]);
    }
    await spool.release();
  });
});
