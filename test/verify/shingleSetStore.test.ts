// Shingle sets past the budget: without a way to read one set, the pairs that need them are left to the
// estimate (overBudget); with one (the first pass's file), every set is at hand and read when compared.
import { describe, expect, it } from 'vitest';
import { ShingleSetStore } from '../../src/verify/shingleSetStore.js';
import { exactJaccard } from '../../src/verify/verification.js';

const sets = Array.from({ length: 6 }, (_, g) =>
  Uint32Array.from({ length: 2 * (10 + g) }, (_, i) => (i < 12 ? i : 1000 * g + i)),
);
const load = async (needed: Uint8Array, budget: number): Promise<(Uint32Array | undefined)[]> => {
  const out: (Uint32Array | undefined)[] = [];
  let bytes = 0;
  needed.forEach((flag, g) => {
    if (flag === 1 && bytes + sets[g].byteLength <= budget) {
      out[g] = sets[g];
      bytes += sets[g].byteLength;
    }
  });
  return out;
};

describe('ShingleSetStore', () => {
  it('past its budget, without fetch, leaves sets out and counts them', async () => {
    const store = new ShingleSetStore(sets.length, load, undefined, 200);
    await store.ensure(Uint8Array.of(1, 1, 1, 1, 1, 1));
    expect(store.overBudget).toBeGreaterThan(0);
    expect(store.has(5)).toBe(false);
  });

  it('past its budget, with fetch, reads each set when compared: the same similarities, nothing over budget', async () => {
    const reads: number[] = [];
    const store = new ShingleSetStore(
      sets.length,
      { load, fetch: (g) => (reads.push(g), sets[g].slice()) },
      undefined,
      200,
    );
    await store.ensure(Uint8Array.of(1, 1, 1, 1, 1, 1));
    expect(store.overBudget).toBe(0);
    for (let a = 0; a < sets.length; a++) {
      for (let b = 0; b < sets.length; b++) {
        expect(store.known(a, b)).toBe(true);
        expect(store.corpus(a, b)).toBe(exactJaccard(sets[a], sets[b]));
      }
    }
    // Fetched as compared (the held ones never), each group counted once as loaded.
    expect(reads.length).toBe(store.fetches);
    expect(store.loaded).toBe(sets.length);
  });
});
