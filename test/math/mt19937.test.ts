// The Mersenne Twister and numpy's bounded randint against numpy itself, and the
// datasketch parameters against datasketch's own MinHash.permutations.
import { expect, it } from 'vitest';
import { boundedUint32, boundedUint64, MersenneTwister } from '../../src/math/mt19937.js';
import type { U64 } from '../../src/math/u64.js';
import { DATASKETCH_SCHEMES, makeDatasketchFamily } from '../../src/signatures/datasketchFamily.js';
import { describeWithDatasketch, runPython } from '../support/datasketch.js';

const big = (v: U64): bigint => (BigInt(v.hi) << 32n) | BigInt(v.lo);
const u64Of = (v: bigint): U64 => ({ hi: Number(v >> 32n), lo: Number(v & 0xffffffffn) });
const SEEDS = [0, 1, 42, 12345, 0xffffffff];

/** [low, high) and dtype of each case; scalar: one randint call per value (as datasketch's legacy scheme draws). */
const CASES: Array<{ low: bigint; high: bigint; dtype: 'uint32' | 'uint64'; size: number; scalar: boolean }> = [
  { low: 0n, high: 1n << 32n, dtype: 'uint32', size: 1024, scalar: false },
  { low: 0n, high: 1n << 31n, dtype: 'uint32', size: 1024, scalar: false },
  { low: 3n, high: 1003n, dtype: 'uint32', size: 700, scalar: false },
  { low: 0n, high: 5n, dtype: 'uint32', size: 300, scalar: true },
  { low: 0n, high: 1n << 64n, dtype: 'uint64', size: 1024, scalar: false },
  { low: 0n, high: 1n << 63n, dtype: 'uint64', size: 1024, scalar: false },
  { low: 1n, high: (1n << 61n) - 1n, dtype: 'uint64', size: 1024, scalar: true },
  { low: 0n, high: (1n << 61n) - 1n, dtype: 'uint64', size: 1024, scalar: true },
  { low: 7n, high: 7n + (1n << 40n) + 3n, dtype: 'uint64', size: 500, scalar: false }, // rejects about half
  { low: 10n, high: 100_010n, dtype: 'uint64', size: 500, scalar: false }, // a 64-bit dtype drawing 32-bit words
  { low: 1n << 62n, high: (1n << 62n) + 1n, dtype: 'uint64', size: 5, scalar: false }, // one value: no draw
];

const NUMPY_DRAWS = `
import json, sys, numpy as np
out = []
for seed, low, high, dtype, size, scalar in json.load(sys.stdin):
    rs = np.random.RandomState(seed)
    dt = getattr(np, dtype)
    if scalar:
        values = [int(rs.randint(int(low), int(high), dtype=dt)) for _ in range(size)]
    else:
        values = [int(v) for v in rs.randint(int(low), int(high), size, dtype=dt)]
    out.append([str(v) for v in values])
print(json.dumps(out))
`;

function drawTs(seed: number, c: (typeof CASES)[number]): string[] {
  const gen = new MersenneTwister(seed);
  const rng = c.high - 1n - c.low;
  return Array.from({ length: c.size }, () =>
    c.dtype === 'uint32'
      ? String(boundedUint32(gen, Number(c.low), Number(rng)))
      : String(big(boundedUint64(gen, u64Of(c.low), u64Of(rng)))),
  );
}

describeWithDatasketch('MT19937 and bounded randint against numpy.random.RandomState', () => {
  it('draws what numpy draws, for every seed, dtype and range', () => {
    const jobs = SEEDS.flatMap((seed) => CASES.map((c) => ({ seed, c })));
    const input = JSON.stringify(
      jobs.map(({ seed, c }) => [seed, String(c.low), String(c.high), c.dtype, c.size, c.scalar]),
    );
    const numpy = JSON.parse(runPython(NUMPY_DRAWS, input)) as string[][];
    jobs.forEach(({ seed, c }, i) =>
      expect(drawTs(seed, c), `seed ${seed}, [${c.low}, ${c.high}) ${c.dtype}`).toEqual(numpy[i]),
    );
  });

  it('reproduces MinHash(num_perm=k, seed=s, scheme=…).permutations for k up to 1024', () => {
    const jobs = DATASKETCH_SCHEMES.flatMap((scheme) =>
      [1, 42, 7, 0xffffffff].flatMap((seed) => [1, 3, 128, 1024].map((k) => ({ scheme, seed, k }))),
    );
    const program = `
import json, sys
from datasketch import MinHash
out = []
for scheme, seed, k in json.load(sys.stdin):
    a, b = MinHash(num_perm=k, seed=seed, scheme=scheme).permutations
    out.append([[str(int(v)) for v in a], [str(int(v)) for v in b]])
print(json.dumps(out))
`;
    const input = JSON.stringify(jobs.map((j) => [j.scheme.slice('datasketch-'.length), j.seed, j.k]));
    const expected = JSON.parse(runPython(program, input)) as string[][][];
    jobs.forEach(({ scheme, seed, k }, i) => {
      const family = makeDatasketchFamily(k, { hi: 0, lo: seed }, scheme);
      const pairs = (words: Uint32Array): string[] =>
        Array.from({ length: k }, (_, s) => String(big({ lo: words[2 * s], hi: words[2 * s + 1] })));
      expect([pairs(family.a), pairs(family.b)], `${scheme} seed ${seed} k ${k}`).toEqual(expected[i]);
    });
  });
});

it('refuses seeds numpy refuses', () => {
  expect(() => new MersenneTwister(2 ** 32)).toThrow(/seed/);
  expect(() => makeDatasketchFamily(4, { hi: 1, lo: 0 }, 'datasketch-affine32')).toThrow(/32-bit/);
});
