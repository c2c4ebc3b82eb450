/**
 * Planted near-duplicates for quality tests: families of documents made from a
 * random base text by replacing a known number of its words, signed on the CPU,
 * with the exact Jaccard of every pair computed by brute force.
 */
import { signatureMatrix, type SignatureMatrix } from '../../src/bands/signatureMatrix.js';
import { exactJaccard } from '../../src/verify/verification.js';
import { u64 } from '../../src/math/u64.js';
import { shingleDocument } from '../../src/shingles/shingles.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { rng } from './reference.js';

export interface PlantedCorpus {
  readonly texts: string[];
  readonly shingles: Uint32Array[];
  /** Family of each document. */
  readonly family: number[];
  readonly signatures: SignatureMatrix;
  /** Exact Jaccard of pair (a < b) at jaccard[a][b - a - 1]. */
  readonly jaccard: Float64Array[];
}

export function similarity(corpus: PlantedCorpus, a: number, b: number): number {
  return a < b ? corpus.jaccard[a][b - a - 1] : corpus.jaccard[b][a - b - 1];
}

export function plantedCorpus(
  seed: number,
  families: number,
  edits: readonly number[],
  length = 200,
  k = 128,
): PlantedCorpus {
  const next = rng(seed);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocabulary = Array.from({ length: 20_000 }, () =>
    Array.from({ length: 4 + Math.floor(next() * 6) }, () => letters[Math.floor(next() * 26)]).join(''),
  );
  const word = (): string => vocabulary[Math.floor(next() * vocabulary.length)];
  const texts: string[] = [];
  const family: number[] = [];
  for (let f = 0; f < families; f++) {
    const base = Array.from({ length }, word);
    texts.push(base.join(' '));
    family.push(f);
    for (const count of edits) {
      const variant = base.slice();
      const positions = new Set<number>();
      while (positions.size < count) positions.add(Math.floor(next() * length));
      for (const p of positions) variant[p] = word();
      texts.push(variant.join(' '));
      family.push(f);
    }
  }
  const shingles = texts.map((t) => shingleDocument(t));
  const offsets = new Uint32Array(texts.length + 1);
  shingles.forEach((s, d) => (offsets[d + 1] = offsets[d] + s.length / 2));
  const packed = new Uint32Array(offsets[texts.length] * 2);
  shingles.forEach((s, d) => packed.set(s, offsets[d] * 2));
  const words = signBatchOnCpu(makeHashFamily(k, u64(0, 42)), { shingles: packed, offsets });
  const jaccard = shingles.map((s, a) => {
    const row = new Float64Array(texts.length - a - 1);
    for (let b = a + 1; b < texts.length; b++) row[b - a - 1] = exactJaccard(s, shingles[b]);
    return row;
  });
  return { texts, shingles, family, signatures: signatureMatrix(words, k), jaccard };
}

/** P(Binomial(k, p) ≥ need): the chance that a pair of similarity p passes estimate verification. */
export function binomialTail(k: number, p: number, need: number): number {
  if (p <= 0) return need <= 0 ? 1 : 0;
  if (p >= 1) return 1;
  let total = 0;
  let logTerm = k * Math.log1p(-p); // log P(X = 0)
  for (let x = 0; x <= k; x++) {
    if (x >= need) total += Math.exp(logTerm);
    logTerm += Math.log((k - x) / (x + 1)) + Math.log(p) - Math.log1p(-p);
  }
  return Math.min(1, total);
}
