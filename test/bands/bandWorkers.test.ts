// Banding on workers: each worker buckets its share of the bands, this thread merges their sorted pairs. The
// candidates and bucket counts must equal findCandidates's on one thread, for any number of workers, with big
// buckets (stars and chains), an include filter, and bands that finish out of order.
import { describe, expect, it } from 'vitest';
import { bandHandler, findCandidatesOn, type BandRequest } from '../../src/bands/bandWorkers.js';
import { findCandidates } from '../../src/bands/candidates.js';
import { signatureMatrix } from '../../src/bands/signatureMatrix.js';
import { matrixBandKeys } from '../../src/bands/bandKeySource.js';
import { sharedWords } from '../../src/bands/sharedMemory.js';
import { rng } from '../support/reference.js';
import { plantedCorpus } from '../support/planted.js';

/** Workers run inline; answers come back in a shuffled order, as threads' may. */
function inlineWorkers(size: number, seed: number) {
  const handlers = Array.from({ length: size }, () => bandHandler());
  const random = rng(seed);
  return {
    size,
    request: async (worker: number, request: BandRequest) => {
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));
      return handlers[worker](request).response;
    },
  };
}

describe('findCandidatesOn', () => {
  const corpus = plantedCorpus(5, 30, [1, 2, 4, 8, 16]);
  // Templates: 40 copies of one row make buckets past maxBucketPairs in every band.
  const k = corpus.signatures.k;
  const words = new Uint32Array(corpus.signatures.words.length + 40 * 2 * k);
  words.set(corpus.signatures.words);
  for (let c = 0; c < 40; c++)
    words.set(corpus.signatures.words.subarray(0, 2 * k), corpus.signatures.words.length + c * 2 * k);
  const signatures = signatureMatrix(words, k);

  it.each([1, 2, 3, 5])('equals findCandidates with %i workers', async (size) => {
    for (const include of [undefined, Uint8Array.from({ length: signatures.count }, (_, d) => (d % 7 === 3 ? 0 : 1))]) {
      const options = { bands: 32, rows: 4, maxBucketPairs: 8, include };
      const one = findCandidates(signatures, options);
      let bands = 0;
      const many = await findCandidatesOn(inlineWorkers(size, size), signatures, {
        ...options,
        onBand: (b) => (bands = b),
      });
      expect(many).toEqual(one);
      expect(bands).toBe(32);
      expect(one.stats.bigBuckets).toBeGreaterThan(0); // the test has stars and chains
      expect(one.a.length).toBeGreaterThan(300);
    }
  });

  it("computes each band's keys on the worker where the rows lie in shared memory: the same candidates", async () => {
    const shared = signatureMatrix(sharedWords(words.length).fill(0), k);
    shared.words.set(words);
    const keys = matrixBandKeys(shared, { bands: 32, rows: 4 });
    const sent: BandRequest[] = [];
    const workers = inlineWorkers(3, 7);
    const counting = { ...workers, request: (w: number, r: BandRequest) => (sent.push(r), workers.request(w, r)) };
    const options = { bands: 32, rows: 4, maxBucketPairs: 8 };
    expect(await findCandidatesOn(counting, keys, options)).toEqual(findCandidates(signatures, options));
    const banded = sent.filter((r) => r.type === 'band');
    expect(banded.length).toBe(32);
    expect(banded.every((r) => !(r.keys instanceof Uint32Array))).toBe(true); // no keys computed on this thread
  });
});
