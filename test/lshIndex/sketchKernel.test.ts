/**
 * The forest's WebAssembly kernel (src/lshIndex/sketchKernel.ts,
 * wasm/sketch.wat) against the TypeScript counts it replaces: the same sketch
 * bound and fingerprint agreement for every row and query, one row at a time and in batches that cross the
 * kernel's scratch page; the memory a MessagePort hands another thread is
 * the same memory, and a forest there bounds rows as the builder's does.
 */
import { describe, expect, it } from 'vitest';
import { forestShape, PrefixForest } from '../../src/lshIndex/forest.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { RowBuffer } from '../../src/lshIndex/rowBuffer.js';
import { MemorySegment, rowWidthOf } from '../../src/lshIndex/segment.js';
import { forestMemory, KERNEL_SLOTS, sketchKernel } from '../../src/lshIndex/sketchKernel.js';
import { posted } from './posted.js';
import { expectSameWords } from '../support/sameWords.js';

const parameters = resolveParameters({ k: 128 });

/** 300 rows sharing a growing share of one base row's slots (agreements from none to all), and some of row 7's. */
function forestOf(): PrefixForest {
  let s = 5;
  const random = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
  const width = rowWidthOf(parameters);
  const segment = new MemorySegment('seg-kernel', parameters, false);
  const base = Uint32Array.from({ length: width }, () => Math.floor(random() * 2 ** 32));
  const row = new Uint32Array(width);
  for (let r = 0; r < 300; r++) {
    for (let w = 0; w < width; w++) row[w] = random() < r / 300 ? base[w] : Math.floor(random() * 2 ** 32);
    segment.append(`d${r}`, 1, row, 0, new Uint32Array(4), 0, false, undefined);
  }
  return new PrefixForest(segment, parameters, forestShape(parameters.k));
}

/** The same forest counting in TypeScript: its data without the kernel's memory. */
const withoutKernel = (forest: PrefixForest): PrefixForest =>
  new PrefixForest(forest.segment, parameters, forest.shape, { ...forest.data, sketchMemory: undefined });

describe('the sketch kernel', () => {
  it('bounds every row as the TypeScript count does, a row at a time and in batches past a page', () => {
    const forest = forestOf();
    expect(forest.slots).toBe(KERNEL_SLOTS);
    expect(forest.data.sketchMemory).toBeDefined();
    expect(forest.data.sketch.buffer).toBeInstanceOf(SharedArrayBuffer);
    const reference = withoutKernel(forest);
    const queries = [299, 150, 7, 0].map((r) =>
      forest.data.fingerprints.slice(r * forest.slots, (r + 1) * forest.slots),
    );
    // A query of its own: every other slot one of row 7's, the rest changed in the high byte only (sketch bytes agree).
    queries.push(queries[2].map((f, i) => (i % 2 === 0 ? f : f ^ 0x100)));
    const seen = new Set<number>();
    const agreements = new Set<number>();
    for (const query of queries) {
      const rows = Array.from({ length: 40_000 }, (_, i) => (i * 7919) % 300); // 40,000 > 2 scratch pages of rows
      const [fromKernel, fromTs] = [new RowBuffer(), new RowBuffer()];
      fromKernel.push(7); // appended after what the buffer holds
      fromTs.push(7);
      forest.sketchAgreements(rows, query, fromKernel);
      reference.sketchAgreements(rows, query, fromTs);
      expect(fromKernel.length).toBe(rows.length + 1);
      expectSameWords(fromKernel.view(), fromTs.view());
      expect(fromKernel.words[0]).toBe(7);
      for (let r = 0; r < 300; r++) {
        const bound = forest.sketchAgreement(r, query);
        expect(bound).toBe(reference.sketchAgreement(r, query));
        const agreement = forest.agreement(r, query);
        expect(agreement).toBe(reference.agreement(r, query));
        expect(bound).toBeGreaterThanOrEqual(Math.round(agreement * forest.slots));
        seen.add(bound);
        agreements.add(agreement);
      }
    }
    expect(seen.size).toBeGreaterThan(50); // bounds from few slots to all 128
    expect(agreements.size).toBeGreaterThan(50);
    expect(agreements.has(1)).toBe(true);
    expect(seen.has(KERNEL_SLOTS)).toBe(true);
  });

  it('reads the memory a port hands another thread, the same bytes, with a scratch page of its own', async () => {
    const forest = forestOf();
    const arrived = await posted(forest.data);
    expect(arrived.sketchMemory).toBeInstanceOf(WebAssembly.Memory);
    const pages = arrived.sketchMemory!.buffer.byteLength;
    const adopted = new PrefixForest(forest.segment, parameters, forest.shape, arrived);
    expect(arrived.sketchMemory!.buffer.byteLength).toBe(pages + 65536); // its own scratch page
    const query = forest.data.fingerprints.slice(42 * forest.slots, 43 * forest.slots);
    const rows = Array.from({ length: 300 }, (_, r) => r);
    const [here, there] = [new RowBuffer(), new RowBuffer()];
    forest.sketchAgreements(rows, query, here);
    adopted.sketchAgreements(rows, query, there);
    expect(there.view()).toEqual(here.view());
    forest.data.sketch[42 * (KERNEL_SLOTS / 4)] ^= 0xff; // one byte of row 42 changed here is seen there
    expect(adopted.sketchAgreement(42, query)).toBe(KERNEL_SLOTS - 1);
    forest.data.fingerprints[42 * KERNEL_SLOTS + 5] ^= 0x100; // and a fingerprint
    expect(adopted.agreement(42, query)).toBe((KERNEL_SLOTS - 1) / KERNEL_SLOTS);
  });

  it('is left out where the forest has other than 128 slots, or the memory cannot be had', () => {
    expect(forestMemory(64, 1024)).toBeUndefined();
    expect(forestMemory(KERNEL_SLOTS, 2 ** 24)).toBeUndefined(); // 6 GiB: past 32-bit addresses
    expect(sketchKernel(undefined, 0)).toBeUndefined();
  });
});
