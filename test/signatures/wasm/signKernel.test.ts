import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { signBatchOnCpu } from '../../../src/signatures/cpuSigner.js';
import { makeHashFamily } from '../../../src/signatures/hashFamily.js';
import { loadWasmSignKernel, wasmSimdSupported, type WasmKernelName } from '../../../src/signatures/wasm/signKernel.js';
import { pack } from '../../../src/shingles/shingleBatch.js';
import { shingleDocument } from '../../../src/shingles/shingles.js';
import { u64 } from '../../../src/math/u64.js';
import { decodeBase64 } from '../../../src/wasm/embedded.js';
import { expectSameWords } from '../../support/sameWords.js';
import { SIGN_SCALAR_WASM, SIGN_SIMD_WASM } from '../../../src/signatures/wasm/kernels.generated.js';
import {
  P,
  modPow,
  pairsToBigInts,
  randomBelow,
  randomU32,
  rng,
  signatureRef,
  bigIntsToPairs,
} from '../../support/reference.js';

/** The first 150 sample documents, shingled and signed once by the TypeScript signer for both kernels. */
let sample:
  | { family: ReturnType<typeof makeHashFamily>; batch: ReturnType<typeof pack>; signatures: Uint32Array }
  | undefined;
function sampleReference() {
  if (!sample) {
    const texts = gunzipSync(readFileSync('data/sample.jsonl.gz'))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .slice(0, 150)
      .map((line) => (JSON.parse(line) as { text: string }).text);
    const family = makeHashFamily(128, u64(0, 42));
    const batch = pack(texts.map((t) => shingleDocument(t)));
    sample = { family, batch, signatures: signBatchOnCpu(family, batch) };
  }
  return sample;
}

const KERNELS: WasmKernelName[] = ['wasm-simd', 'wasm-scalar'];
const MASK64 = (1n << 64n) - 1n;

const words = bigIntsToPairs;

/** A hand-made family: the kernels take any a in [1, P − 1] and b in [0, P − 1]. */
function familyOf(a: readonly bigint[], b: readonly bigint[]) {
  return { k: a.length, a: words(a), b: words(b) };
}

/** min over xs of ((a·x) mod P + b) mod P, all-ones for an empty document. */
function minimumRef(xs: readonly bigint[], a: bigint, b: bigint): bigint {
  return xs.length === 0
    ? MASK64
    : xs.reduce((m, x) => {
        const h = (((a * x) % P) + b) % P;
        // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min does not take
        return h < m ? h : m;
      }, MASK64);
}

/**
 * (a, b, x) for which the SIMD kernel's fold (t & P) + (t >> 61) (scripts/sign-simd-wat.mjs) passes P and
 * (a·x + b) mod P = h, h in {0, 1, 2} (the only values that can: t < 5·2^61 keeps t & P below 2^61 − 4 where
 * t >> 61 = 4): its t is 2^62 + P − 1 + h for h ≤ 1, 2^63 − 1 for h = 2, so that the kernel's r = fold mod 2^61 is
 * h, not h + 1. a and x are drawn (near P for h = 2, whose t needs the large products) until
 * b = t − (the other terms) − 1 lies in [0, P).
 */
function firstFoldPastP(next: () => number, h = 0): { a: bigint; b: bigint; x: bigint } {
  const target = h < 2 ? (1n << 62n) + P - 1n + BigInt(h) : (1n << 63n) - 1n;
  const m30 = (1n << 30n) - 1n;
  const m31 = (1n << 31n) - 1n;
  const draw = () => (h < 2 ? randomBelow(next, P - 1n) + 1n : P - 1n - randomBelow(next, 1n << 59n));
  for (;;) {
    const a = draw();
    const x = draw();
    const [aL, aH, xL, xH] = [a & m31, a >> 31n, x & m31, x >> 31n];
    const mid = aL * xH + aH * xL;
    const b = target - (aL * xL + (mid >> 30n) + ((mid & m30) << 31n) + 2n * aH * xH) - 1n;
    if (b >= 0n && b < P) return { a, b, x };
  }
}

function randomSets(count: number, seed: number): Uint32Array[] {
  const next = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const n = i % 13 === 0 ? 0 : Math.floor(next() * 120);
    const set = new Uint32Array(2 * n);
    for (let j = 0; j < n; j++) {
      set[2 * j] = randomU32(next);
      set[2 * j + 1] = randomU32(next) & 0x1fffffff;
    }
    return set;
  });
}

// Edge values: 0, 1, P − 1, 2^61 − 2 (= P − 1), limbs at 0xFFFF and 0xFFFFFFFF, powers of two near the folds.
const EDGES = [
  0n,
  1n,
  2n,
  7n,
  8n,
  P - 1n,
  P - 2n,
  P - 8n,
  0xffffn,
  0xffff_ffffn,
  0x1_0000_0000n,
  0xffff_ffff_ffffn,
  0xffff_0000_ffffn,
  (1n << 32n) - 1n,
  1n << 32n,
  (1n << 60n) - 1n,
  1n << 60n,
  0x1fff_ffff_0000_0000n,
  0x1fff_ffff_ffff_0000n,
  0x0000_ffff_ffff_ffffn,
  0x1fff_ffff_0000_ffffn,
  0x1234_5678_9abc_def0n % P,
];

describe("the signing kernels' modules", () => {
  it("stay within 4 KiB: browsers compile a larger module synchronously off a page's main thread only", () => {
    // loadWasmSignKernel instantiates synchronously; the generated SIMD kernel (two shingles a step) is near the limit.
    for (const module of [SIGN_SIMD_WASM, SIGN_SCALAR_WASM])
      expect(decodeBase64(module).length).toBeLessThanOrEqual(4096);
  });
});

describe.each(KERNELS)('%s signing kernel', (name) => {
  it('loads in this engine', () => {
    if (name === 'wasm-simd') expect(wasmSimdSupported()).toBe(true); // Node 20 validates wasm SIMD
    expect(loadWasmSignKernel(name).name).toBe(name);
  });

  it('equals BigInt ((a·x) mod P + b) mod P at edge values of a, b and x', () => {
    const aEdges = EDGES.filter((v) => v >= 1n && v <= P - 1n);
    const kernel = loadWasmSignKernel(name);
    // One slot per (a, b) combination, one document per x: each slot is then a single hash value.
    const a: bigint[] = [];
    const b: bigint[] = [];
    for (const ai of aEdges) for (const bi of EDGES) if (bi < P) a.push(ai), b.push(bi);
    const family = familyOf(a, b);
    const xs = EDGES.filter((v) => v < P);
    const got = pairsToBigInts(kernel.sign(family, pack(xs.map((x) => words([x])))));
    const want = xs.flatMap((x) => a.map((ai, i) => (((ai * x) % P) + b[i]) % P));
    expect(got).toEqual(want);
  });

  it('equals the BigInt minimum on random a, b, x, for k not a multiple of the SIMD width', () => {
    const next = rng(7);
    const kernel = loadWasmSignKernel(name);
    for (const k of [1, 2, 3, 5, 7, 8, 9, 15, 17, 33]) {
      const a = Array.from({ length: k }, () => randomBelow(next, P - 1n) + 1n);
      const b = Array.from({ length: k }, () => randomBelow(next, P));
      const docs = Array.from({ length: 6 }, (_, d) => Array.from({ length: d * 3 }, () => randomBelow(next, P)));
      const got = pairsToBigInts(kernel.sign(familyOf(a, b), pack(docs.map(words))));
      const want = docs.flatMap((xs) =>
        a.map((ai, i) =>
          xs.length === 0
            ? MASK64
            : xs.reduce((m, x) => {
                const h = (((ai * x) % P) + b[i]) % P;
                // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min does not take
                return h < m ? h : m;
              }, MASK64),
        ),
      );
      expect(got).toEqual(want);
    }
  });

  it('equals the BigInt minimum for k around the 16-slot groups of the SIMD kernel (12 vector slots, 4 scalar)', () => {
    const next = rng(13);
    const kernel = loadWasmSignKernel(name);
    for (const k of [11, 12, 13, 14, 16, 18, 28, 31, 32, 33, 48]) {
      const a = Array.from({ length: k }, () => randomBelow(next, P - 1n) + 1n);
      const b = Array.from({ length: k }, () => randomBelow(next, P));
      const docs = [0, 1, 2, 5, 16, 17].map((n) => Array.from({ length: n }, () => randomBelow(next, P)));
      const got = pairsToBigInts(kernel.sign(familyOf(a, b), pack(docs.map(words))));
      expect(got).toEqual(docs.flatMap((xs) => a.map((ai, i) => minimumRef(xs, ai, b[i]))));
    }
  });

  it('keeps minima below 2^52 (subnormal when read as doubles) exactly, in every slot of a group', () => {
    // a = 1 makes h = (x + b) mod P: small and near-equal values in every order, 0, and wraps past P.
    const k = 16;
    const a = Array.from({ length: k }, () => 1n);
    const b = Array.from({ length: k }, (_, i) => (i % 3 === 2 ? P - BigInt(i) : BigInt(i * i)));
    const docs = [
      [(1n << 52n) + 5n, 3n, 1n << 51n, 1n << 53n],
      [1n << 51n, (1n << 51n) + 1n, (1n << 51n) - 1n],
      [7n, 0n],
      [P - 1n, 1n, 2n],
      [1n << 52n, (1n << 52n) - 1n],
      [(1n << 60n) + 9n, 1n << 40n, 1n << 20n, (1n << 20n) + 1n],
    ];
    const got = pairsToBigInts(loadWasmSignKernel(name).sign(familyOf(a, b), pack(docs.map(words))));
    expect(got).toEqual(docs.flatMap((xs) => a.map((ai, i) => minimumRef(xs, ai, b[i]))));
  });

  it('gives h exactly where a one-fold reduction passes P (h in {0, 1, 2}), in any slot of a group', () => {
    const next = rng(17);
    const kernel = loadWasmSignKernel(name);
    // Slots 5 and 13 get (a, b) whose fold passes P at x: h there, the minimum.
    for (const h of [0, 1, 2]) {
      for (const slots of [[5], [13], [5, 13]]) {
        const k = 16;
        const a = Array.from({ length: k }, () => randomBelow(next, P - 1n) + 1n);
        const b = Array.from({ length: k }, () => randomBelow(next, P));
        const xs: bigint[] = [];
        for (const slot of slots) {
          const made = firstFoldPastP(next, h);
          a[slot] = made.a;
          b[slot] = made.b;
          xs.push(made.x);
        }
        const docs = [
          Array.from({ length: 7 }, () => randomBelow(next, P)),
          [...Array.from({ length: 9 }, () => randomBelow(next, P)), ...xs, randomBelow(next, P)],
          [],
          Array.from({ length: 3 }, () => randomBelow(next, P)),
          // The SIMD kernel takes two shingles a step: x first, second, and the last of an odd count.
          [...xs],
          [randomBelow(next, P), ...xs],
          [randomBelow(next, P), randomBelow(next, P), ...xs],
        ];
        const got = pairsToBigInts(kernel.sign(familyOf(a, b), pack(docs.map(words))));
        expect(got).toEqual(docs.flatMap((d) => a.map((ai, i) => minimumRef(d, ai, b[i]))));
        for (const slot of slots) expect(got[k + slot]).toBe(BigInt(h));
      }
    }
  });

  it('keeps the exact minimum where hashes lie closer than the SIMD bound can tell apart, or near P', () => {
    // The SIMD kernel skips h only where its bound in doubles (within 2^-17 of h/P) shows h above the minimum: shingles
    // whose h differ by 1, or lie within 2^-20·P of each other, or near P (where the bound wraps past 1) and near 0,
    // are all decided by the exact hash. Each slot gets x with chosen h: x = (h − b)·a⁻¹ mod P.
    const next = rng(23);
    const k = 16;
    const a = Array.from({ length: k }, () => randomBelow(next, P - 1n) + 1n);
    const b = Array.from({ length: k }, () => randomBelow(next, P));
    const inverse = (v: bigint): bigint => modPow(v, P - 2n);
    const near = P >> 20n;
    const targets: bigint[][] = [
      [1000n + near, 1000n, 1001n, 999n + near],
      [P - 1n, P - 2n, P - 3n],
      [P - 1n, near, near + 1n, near - 1n],
      [near * 5n, near * 5n + 1n, near * 5n - 1n, near * 4n + (near >> 1n), near * 5n],
      [0n, 1n, P - 1n],
      [(P >> 1n) + 1n, P >> 1n, (P >> 1n) + near],
      [123456789n, 123456788n],
    ];
    // Each x hashes to its chosen h in the chosen slot (the other slots hash it at random), in every order.
    for (const [d, hs] of targets.entries()) {
      for (const slot of [0, 1, 6, 9, 15]) {
        const xs = hs.map((h) => ((((h - b[slot]) % P) + P) * inverse(a[slot])) % P);
        const random = Array.from({ length: 5 + d }, () => randomBelow(next, P));
        const docs = [xs, [...random, ...xs], [...xs].reverse(), [...xs, ...random]];
        const got = pairsToBigInts(loadWasmSignKernel(name).sign(familyOf(a, b), pack(docs.map(words))));
        expect(got).toEqual(docs.flatMap((x) => a.map((ai, i) => minimumRef(x, ai, b[i]))));
      }
    }
  });

  it('gives the signatures of the BigInt reference signer for the real family', () => {
    const family = makeHashFamily(20, u64(0, 42));
    const next = rng(11);
    const docs = Array.from({ length: 5 }, (_, d) => Array.from({ length: d * 7 }, () => randomBelow(next, P)));
    const got = pairsToBigInts(loadWasmSignKernel(name).sign(family, pack(docs.map(words))));
    expect(got).toEqual(docs.flatMap((xs) => signatureRef(xs, 20, 42n)));
  });

  it('equals the TypeScript CPU signer on random batches, one kernel instance across families', () => {
    const kernel = loadWasmSignKernel(name);
    for (const [k, seed] of [
      [128, 42],
      [64, 7],
      [128, 42],
      [3, 1],
    ] as const) {
      const family = makeHashFamily(k, u64(0, seed));
      const batch = pack(randomSets(60, k + seed));
      expectSameWords(kernel.sign(family, batch), signBatchOnCpu(family, batch));
    }
  });

  it('equals the TypeScript CPU signer across its memory chunks (a batch bigger than one chunk)', () => {
    const family = makeHashFamily(128, u64(0, 42));
    const next = rng(5);
    // 40,000 documents · 1 KiB of signature each: more than the 32 MiB chunk.
    const sets = Array.from({ length: 40_000 }, (_, i) =>
      i % 9 === 0 ? new Uint32Array(0) : Uint32Array.of(randomU32(next), randomU32(next) & 0x1fffffff),
    );
    const batch = pack(sets);
    expectSameWords(loadWasmSignKernel(name).sign(family, batch), signBatchOnCpu(family, batch));
  });

  it('equals the TypeScript CPU signer on the sample corpus', () => {
    const { family, batch, signatures } = sampleReference();
    expectSameWords(loadWasmSignKernel(name).sign(family, batch), signatures);
  });
});
