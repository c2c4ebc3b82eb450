// Count-weighted MinHash (--weights counts): the same signatures from the TypeScript reference and both wasm kernels,
// classic and OPH, and an estimator whose mean error against the true weighted Jaccard stays within 0.01.
import { describe, expect, it } from 'vitest';
import { openCpuKernel } from '../../src/signatures/cpuKernel.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { makeHashFamily, type SchemeName } from '../../src/signatures/hashFamily.js';
import { countElements } from '../../src/shingles/countWeights.js';
import { pack, type ShingleBatch } from '../../src/shingles/shingleBatch.js';
import { bigIntsToPairs, P, randomBelow, rng } from '../support/reference.js';
import { weightedCorpusBatch } from './webgpu/cases.js';
import { expectSameWords } from '../support/sameWords.js';

const SEED = { hi: 0x01234567, lo: 0x89abcdef };

/** A pair of count vectors over shared and own shingles whose weighted Jaccard is near `target`. */
function countedPair(target: number, next: () => number): { a: bigint[]; b: bigint[]; truth: number } {
  const shared = Array.from({ length: 30 }, () => randomBelow(next, P));
  const ca = shared.map(() => 1 + Math.floor(next() * 6));
  // Counts that differ (by up to ±2) on a fraction of the shared shingles, more of them for lower targets.
  const cb = ca.map((c) => (next() < (1 - target) / 2 ? Math.max(0, c + Math.floor(next() * 5) - 2) : c));
  let min = ca.reduce((s, c, i) => s + Math.min(c, cb[i]), 0);
  let max = ca.reduce((s, c, i) => s + Math.max(c, cb[i]), 0);
  const own: [bigint, number, 'a' | 'b'][] = [];
  while (min / max > target) {
    const count = 1 + Math.floor(next() * 3);
    own.push([randomBelow(next, P), count, next() < 0.5 ? 'a' : 'b']);
    max += count;
  }
  const windows = (counts: number[], side: 'a' | 'b'): bigint[] => [
    ...shared.flatMap((g, i) => Array.from({ length: counts[i] }, () => g)),
    ...own.filter(([, , s]) => s === side).flatMap(([g, c]) => Array.from({ length: c }, () => g)),
  ];
  min = ca.reduce((s, c, i) => s + Math.min(c, cb[i]), 0);
  return { a: windows(ca, 'a'), b: windows(cb, 'b'), truth: min / max };
}

const elementsOf = (windows: bigint[]): Uint32Array => countElements(bigIntsToPairs(windows));

function equalSlots(signatures: Uint32Array, k: number, x: number, y: number): number {
  let equal = 0;
  for (let i = 0; i < k; i++) {
    const p = 2 * (k * x + i);
    const q = 2 * (k * y + i);
    if (signatures[p] === signatures[q] && signatures[p + 1] === signatures[q + 1]) equal++;
  }
  return equal;
}

describe('count-weighted MinHash', () => {
  const batch: ShingleBatch = weightedCorpusBatch(60);

  for (const scheme of ['classic', 'oph'] as const satisfies readonly SchemeName[]) {
    it(`${scheme}: wasm SIMD, wasm scalar and TypeScript sign the bundled corpus's weighted sets alike`, () => {
      const family = makeHashFamily(128, SEED, scheme);
      const reference = signBatchOnCpu(family, batch);
      for (const name of ['wasm-simd', 'wasm-scalar'] as const) {
        const { kernel } = openCpuKernel(name);
        expect(kernel.name).toBe(name);
        expectSameWords(kernel.sign(family, batch), reference, name);
      }
    });
  }

  it('estimates weighted Jaccard with mean error ≤ 0.01 from 0.05 to 0.98 (k = 128, 120 pairs a level)', () => {
    const k = 128;
    const { kernel } = openCpuKernel('wasm-simd');
    const family = makeHashFamily(k, SEED);
    const next = rng(2026);
    const levels = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98];
    const report: string[] = [];
    let worst = 0;
    for (const target of levels) {
      const pairs = Array.from({ length: 120 }, () => countedPair(target, next));
      const signatures = kernel.sign(family, pack(pairs.flatMap(({ a, b }) => [elementsOf(a), elementsOf(b)])));
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
    console.log(`weighted MinHash, k = ${k}:\n  ${report.join('\n  ')}`);
    expect(worst, report.join('; ')).toBeLessThanOrEqual(0.01);
  });
});
