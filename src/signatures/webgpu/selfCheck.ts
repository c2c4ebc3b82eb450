/**
 * A quick parity check of one device against the CPU backend, for
 * `gpudedup doctor`: the WGSL multiply-mod on edge and random operands, and
 * whole signatures of random documents, once as one segment per document and
 * once cut into small segments and chunks (partial minima combined), for
 * every scheme (classic, OPH, the three datasketch schemes and SimHash).
 * The CPU side (src/math/mersenne61.ts) is checked against BigInt by the tests.
 */
import { DATASKETCH_SCHEMES } from '../datasketchFamily.js';
import { mulAddModP } from '../../math/mersenne61.js';
import { signBatchOnCpu } from '../cpuSigner.js';
import type { ShingleBatch } from '../backend.js';
import { makeHashFamily } from '../hashFamily.js';
import { runMulAddModP } from './mulmodKernel.js';
import type { ShaderSources } from './shaderSources.js';
import { WebGpuSigner, type WebGpuSignerOptions } from './webGpuSigner.js';
import { SimhashGpuSigner } from './simhashSigner.js';
import { SIMHASH_BITS } from '../simhash.js';

export interface SelfCheckResult {
  readonly ok: boolean;
  readonly mulmodCases: number;
  /** Cases whose GPU result differs from the CPU's; the first few, described. */
  readonly mulmodMismatches: readonly string[];
  readonly documents: number;
  readonly shingles: number;
  readonly k: number;
  /** Documents whose GPU signature differs from the CPU's, per signer layout tried. */
  readonly signatureMismatches: readonly string[];
  readonly ms: number;
}

/** (hi, lo) of values that stress carries and folds: 0, 1, P − 1, P, 2^61 − 2, word and limb edges. */
const EDGES: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [0, 1],
  [0, 2],
  [0x1fffffff, 0xfffffffd],
  [0x1fffffff, 0xfffffffe],
  [0x1fffffff, 0xffffffff],
  [0, 0xffffffff],
  [1, 0],
  [1, 1],
  [0x10000000, 0],
  [0x0fffffff, 0xffffffff],
  [0, 0xffff],
  [0, 0xffff0000],
  [0xffff, 0xffffffff],
  [0x1fffffff, 0],
  [0x1fff0000, 0xffff0000],
  [0xffff, 0xffff],
  [0x1fffffff, 0xffff0000],
];
const ADDENDS: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [0, 1],
  [0x1fffffff, 0xfffffffe],
];

/** xorshift32: reproducible operands without BigInt. */
function randomWords(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>>= 0);
  };
}

export async function runSelfCheck(
  device: GPUDevice,
  sources: ShaderSources,
  { k = 128, randomOperands = 20_000, documents = 120, seed = 1 } = {},
): Promise<SelfCheckResult> {
  const started = performance.now();
  const next = randomWords(seed);
  const mulmodMismatches = await checkMulAdd(device, sources, next, randomOperands);
  const batch = randomBatch(next, documents);
  const signatureMismatches: string[] = [];
  const layouts: [string, WebGpuSignerOptions][] = [
    ['whole documents', {}],
    ['split into 16-shingle segments, 500-shingle chunks', { segmentCap: 16, maxChunkShingles: 500 }],
  ];
  for (const scheme of ['classic', 'oph', ...DATASKETCH_SCHEMES] as const) {
    const family = makeHashFamily(k, { hi: 0, lo: seed }, scheme);
    const expected = signBatchOnCpu(family, batch);
    for (const [layout, options] of layouts) {
      const signer = await WebGpuSigner.create(device, family, sources, { ...options, release: () => {} });
      try {
        const got = await signer.sign(batch);
        const wrong = differingDocuments(got, expected, 2 * k);
        if (wrong.length > 0)
          signatureMismatches.push(`${scheme}, ${layout}: documents ${wrong.slice(0, 5).join(', ')} differ`);
      } finally {
        signer.destroy();
      }
    }
  }
  signatureMismatches.push(...(await checkSimhash(device, sources, batch, seed)));
  return {
    ok: mulmodMismatches.length === 0 && signatureMismatches.length === 0,
    mulmodCases: EDGES.length ** 2 * ADDENDS.length + randomOperands,
    mulmodMismatches,
    documents,
    shingles: batch.offsets[documents],
    k,
    signatureMismatches,
    ms: performance.now() - started,
  };
}

/** SimHash (simhash.wgsl) against the CPU, in one dispatch and in 500-element chunks. */
async function checkSimhash(device: GPUDevice, sources: ShaderSources, batch: ShingleBatch, seed: number) {
  const family = makeHashFamily(SIMHASH_BITS, { hi: 0, lo: seed }, 'simhash');
  const expected = signBatchOnCpu(family, batch);
  const mismatches: string[] = [];
  for (const [layout, maxChunkElements] of [
    ['whole documents', undefined],
    ['500-element chunks', 500],
  ] as const) {
    const signer = await SimhashGpuSigner.create(device, family, sources, { release: () => {}, maxChunkElements });
    try {
      const wrong = differingDocuments(await signer.sign(batch), expected, 2 * SIMHASH_BITS);
      if (wrong.length > 0) mismatches.push(`simhash, ${layout}: documents ${wrong.slice(0, 5).join(', ')} differ`);
    } finally {
      signer.destroy();
    }
  }
  return mismatches;
}

async function checkMulAdd(
  device: GPUDevice,
  sources: ShaderSources,
  next: () => number,
  random: number,
): Promise<string[]> {
  const operands: number[] = [];
  for (const a of EDGES)
    for (const x of EDGES) for (const b of ADDENDS) operands.push(a[1], a[0], x[1], x[0], b[1], b[0]);
  for (let i = 0; i < random; i++) {
    // a, x below 2^61; b below 2^60 < P.
    operands.push(next(), next() & 0x1fffffff, next(), next() & 0x1fffffff, next(), next() & 0x0fffffff);
  }
  const words = Uint32Array.from(operands);
  const got = await runMulAddModP(device, sources, words);
  const want = new Uint32Array(2);
  const mismatches: string[] = [];
  for (let i = 0; i < words.length / 6 && mismatches.length < 5; i++) {
    const w = words.subarray(6 * i, 6 * i + 6);
    mulAddModP(w[1], w[0], w[3], w[2], w[5], w[4], want, 0);
    if (got[2 * i] !== want[0] || got[2 * i + 1] !== want[1]) {
      const hex = (hi: number, lo: number): string => `0x${hi.toString(16)}_${lo.toString(16).padStart(8, '0')}`;
      mismatches.push(
        `a=${hex(w[1], w[0])} x=${hex(w[3], w[2])} b=${hex(w[5], w[4])}: GPU ${hex(got[2 * i + 1], got[2 * i])}, CPU ` +
          `${hex(want[1], want[0])}`,
      );
    }
  }
  return mismatches;
}

/** Documents of 0, 1, 63, 64, 65 shingles and random sizes up to 600, shingles below 2^60. */
function randomBatch(next: () => number, documents: number): ShingleBatch {
  const fixed = [0, 1, 63, 64, 65];
  const offsets = new Uint32Array(documents + 1);
  for (let d = 0; d < documents; d++) offsets[d + 1] = offsets[d] + (fixed[d] ?? next() % 600);
  const shingles = new Uint32Array(2 * offsets[documents]);
  for (let i = 0; i < shingles.length; i += 2) {
    shingles[i] = next();
    shingles[i + 1] = next() & 0x0fffffff;
  }
  return { shingles, offsets };
}

function differingDocuments(got: Uint32Array, expected: Uint32Array, wordsPerDocument: number): number[] {
  const wrong: number[] = [];
  for (let i = 0; i < expected.length; i++) {
    if (got[i] !== expected[i]) {
      const d = Math.floor(i / wordsPerDocument);
      if (wrong[wrong.length - 1] !== d) wrong.push(d);
    }
  }
  return got.length === expected.length ? wrong : [-1];
}
