// SimHash's permuted block tables (src/bands/simhashBands.ts): every pair within h bits shares a table for every h,
// the recorded bands × rows name their h, and a table's key reads its blocks' bits and no other.
import { describe, expect, it } from 'vitest';
import { bandKey } from '../../src/bands/bandKeys.js';
import { checkParams, sameBanding } from '../../src/bands/lshParams.js';
import { signatureMatrix } from '../../src/bands/signatureMatrix.js';
import { blockTables, blocksAgreed, maxHammingOfBands, simhashBands } from '../../src/bands/simhashBands.js';

/** The distinct bits each table reads. */
function tableBits(lsh: ReturnType<typeof simhashBands>): Set<number>[] {
  return Array.from({ length: lsh.bands }, (_, j) => new Set(lsh.slots!.slice(j * lsh.rows, (j + 1) * lsh.rows)));
}

describe('simhashBands', () => {
  it('for h = 1 … 31: h + m blocks covering the 64 bits, and for any h blocks differing a table that avoids them', () => {
    for (let h = 1; h <= 31; h++) {
      const lsh = simhashBands(h);
      const m = blocksAgreed(h);
      checkParams(lsh, 64);
      const tables = tableBits(lsh);
      // The blocks are the classes of bits read by the same tables.
      const blockOf = new Map<string, number[]>();
      for (let bit = 0; bit < 64; bit++) {
        const key = tables.map((t) => (t.has(bit) ? 1 : 0)).join('');
        blockOf.set(key, [...(blockOf.get(key) ?? []), bit]);
      }
      const blocks = [...blockOf.values()];
      expect(blocks.length).toBe(h + m);
      expect(Math.max(...blocks.map((b) => b.length)) - Math.min(...blocks.map((b) => b.length))).toBeLessThanOrEqual(
        1,
      );
      // Pigeonhole, checked: each set of h blocks where a pair differs leaves some table reading none of them.
      const choose = (from: number, left: number, chosen: number[]): void => {
        if (left === 0) {
          const bits = chosen.flatMap((b) => blocks[b]);
          expect(tables.some((t) => bits.every((bit) => !t.has(bit)))).toBe(true);
          return;
        }
        for (let b = from; b <= blocks.length - left; b++) choose(b + 1, left - 1, [...chosen, b]);
      };
      choose(0, h, []);
    }
  });

  it('h = 3: 10 tables of 2 of 5 blocks (25–26 bits); a table less misses a choice of 3 blocks', () => {
    const lsh = simhashBands(3);
    expect([lsh.bands, lsh.rows]).toEqual([10, 26]);
    expect(tableBits(lsh).map((t) => t.size)).toEqual([26, 26, 26, 25, 26, 26, 25, 26, 25, 25]);
    expect(blockTables(3, 1)).toMatchObject({ bands: 4, rows: 16 });
  });

  it("names the h of recorded bands × rows, one h each, and none for other bandings (an older gpudedup's 4 × 16)", () => {
    const seen = new Set<string>();
    for (let h = 1; h <= 31; h++) {
      const { bands, rows } = simhashBands(h);
      expect(maxHammingOfBands({ bands, rows })).toBe(h);
      seen.add(`${bands}×${rows}`);
    }
    expect(seen.size).toBe(31);
    expect(maxHammingOfBands({ bands: 4, rows: 16 })).toBeUndefined();
  });

  it('keys a table by its bits alone; sameBanding and checkParams read the slots', () => {
    const lsh = simhashBands(3);
    const words = new Uint32Array(3 * 64);
    for (let i = 0; i < 64; i++) words[i] = words[64 + i] = words[128 + i] = (i * 7) % 3 === 0 ? 1 : 0;
    const bits = tableBits(lsh);
    const outside = [...Array(64).keys()].find((bit) => !bits[0].has(bit))!;
    const inside = [...bits[0]][0];
    words[64 + outside] ^= 1; // row 1: differs from row 0 outside table 0 only
    words[128 + inside] ^= 1; // row 2: differs inside it
    const m = signatureMatrix(words, 64, 32);
    const key = (doc: number): string => {
      const out = new Uint32Array(2);
      bandKey(m, doc, 0, lsh, out, 0);
      return `${out[0]}:${out[1]}`;
    };
    expect(key(1)).toBe(key(0));
    expect(key(2)).not.toBe(key(0));
    expect(sameBanding(lsh, blockTables(3, 2))).toBe(true);
    expect(sameBanding(lsh, { bands: 10, rows: 26 })).toBe(false);
    expect(() => checkParams({ ...lsh, slots: lsh.slots!.slice(1) }, 64)).toThrow(/need 260 slots below k = 64/);
    expect(() => checkParams({ bands: 10, rows: 26 }, 64)).toThrow(/exceeds the signature length/);
  });
});
