// The datasketch schemes against datasketch 2.0.0 itself (PyPI): every slot of
// every document, three schemes, seeds 1 and 42, on the TypeScript reference,
// the wasm SIMD kernel and WebGPU (lavapipe without a GPU), for the sample
// corpus and random Unicode text.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { toStoredRows } from '../../src/bands/bBitSlots.js';
import { openCpuKernel } from '../../src/signatures/cpuKernel.js';
import { DATASKETCH_SCHEMES, type DatasketchScheme } from '../../src/signatures/datasketchFamily.js';
import { signBatchDatasketch } from '../../src/signatures/datasketchSigner.js';
import { hashFamilyOf, makeParams, shingleOptionsOf, type SignatureParams } from '../../src/signatures/params.js';
import { loadShaderSources } from '../../src/signatures/webgpu/nodeShaders.js';
import { WebGpuSigner } from '../../src/signatures/webgpu/webGpuSigner.js';
import { pack, type ShingleBatch } from '../../src/shingles/shingleBatch.js';
import { shingleStrings } from '../../src/shingles/sha1Shingles.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { datasketchRowsOfJobs, describeWithDatasketch, type DatasketchJob } from '../support/datasketch.js';
import { describeWithGpu } from '../support/gpu.js';
import { mulberry32, randomUnicodeText } from '../support/unicodeText.js';

const SEEDS = [1, 42];
const K = 128;

function sampleTexts(): string[] {
  const path = new URL('../../data/sample.jsonl.gz', import.meta.url);
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { text: string }).text);
}

const random = mulberry32(2026);
const unicode = [
  '',
  '   ',
  'one',
  ...Array.from({ length: 60 }, () => randomUnicodeText(random, Math.floor(random() * 120))),
];
const corpora: Record<string, { texts: string[]; shingle: 'word' | 'char'; n: number }> = {
  'the sample corpus (word 5-grams)': { texts: sampleTexts(), shingle: 'word', n: 5 },
  'random Unicode text (char 4-grams)': { texts: unicode, shingle: 'char', n: 4 },
  'random Unicode text (word 2-grams)': { texts: unicode, shingle: 'word', n: 2 },
};

interface Case {
  readonly params: SignatureParams;
  readonly batch: ShingleBatch;
  /** datasketch's rows, decimal. */
  readonly expected: string[][];
}

const cases = new Map<string, Case>();

/**
 * Every corpus, scheme and seed's batch and datasketch's rows, made on first use: datasketch signs them all in one
 * Python process (each process imports numpy and datasketch, most of a small case's time).
 */
function makeCases(): void {
  const made: { key: string; params: SignatureParams; batch: ShingleBatch }[] = [];
  const jobs: DatasketchJob[] = [];
  for (const [corpus, { texts, shingle, n }] of Object.entries(corpora)) {
    const stringsBy = new Map<string, string[][]>(); // by normalization: the same for every scheme and seed so far
    for (const scheme of DATASKETCH_SCHEMES)
      for (const seed of SEEDS) {
        const params = makeParams({ scheme, seed, k: K, shingle, n });
        const options = shingleOptionsOf(params);
        const batch = pack(texts.map((text) => shingleDocument(text, options)));
        const normalized = JSON.stringify(params.normalize);
        const strings =
          stringsBy.get(normalized) ??
          texts.map((text) => shingleStrings(text, { mode: shingle, n, normalize: params.normalize }));
        stringsBy.set(normalized, strings);
        made.push({ key: `${corpus} ${scheme} ${seed}`, params, batch });
        jobs.push({ scheme: scheme.slice('datasketch-'.length), seed, k: K, shingles: strings });
      }
  }
  const expected = datasketchRowsOfJobs(jobs);
  made.forEach(({ key, params, batch }, i) => cases.set(key, { params, batch, expected: expected[i] }));
}

/** The batch and datasketch's rows for one corpus, scheme and seed; `limit`: the first documents only. */
function caseOf(corpus: string, scheme: DatasketchScheme, seed: number, limit = Infinity): Case {
  if (cases.size === 0) makeCases();
  const made = cases.get(`${corpus} ${scheme} ${seed}`)!;
  const docs = Math.min(limit, made.expected.length);
  if (docs === made.expected.length) return made;
  const { shingles, offsets } = made.batch;
  const batch = { shingles: shingles.subarray(0, 2 * offsets[docs]), offsets: offsets.subarray(0, docs + 1) };
  return { params: made.params, batch, expected: made.expected.slice(0, docs) };
}

/** Rows as written to the .npy (uint32 or uint64 per slot), decimal. */
function storedRows(signatures: Uint32Array, params: SignatureParams): string[][] {
  const words = toStoredRows(signatures, params.k, params.slotBits);
  const rows: string[][] = [];
  const per = params.slotBits === 64 ? 2 : 1;
  for (let d = 0; d < words.length / (params.k * per); d++) {
    const row: string[] = [];
    for (let i = 0; i < params.k; i++) {
      const at = (d * params.k + i) * per;
      row.push(per === 2 ? String((BigInt(words[at + 1]) << 32n) | BigInt(words[at])) : String(words[at]));
    }
    rows.push(row);
  }
  return rows;
}

function expectRows(got: string[][], expected: string[][], label: string): void {
  expect(got.length, label).toBe(expected.length);
  for (let d = 0; d < got.length; d++) expect(got[d], `${label}, document ${d}`).toEqual(expected[d]);
}

/** The TypeScript reference and lavapipe are slow: they take the corpus' first documents. */
const SLOW_LIMIT = 40;

describeWithDatasketch('datasketch schemes equal datasketch 2.0.0', () => {
  for (const corpus of Object.keys(corpora)) {
    for (const scheme of DATASKETCH_SCHEMES) {
      for (const seed of SEEDS) {
        it(`${corpus}, ${scheme}, seed ${seed}: wasm SIMD and TypeScript`, () => {
          const full = caseOf(corpus, scheme, seed);
          const { kernel } = openCpuKernel('wasm-simd');
          expect(kernel.name).toBe('wasm-simd');
          expectRows(
            storedRows(kernel.sign(hashFamilyOf(full.params), full.batch), full.params),
            full.expected,
            'wasm SIMD',
          );
          const some = caseOf(corpus, scheme, seed, SLOW_LIMIT);
          expectRows(
            storedRows(signBatchDatasketch(hashFamilyOf(some.params), some.batch), some.params),
            some.expected,
            'TypeScript',
          );
        }, 240_000); // datasketch in Python on the whole corpus
      }
    }
  }
});

describe('datasketch schemes on WebGPU', () => {
  describeWithDatasketch('against datasketch 2.0.0', () => {
    describeWithGpu('WebGPU', (gpu) => {
      for (const corpus of Object.keys(corpora)) {
        for (const scheme of DATASKETCH_SCHEMES) {
          it(`${corpus}, ${scheme}, seeds ${SEEDS.join(' and ')}`, async () => {
            for (const seed of SEEDS) {
              const some = caseOf(corpus, scheme, seed, SLOW_LIMIT);
              // small segments: documents split across segments and chunks, combined on the host
              const signer = await WebGpuSigner.create(gpu().device, hashFamilyOf(some.params), loadShaderSources(), {
                release: () => {},
                segmentCap: 97,
              });
              try {
                expectRows(
                  storedRows(await signer.sign(some.batch), some.params),
                  some.expected,
                  `WebGPU seed ${seed}`,
                );
              } finally {
                signer.destroy();
              }
            }
          }, 240_000);
        }
      }
    });
  });
});
