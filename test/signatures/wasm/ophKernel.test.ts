// The wasm OPH bin-minima kernel (ophBins.wat) against binMinimaTs, signBatchOph
// with the TypeScript kernel and the BigInt reference (test/support/reference.ts),
// and through the CPU kernel chain (inline and on worker threads).
import { describe, expect, it } from 'vitest';
import { EMPTY_SLOT_WORD, type ShingleBatch } from '../../../src/signatures/backend.js';
import { openCpuKernel, wasmOphBins } from '../../../src/signatures/cpuKernel.js';
import { ParallelCpuSigner } from '../../../src/signatures/cpuParallel.js';
import { makeHashFamily, type HashFamily } from '../../../src/signatures/hashFamily.js';
import { binMinimaTs, signBatchOph, type OphBinKernel } from '../../../src/signatures/oph.js';
import { loadWasmOphBins } from '../../../src/signatures/wasm/ophKernel.js';
import { pack } from '../../../src/shingles/shingleBatch.js';
import {
  ophBinMinimaRef,
  ophSignatureRef,
  P,
  pairsToBigInts,
  randomBelow,
  randomU32,
  rng,
  bigIntsToPairs,
} from '../../support/reference.js';
import { expectSameWords } from '../../support/sameWords.js';
import { corpusBatch, randomBatch, randomSizes } from '../webgpu/cases.js';

const KS = [1, 2, 7, 64, 128, 256, 1000];
const SEEDS = [42n, 0n, 0xffff_ffff_ffff_ffffn, 0x0123_4567_89ab_cdefn];
/** Edge shingles: 0, 1, P − 1, 2^61 − 2, and values whose 16-bit limbs are 0xFFFF or 0. */
const EDGE = [
  0n,
  1n,
  P - 1n,
  (1n << 61n) - 2n,
  0xffffn,
  0xffff_ffffn,
  0xffff_0000_ffffn,
  0x1fff_ffff_0000_0000n,
  0x1fff_0000_ffff_ffffn,
  0xffff_ffff_ffffn,
  1n << 32n,
  (1n << 29n) - 1n,
  1n << 29n,
  P - 2n,
];

const wasm = loadWasmOphBins();
const u64Of = (v: bigint) => ({ hi: Number(v >> 32n), lo: Number(v & 0xffffffffn) });
const ophFamily = (k: number, seed: bigint) => makeHashFamily(k, u64Of(seed), 'oph');

const words = bigIntsToPairs;

function batchOf(sets: readonly bigint[][]): ShingleBatch {
  return pack(sets.map(words));
}

function bins(
  kernel: OphBinKernel,
  family: Pick<HashFamily, 'k' | 'a' | 'b'>,
  batch: ShingleBatch,
  prefill?: Uint32Array,
): Uint32Array {
  const out = prefill
    ? prefill.slice()
    : new Uint32Array((batch.offsets.length - 1) * 2 * family.k).fill(EMPTY_SLOT_WORD);
  kernel(family as HashFamily, batch, out);
  return out;
}

/** The wasm bins equal binMinimaTs and the BigInt bins; the signatures equal signBatchOph's and the BigInt ones. */
function expectAllAgree(batch: ShingleBatch, k: number, seed: bigint): void {
  const family = ophFamily(k, seed);
  const got = bins(wasm, family, batch);
  expectSameWords(got, bins(binMinimaTs, family, batch), `bins k=${k} seed=${seed}`);
  const sets = Array.from({ length: batch.offsets.length - 1 }, (_, d) =>
    pairsToBigInts(batch.shingles.subarray(2 * batch.offsets[d], 2 * batch.offsets[d + 1])),
  );
  expectSameWords(
    got,
    words(sets.flatMap((set) => ophBinMinimaRef(set, k, seed))),
    `bins vs BigInt k=${k} seed=${seed}`,
  );
  const signatures = signBatchOph(family, batch, wasm);
  expectSameWords(signatures, signBatchOph(family, batch, binMinimaTs), `signatures k=${k} seed=${seed}`);
  // BigInt densification of nearly empty rows costs ~k² probes: up to k = 256 (larger k: against signBatchOph only).
  if (k <= 256)
    expectSameWords(
      signatures,
      words(sets.flatMap((set) => ophSignatureRef(set, k, seed))),
      `signatures vs BigInt k=${k} seed=${seed}`,
    );
}

describe('wasm OPH bin minima (ophBins.wat)', () => {
  it('equal the TypeScript kernel and the BigInt reference: empty, one-shingle, sparse and random documents', () => {
    const sizes = [0, 1, 0, 2, 3, 7, 60, 127, 128, 129, 400, 1001, ...randomSizes(16, 2000, 8)];
    for (const k of KS)
      for (const seed of SEEDS.slice(0, k >= 256 ? 2 : 4))
        expectAllAgree(randomBatch(sizes, k + Number(seed & 0xffn)), k, seed);
  });

  it('equal them on edge shingle values, alone and together', () => {
    const next = rng(11);
    const sets = [
      ...EDGE.map((x) => [x]),
      EDGE,
      [...EDGE, ...Array.from({ length: 300 }, () => randomBelow(next, P))],
      [],
    ];
    for (const k of KS) for (const seed of SEEDS.slice(0, k >= 256 ? 2 : 4)) expectAllAgree(batchOf(sets), k, seed);
  });

  it('equal binMinimaTs for edge coefficients a_0 ∈ {1, P − 1, limbs 0xFFFF} and b_0 ∈ {0, 1, P − 1}, and shingles up to 2^61 − 1', () => {
    const next = rng(12);
    const shingles = [...EDGE, (1n << 61n) - 1n, ...Array.from({ length: 500 }, () => randomBelow(next, 1n << 61n))];
    const batch = batchOf([shingles, shingles.slice(0, 3), [], shingles.slice(100)]);
    for (const a of [1n, 2n, P - 1n, P - 2n, 0xffffn, 0xffff_ffffn, 0x1fff_ffff_ffff_0000n, 0x0000_ffff_0000_ffffn]) {
      for (const b of [0n, 1n, P - 1n, 0xffff_ffffn]) {
        for (const k of [1, 7, 128, 1000]) {
          const family = { k, a: words([a]), b: words([b]) };
          expectSameWords(bins(wasm, family, batch), bins(binMinimaTs, family, batch), `a=${a} b=${b} k=${k}`);
        }
      }
    }
  });

  it('take minima with what the output already holds, as binMinimaTs does', () => {
    const batch = randomBatch(randomSizes(30, 500, 3), 5);
    for (const k of [7, 128]) {
      const family = ophFamily(k, 42n);
      const next = rng(k);
      const prefill = new Uint32Array(30 * 2 * k).map((_, i) =>
        i % 2 === 0 ? randomU32(next) : next() < 0.5 ? EMPTY_SLOT_WORD : randomU32(next) & 0x1fffffff,
      );
      expectSameWords(
        bins(wasm, family, batch, prefill),
        bins(binMinimaTs, family, batch, prefill),
        `prefilled k=${k}`,
      );
    }
  });

  it('equal them on real text: data/sample.jsonl.gz', () => {
    const { batch } = corpusBatch();
    for (const [k, seed] of [
      [128, 42n],
      [1000, 7n],
      [7, 0n],
    ] as const) {
      const family = ophFamily(k, seed);
      const signatures = signBatchOph(family, batch, wasm);
      expectSameWords(signatures, signBatchOph(family, batch, binMinimaTs), `sample k=${k}`);
    }
    const head = corpusBatch(40).batch;
    expectAllAgree(head, 128, 42n);
    expectAllAgree(head, 256, 3n);
  });

  it('split a batch larger than one chunk of wasm memory without changing a word', () => {
    const next = rng(13);
    const sets = Array.from({ length: 4500 }, (_, d) => Array.from({ length: d % 5 }, () => randomBelow(next, P)));
    const batch = batchOf(sets); // 4,500 rows of 8,000 bytes: more than the 32 MB chunk
    const family = ophFamily(1000, 42n);
    expectSameWords(bins(wasm, family, batch), bins(binMinimaTs, family, batch), 'chunked');
  });
});

describe('the CPU kernel chain signs OPH with the wasm bin minima', () => {
  it('loads the wasm kernel here, and every wasm CPU kernel signs OPH as signBatchOph does', () => {
    expect(wasmOphBins()).not.toBe(binMinimaTs);
    const batch = randomBatch(randomSizes(40, 3000, 2), 4);
    const family = ophFamily(128, 42n);
    const want = signBatchOph(family, batch, binMinimaTs);
    for (const preferred of ['wasm-simd', 'wasm-scalar', 'typescript'] as const) {
      expectSameWords(openCpuKernel(preferred).kernel.sign(family, batch), want, preferred);
    }
  });

  it('ParallelCpuSigner with an OPH family, on worker threads, equals signBatchOph', async () => {
    const batch = randomBatch(randomSizes(200, 6000, 9), 21);
    const family = ophFamily(256, 0x0123_4567_89ab_cdefn);
    expect(batch.offsets[200] * 256).toBeGreaterThan(1 << 20); // really goes to the workers
    const signer = new ParallelCpuSigner(family, 2);
    try {
      expect(signer.kernelName).not.toBe('typescript');
      expectSameWords(await signer.sign(batch), signBatchOph(family, batch, binMinimaTs), 'parallel');
    } finally {
      signer.destroy();
    }
  });
});
