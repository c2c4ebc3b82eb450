// idf-weighted MinHash (--weights idf): the same signatures from the TypeScript reference and both wasm kernels,
// classic and OPH, and an estimator whose mean error against the true idf-weighted Jaccard
// Σ_{A∩B} w / Σ_{A∪B} w stays within 0.01 from 0.05 to 0.98 (k = 128).
import { describe, expect, it } from 'vitest';
import { openCpuKernel } from '../../src/signatures/cpuKernel.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { makeHashFamily, type SchemeName } from '../../src/signatures/hashFamily.js';
import { tableOf } from '../../src/shingles/idfTable.js';
import { idfElements, idfWeight, tableDf, type IdfTable } from '../../src/shingles/idfWeights.js';
import { pack, type ShingleBatch } from '../../src/shingles/shingleBatch.js';
import { DEFAULT_NORMALIZE } from '../../src/text/normalize.js';
import { bigIntsToPairs, P, randomBelow, rng } from '../support/reference.js';
import { idfCorpusBatch } from './webgpu/cases.js';
import { DfCounter, hashFamilyOf, makeParams, minhash, registerIdfTable, shingleDocument } from '../../src/index.js';
import { expectSameWords } from '../support/sameWords.js';

const SEED = { hi: 0x01234567, lo: 0x89abcdef };
const DOCUMENTS = 1024;

/**
 * A table over 4 000 shingles of N = 1024 documents whose weights are spread evenly over 1 … 8 (df = N / 2^(w − 1));
 * half of the weight-8 shingles are left out of the table (df 0, weight 8 too).
 */
function syntheticTable(next: () => number): { table: IdfTable; pool: bigint[] } {
  const pool = Array.from({ length: 4000 }, () => randomBelow(next, P));
  const rows: bigint[][] = [];
  pool.forEach((g, i) => {
    const w = 1 + (i % 8);
    if (w < 8 || i % 16 === 7) rows.push([g, BigInt(DOCUMENTS >> (w - 1))]);
  });
  rows.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  const entries = new Uint32Array(3 * rows.length);
  rows.forEach(([g, df], e) => {
    entries.set(bigIntsToPairs([g]), 3 * e);
    entries[3 * e + 2] = Number(df);
  });
  const shingling = { shingle: 'word', n: 5, nfkc: false, stripPunctuation: false };
  return { table: tableOf(shingling, DOCUMENTS, entries), pool };
}

function weightOf(table: IdfTable, g: bigint): number {
  const [lo, hi] = bigIntsToPairs([g]);
  return idfWeight(table.documents, tableDf(table, lo, hi));
}

/** Two sets sharing some shingles, with own shingles added until Σ_{A∩B} w / Σ_{A∪B} w is at most `target`. */
function idfPair(target: number, table: IdfTable, pool: bigint[], next: () => number) {
  const pick = (): bigint => pool[Math.floor(next() * pool.length)];
  const shared = new Set<bigint>();
  const size = Math.max(30, Math.round(3 / (1 - target)));
  while (shared.size < size) shared.add(pick());
  const a = [...shared];
  const b = [...shared];
  const sharedWeight = a.reduce((s, g) => s + weightOf(table, g), 0);
  let all = sharedWeight;
  const used = new Set(shared);
  while (sharedWeight / all > target) {
    const g = pick();
    if (used.has(g)) continue;
    used.add(g);
    (next() < 0.5 ? a : b).push(g);
    all += weightOf(table, g);
  }
  return { a, b, truth: sharedWeight / all };
}

function equalSlots(signatures: Uint32Array, k: number, x: number, y: number): number {
  let equal = 0;
  for (let i = 0; i < k; i++) {
    const p = 2 * (k * x + i);
    const q = 2 * (k * y + i);
    if (signatures[p] === signatures[q] && signatures[p + 1] === signatures[q + 1]) equal++;
  }
  return equal;
}

describe('idf-weighted MinHash', () => {
  const batch: ShingleBatch = idfCorpusBatch(60);

  for (const scheme of ['classic', 'oph'] as const satisfies readonly SchemeName[]) {
    it(`${scheme}: wasm SIMD, wasm scalar and TypeScript sign the bundled corpus's idf-weighted sets alike`, () => {
      const family = makeHashFamily(128, SEED, scheme);
      const reference = signBatchOnCpu(family, batch);
      for (const name of ['wasm-simd', 'wasm-scalar'] as const) {
        const { kernel } = openCpuKernel(name);
        expect(kernel.name).toBe(name);
        expectSameWords(kernel.sign(family, batch), reference, name);
      }
    });

    it(`${scheme}: estimates idf-weighted Jaccard with mean error ≤ 0.01 from 0.05 to 0.98 (k = 128, 120 pairs a level)`, () => {
      const k = 128;
      const { kernel } = openCpuKernel('wasm-simd');
      const family = makeHashFamily(k, SEED, scheme);
      const next = rng(4141);
      const { table, pool } = syntheticTable(next);
      const levels = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98];
      const report: string[] = [];
      let worst = 0;
      for (const target of levels) {
        const pairs = Array.from({ length: 120 }, () => idfPair(target, table, pool, next));
        const sets = pairs.flatMap(({ a, b }) => [a, b].map((s) => idfElements(bigIntsToPairs(s), table)));
        const signatures = kernel.sign(family, pack(sets));
        let signed = 0;
        let truth = 0;
        pairs.forEach((pair, p) => {
          signed += equalSlots(signatures, k, 2 * p, 2 * p + 1) / k - pair.truth;
          truth += pair.truth;
        });
        const error = signed / pairs.length;
        report.push(`J ≈ ${(truth / pairs.length).toFixed(3)}: mean error ${error.toFixed(4)}`);
        worst = Math.max(worst, Math.abs(error));
      }
      console.log(`idf-weighted ${scheme}, k = ${k}:\n  ${report.join('\n  ')}`);
      expect(worst, report.join('; ')).toBeLessThanOrEqual(0.01);
    });
  }

  it('the weights of the synthetic table span 1 … 8 (what the estimator test sweeps over)', () => {
    const { table, pool } = syntheticTable(rng(4141));
    expect(new Set(pool.map((g) => weightOf(table, g)))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8]));
  });

  it('the library: a table counted with DfCounter and registered signs through minhash({ weights: idf, idf })', async () => {
    const texts = ['the quick brown fox jumps over the lazy dog', 'the quick brown fox jumps over the lazy cat', ''];
    const counter = new DfCounter();
    for (const text of texts)
      counter.addSet(shingleDocument(text, { mode: 'word', n: 3, normalize: DEFAULT_NORMALIZE }));
    const table = counter.table({ shingle: 'word', n: 3, nfkc: false, stripPunctuation: false });
    const options = { k: 16, n: 3, weights: 'idf', idf: table.identity, backend: 'cpu' } as const;
    await expect(minhash(texts, options)).rejects.toThrow(/table [0-9a-f]{32} is not loaded; give it with --idf FILE/);
    registerIdfTable(table);
    const { slots } = await minhash(texts, options);
    const sets = texts
      .slice(0, 2)
      .map((text) => idfElements(shingleDocument(text, { mode: 'word', n: 3, normalize: DEFAULT_NORMALIZE }), table));
    const family = hashFamilyOf(makeParams({ k: 16, n: 3, weights: 'idf', idf: table.identity }));
    expect(new Uint32Array(slots.buffer).subarray(0, 64)).toEqual(signBatchOnCpu(family, pack(sets)));
  });
});
