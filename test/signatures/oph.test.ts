// One-permutation hashing on the CPU against the BigInt reference written from
// docs/signatures.md (test/support/reference.ts), and the OPH scheme through the signers.
import { describe, expect, it } from 'vitest';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { ParallelCpuSigner } from '../../src/signatures/cpuParallel.js';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { binMinimaTs, ophBin, probe, probeBases, signBatchOph } from '../../src/signatures/oph.js';
import { EMPTY_SLOT_WORD } from '../../src/signatures/backend.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { pack } from '../../src/shingles/shingleBatch.js';
import {
  fmix32Ref,
  ophBinMinimaRef,
  ophSignatureRef,
  P,
  pairsToBigInts,
  randomBelow,
  rng,
  splitmix64Ref,
} from '../support/reference.js';
import { corpusBatch, randomBatch, randomSizes } from './webgpu/cases.js';

const SEEDS = [42n, 0n, 0xffff_ffff_ffff_ffffn, 0x0123_4567_89ab_cdefn];
const u64Of = (v: bigint) => ({ hi: Number(v >> 32n), lo: Number(v & 0xffffffffn) });

/** Shingle sets of a batch, as BigInts, document by document. */
function setsOf(batch: { shingles: Uint32Array; offsets: Uint32Array }): bigint[][] {
  const all = pairsToBigInts(batch.shingles);
  return Array.from({ length: batch.offsets.length - 1 }, (_, d) => all.slice(batch.offsets[d], batch.offsets[d + 1]));
}

function expectReference(batch: { shingles: Uint32Array; offsets: Uint32Array }, k: number, seed: bigint): void {
  const family = makeHashFamily(k, u64Of(seed), 'oph');
  const got = signBatchOph(family, batch);
  const sets = setsOf(batch);
  sets.forEach((set, d) => {
    const want = ophSignatureRef(set, k, seed);
    expect(
      pairsToBigInts(got.subarray(2 * k * d, 2 * k * (d + 1))),
      `k=${k} seed=${seed} doc ${d} (${set.length} shingles)`,
    ).toEqual(want);
  });
}

describe('OPH building blocks', () => {
  it('the probe key is splitmix64(seed + 2) mod 2^32', () => {
    for (const seed of SEEDS) {
      expect(makeHashFamily(4, u64Of(seed), 'oph').probeKey).toBe(
        Number(splitmix64Ref((seed + 2n) & ((1n << 64n) - 1n)) & 0xffffffffn),
      );
    }
    expect(makeHashFamily(4, u64Of(42n)).probeKey).toBeUndefined();
  });

  it('bin(h) = floor(floor(h / 2^29)·k / 2^32) on edge and random values', () => {
    const next = rng(3);
    const values = [
      0n,
      1n,
      (1n << 29n) - 1n,
      1n << 29n,
      P - 1n,
      P - 2n,
      (1n << 32n) - 1n,
      1n << 32n,
      ...Array.from({ length: 2000 }, () => randomBelow(next, P)),
    ];
    for (const k of [1, 2, 3, 7, 128, 1000, 4096]) {
      for (const h of values) {
        expect(ophBin(Number(h >> 32n), Number(h & 0xffffffffn), k)).toBe(Number(((h >> 29n) * BigInt(k)) >> 32n));
      }
    }
  });

  it('probe(j, t) matches fmix32 in BigInt, and every bin is reachable', () => {
    const next = rng(5);
    for (const k of [1, 5, 128, 4096]) {
      const key = Math.floor(next() * 2 ** 32);
      const bases = probeBases(k, key);
      for (let j = 0; j < Math.min(k, 50); j++) {
        for (const t of [0, 1, 2, 1000, 0xffffffff]) {
          const want = Number(
            (fmix32Ref((fmix32Ref(BigInt(key ^ j) & 0xffffffffn) + BigInt(t) * 0x9e3779b9n) & 0xffffffffn) *
              BigInt(k)) >>
              32n,
          );
          expect(probe(bases[j], t, k)).toBe(want);
        }
      }
    }
  });

  it('bin minima equal the reference before densification', () => {
    const batch = randomBatch([0, 1, 3, 50, 128, 500], 9);
    for (const k of [1, 16, 128]) {
      const family = makeHashFamily(k, u64Of(42n), 'oph');
      const out = new Uint32Array((batch.offsets.length - 1) * 2 * k).fill(EMPTY_SLOT_WORD);
      binMinimaTs(family, batch, out);
      setsOf(batch).forEach((set, d) =>
        expect(pairsToBigInts(out.subarray(2 * k * d, 2 * k * (d + 1)))).toEqual(ophBinMinimaRef(set, k, 42n)),
      );
    }
  });
});

describe('OPH signatures equal the BigInt reference', () => {
  it('on empty, one-shingle, fewer-shingles-than-bins and long random documents', () => {
    const sizes = [0, 1, 2, 3, 0, 7, 60, 127, 128, 129, 400, ...randomSizes(20, 900, 8)];
    for (const k of [1, 2, 7, 64, 128, 256])
      for (const seed of SEEDS.slice(0, k === 128 ? 4 : 2)) expectReference(randomBatch(sizes, k), k, seed);
  });

  it('on real text: the first documents of data/sample.jsonl.gz', () => {
    const { batch } = corpusBatch(60);
    expectReference(batch, 128, 42n);
    expectReference(batch, 200, 7n);
  });

  it('keeps an empty document all-ones and fills every bin of a one-shingle document with its one value', () => {
    const family = makeHashFamily(128, u64Of(42n), 'oph');
    const sig = signBatchOph(family, pack([new Uint32Array(0), shingleDocument('Hello  World')]));
    expect(sig.subarray(0, 256).every((w) => w === EMPTY_SLOT_WORD)).toBe(true);
    const one = pairsToBigInts(sig.subarray(256));
    expect(new Set(one).size).toBe(1);
    expect(one[0]).toBeLessThan(P);
  });

  it('differs from the classic scheme, and the CPU signers dispatch on the scheme', async () => {
    const batch = randomBatch(randomSizes(40, 3000, 2), 4);
    const family = makeHashFamily(128, u64Of(42n), 'oph');
    const oph = signBatchOph(family, batch);
    expect(signBatchOnCpu(family, batch)).toEqual(oph);
    expect(signBatchOnCpu(makeHashFamily(128, u64Of(42n)), batch)).not.toEqual(oph);
    const parallel = new ParallelCpuSigner(family, 2);
    try {
      expect(await parallel.sign(batch)).toEqual(oph);
    } finally {
      parallel.destroy();
    }
  });

  it('estimates Jaccard similarity: two sets of J = 0.8 agree on about 80 % of 512 slots', () => {
    const next = rng(77);
    const common = Array.from({ length: 800 }, () => randomBelow(next, P));
    const a = [...common, ...Array.from({ length: 100 }, () => randomBelow(next, P))];
    const b = [...common, ...Array.from({ length: 100 }, () => randomBelow(next, P))];
    const k = 512;
    const sa = ophSignatureRef(a, k, 42n);
    const sb = ophSignatureRef(b, k, 42n);
    const agree = sa.filter((v, i) => v === sb[i]).length / k;
    expect(Math.abs(agree - 0.8)).toBeLessThan(0.06); // 3.4 standard errors of √(0.16/512)
  });
});
