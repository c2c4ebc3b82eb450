// The first pass's shingle sets past their memory share: held, then in a temporary file, read back exactly.
import { readdirSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSetSpool } from '../../src/pipeline/setSpill.js';
import { rng } from '../support/reference.js';
import { tempDir } from '../support/cli.js';

describe('FileSetSpool', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back every needed set exactly, from memory or from its file, up to the budget, and removes the file', async () => {
    const random = rng(7);
    const sets = Array.from({ length: 300 }, (_, g) => Uint32Array.from({ length: 2 * (g % 7 === 0 ? 0 : 1 + Math.floor(random() * 40)) }, () => (random() * 2 ** 32) >>> 0));
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
    spool.release();
    expect(readdirSync(dir).some((f) => f.endsWith('.sets'))).toBe(false);
  });
});
