/** Inputs shared by the WebGPU tests: operand pairs for the multiply-mod, random batches, the corpus. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { ShingleBatch } from '../../../src/signatures/backend.js';
import { DEFAULT_SHINGLE, shingleDocument } from '../../../src/shingles/shingles.js';
import { pack } from '../../../src/shingles/shingleBatch.js';
import { DfCounter } from '../../../src/shingles/idfTable.js';
import { EDGE_ADDENDS, EDGES, P, randomBelow, randomU32, rng } from '../../support/reference.js';

export { EDGE_ADDENDS, EDGES };

export interface MulAddCase {
  readonly a: bigint;
  readonly x: bigint;
  readonly b: bigint;
}

/** Every edge pair with every edge addend, then `random` uniform operands below P. */
export function mulAddCases(random: number, seed: number): MulAddCase[] {
  const cases: MulAddCase[] = [];
  for (const a of EDGES) for (const x of EDGES) for (const b of EDGE_ADDENDS) cases.push({ a, x, b });
  const next = rng(seed);
  for (let i = 0; i < random; i++)
    cases.push({ a: randomBelow(next, P), x: randomBelow(next, P), b: randomBelow(next, P) });
  return cases;
}

/** (a.lo, a.hi, x.lo, x.hi, b.lo, b.hi) per case, the layout of mulmod_test.wgsl. */
export function packOperands(cases: readonly MulAddCase[]): Uint32Array<ArrayBuffer> {
  const words = new Uint32Array(6 * cases.length);
  cases.forEach(({ a, x, b }, i) => {
    for (const [j, v] of [a, x, b].entries()) {
      words[6 * i + 2 * j] = Number(v & 0xffffffffn);
      words[6 * i + 2 * j + 1] = Number(v >> 32n);
    }
  });
  return words;
}

/**
 * A batch of documents with the given shingle counts: random shingles below P,
 * with some extreme values (0, 1, P − 1) mixed in.
 */
export function randomBatch(sizes: readonly number[], seed: number): ShingleBatch {
  const next = rng(seed);
  const offsets = new Uint32Array(sizes.length + 1);
  sizes.forEach((size, d) => (offsets[d + 1] = offsets[d] + size));
  const shingles = new Uint32Array(2 * offsets[sizes.length]);
  for (let s = 0; s < offsets[sizes.length]; s++) {
    const r = next();
    const v = r < 0.01 ? 0n : r < 0.02 ? 1n : r < 0.03 ? P - 1n : randomBelow(next, P);
    shingles[2 * s] = Number(v & 0xffffffffn);
    shingles[2 * s + 1] = Number(v >> 32n);
  }
  return { shingles, offsets };
}

/** Shingle counts from 0 up to `max`, skewed towards small documents. */
export function randomSizes(count: number, max: number, seed: number): number[] {
  const next = rng(seed);
  return Array.from({ length: count }, () => Math.floor(max * next() ** 3) + (randomU32(next) % 3));
}

/** The bundled corpus (data/sample.jsonl.gz), shingled with the default options, as one batch. */
export function corpusBatch(limit = Infinity): { batch: ShingleBatch; ids: string[] } {
  const path = fileURLToPath(new URL('../../../data/sample.jsonl.gz', import.meta.url));
  const lines = gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const docs = lines.slice(0, limit).map((line) => JSON.parse(line) as { id: string; text: string });
  const sets = docs.map((doc) => shingleDocument(doc.text));
  const offsets = new Uint32Array(sets.length + 1);
  sets.forEach((set, d) => (offsets[d + 1] = offsets[d] + set.length / 2));
  const shingles = new Uint32Array(2 * offsets[sets.length]);
  sets.forEach((set, d) => shingles.set(set, 2 * offsets[d]));
  return { batch: { shingles, offsets }, ids: docs.map((doc) => doc.id) };
}

/** The 32-bit slot width: the low word of every 64-bit slot. */
export function lowWords(signatures: Uint32Array): Uint32Array {
  return signatures.filter((_, i) => i % 2 === 0);
}

/** The bundled corpus's first `limit` documents, each twice over plus its first half, with `--weights counts`. */
export function weightedCorpusBatch(limit: number): ShingleBatch {
  const path = fileURLToPath(new URL('../../../data/sample.jsonl.gz', import.meta.url));
  const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n', limit);
  const texts = lines.map((line) => (JSON.parse(line) as { text: string }).text);
  const options = { ...DEFAULT_SHINGLE, weights: 'counts' as const };
  const sets = texts.flatMap((text) => [
    shingleDocument(text, options),
    shingleDocument(`${text} ${text} ${text.slice(0, text.length >> 1)}`, options),
  ]);
  return pack(sets);
}

/**
 * The bundled corpus's first `limit` documents, each as is and with its first half, with `--weights idf` by the
 * table counted over the whole corpus (weights 1 to 8: boilerplate light, rare shingles 8).
 */
export function idfCorpusBatch(limit: number): ShingleBatch {
  const path = fileURLToPath(new URL('../../../data/sample.jsonl.gz', import.meta.url));
  const lines = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter(Boolean);
  const texts = lines.map((line) => (JSON.parse(line) as { text: string }).text);
  const counter = new DfCounter();
  for (const text of texts) counter.addSet(shingleDocument(text));
  const idf = counter.table({ shingle: 'word', n: DEFAULT_SHINGLE.n, nfkc: false, stripPunctuation: false });
  const options = { ...DEFAULT_SHINGLE, weights: 'idf' as const, idf };
  return pack(
    texts
      .slice(0, limit)
      .flatMap((text) => [shingleDocument(text, options), shingleDocument(text.slice(0, text.length >> 1), options)]),
  );
}
