// Exact Jaccard on worker threads: the sets posted once (shared chunks and the spill file), batches of pairs
// answered with exactly what exactJaccard gives on this thread, and verification in parallel deciding every pair,
// count and similarity as verifyPairs does.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { findCandidates } from '../../../src/bands/candidates.js';
import { pairRule } from '../../../src/verify/pairDecision.js';
import { findCandidatesOn } from '../../../src/bands/bandWorkers.js';
import { FileSetSpool } from '../../../src/pipeline/dedup/setSpill.js';
import { exactHandler, exactPairsOn, type ExactRequest } from '../../../src/verify/exactWorkers.js';
import { exactJaccard } from '../../../src/verify/exactJaccard.js';
import { fileOrder } from '../../../src/verify/fileOrder.js';
import { nodeStageWorkers } from '../../../src/dedup/node/stageWorkers.js';
import { openWords } from '../../../src/workers/wordReader.js';
import { verifyPairs, verifyPairsOnWorkers, type VerifyPairsOptions } from '../../../src/verify/verification.js';
import { signatureMatrix } from '../../../src/bands/signatureMatrix.js';
import { sharedWords } from '../../../src/bands/sharedMemory.js';
import { plantedCorpus } from '../../support/planted.js';
import { tempDir } from '../../support/cli.js';

const corpus = plantedCorpus(91, 40, [1, 2, 3, 5, 8, 12, 20]);
const candidates = findCandidates(corpus.signatures, { bands: 32, rows: 4 });

describe('exact Jaccard on worker threads', () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The corpus's sets in a spool that holds about half of them and spills the rest to its file (written), with no
   * room for the page cache: pairs are decided in the file's order.
   */
  async function spooled(): Promise<FileSetSpool> {
    const bytes = corpus.shingles.reduce((n, s) => n + s.byteLength, 0);
    const spool = new FileSetSpool(dir, bytes / 2, undefined, () => 0);
    for (const set of corpus.shingles) spool.append(set);
    await spool.drain();
    return spool;
  }

  it('the sets shared: half in shared memory, half in the file, each read back exactly', async () => {
    const spool = await spooled();
    const shared = spool.share()!;
    expect(shared.file).toBeDefined();
    expect(shared.readInFileOrder).toBe(true);
    // With the room of a machine's memory, a file this small is read in candidate order.
    const roomy = new FileSetSpool(dir, 64, undefined, () => 2 ** 34);
    for (const set of corpus.shingles) roomy.append(set);
    await roomy.drain();
    expect(roomy.share()!.readInFileOrder).toBe(false);
    await roomy.release();
    const inFile = Array.from(shared.chunk).filter((c) => c < 0).length;
    expect(inFile).toBeGreaterThan(corpus.texts.length / 4);
    expect(inFile).toBeLessThan((3 * corpus.texts.length) / 4);
    const handle = exactHandler(openWords);
    handle({ type: 'sets', sets: shared });
    handle({ type: 'matrix', shape: corpus.signatures, matrix: corpus.signatures });
    const n = corpus.texts.length;
    const a = Uint32Array.from({ length: 500 }, (_, i) => (i * 7) % n);
    const b = Uint32Array.from({ length: 500 }, (_, i) => (i * 13 + 5) % n);
    // Exact verification computes exact Jaccard for every pair: each read from shared memory or from the file.
    const rule = pairRule('exact', 0.8, corpus.signatures);
    const { decided } = handle({ type: 'decide', a, b, rule }).response;
    for (let i = 0; i < a.length; i++)
      expect(decided!.exacts[i]).toBe(exactJaccard(corpus.shingles[a[i]], corpus.shingles[b[i]]));
    await spool.release();
  });

  it('pairs that share their first document (its table built once) decide as exactJaccard, also after new sets', async () => {
    const n = corpus.texts.length;
    // Runs of one first document, 1 to 5 pairs each, from shared memory and from the file.
    const a = Uint32Array.from({ length: 400 }, (_, i) => (Math.floor(i / (1 + (i % 5))) * 11) % n);
    const b = Uint32Array.from({ length: 400 }, (_, i) => (i * 13 + 5) % n);
    a[a.length - 1] = a[0]; // the next run's first pair has the first document this run ended with
    const rule = pairRule('exact', 0.8, corpus.signatures);
    const handle = exactHandler(openWords);
    handle({ type: 'matrix', shape: corpus.signatures, matrix: corpus.signatures });
    const spool = await spooled();
    // A second run's sets: group g holds the set of document n − 1 − g.
    const reversed = new FileSetSpool(dir, spool.share()!.length.length * 4, undefined, () => 0);
    for (let g = 0; g < n; g++) reversed.append(corpus.shingles[n - 1 - g]);
    await reversed.drain();
    for (const [sets, setOf] of [
      [spool, (g: number) => corpus.shingles[g]],
      [reversed, (g: number) => corpus.shingles[n - 1 - g]],
    ] as const) {
      handle({ type: 'sets', sets: sets.share()! });
      const { decided } = handle({ type: 'decide', a, b, rule }).response;
      for (let i = 0; i < a.length; i++) expect(decided!.exacts[i]).toBe(exactJaccard(setOf(a[i]), setOf(b[i])));
    }
    await spool.release();
    await reversed.release();
  });

  // Rows 'unshared' stand for rows too large to share (sharedMemory.ts): this thread counts each pair's equal slots.
  it.each([
    ['exact', 'shared'],
    ['hybrid', 'shared'],
    ['estimate', 'shared'],
    ['hybrid', 'unshared'],
    ['estimate', 'unshared'],
  ] as const)(
    '%s verification decided on the workers (rows %s, sets where they lie) equals verifyPairs, in order across batches',
    async (verify, rows) => {
      const spool = await spooled();
      const words =
        rows === 'shared'
          ? sharedWords(corpus.signatures.words.length)
          : new Uint32Array(corpus.signatures.words.length);
      words.set(corpus.signatures.words);
      const signatures = signatureMatrix(words, corpus.signatures.k);
      // Twelve copies of the candidates: past two batches of 4,096 pairs, so batches come back out of order.
      const many = (list: Uint32Array) =>
        Uint32Array.from({ length: 12 * list.length }, (_, i) => list[i % list.length]);
      const pairs = { a: many(candidates.a), b: many(candidates.b) };
      expect(pairs.a.length).toBeGreaterThan(2 * 4096);
      // Sets in the file: the workers decide in file order (fileOrder.ts), which the results must not show.
      expect(fileOrder(spool.share()!, pairs.a, pairs.b)!.some((x, i) => x !== i)).toBe(true);
      const options: VerifyPairsOptions = {
        verify,
        threshold: 0.8,
        signatures,
        exactSimilarity: (x, y) => exactJaccard(spool.fetch(x).slice(), spool.fetch(y)),
      };
      const sequential = verifyPairs(pairs, options);
      const workers = nodeStageWorkers(2, spool.share()!);
      try {
        let progress = 0;
        const onWorkers = await verifyPairsOnWorkers(
          pairs,
          { ...options, onProgress: (done) => (progress = done) },
          workers.exact!,
        );
        // The same threads band too: the candidates findCandidates gives here.
        const banded = await findCandidatesOn(workers.banding, signatures, { bands: 32, rows: 4 });
        expect(banded).toEqual(findCandidates(signatures, { bands: 32, rows: 4 }));
        if (verify !== 'exact')
          expect(onWorkers.decided.estimateAccepted + onWorkers.decided.estimateRejected).toBeGreaterThan(0);
        expect(onWorkers).toEqual(sequential);
        expect(progress).toBe(pairs.a.length);
        // Workers run inline answer the same (the tab's workers would run this handler).
        const handle = exactHandler(openWords);
        const inline = exactPairsOn(
          { size: 3, request: async (_w, request: ExactRequest) => handle(request).response },
          spool.share()!,
        );
        expect(await verifyPairsOnWorkers(pairs, options, inline)).toEqual(sequential);
      } finally {
        workers.destroy();
        spool.release();
      }
      if (verify !== 'estimate') expect(sequential.decided.exactAccepted).toBeGreaterThan(20);
    },
  );
});
