/**
 * CPU signing throughput on the bundled corpus (tinybench): shingling, signing
 * with the 32-bit-lane multiply-mod, and the BigInt reference as the baseline
 * measured in the same run (ratios survive a noisy shared machine).
 *   npm run bench
 */
import { Bench } from 'tinybench';
import { availableParallelism, cpus } from 'node:os';
import { shingleDocument } from '../src/shingles/shingles.js';
import { makeHashFamily } from '../src/signatures/hashFamily.js';
import { signBatchOnCpu } from '../src/signatures/cpuSigner.js';
import { ParallelCpuSigner } from '../src/signatures/cpuParallel.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { u64 } from '../src/math/u64.js';
import { pairsToBigInts, signatureRef } from '../test/support/reference.js';
import { loadSampleCorpus, utf8Bytes } from './corpus.js';
import { meanSeconds } from './tinybench.js';

const K = 128;
const documents = loadSampleCorpus();
const family = makeHashFamily(K, u64(0, 42));
const sets = documents.map((d) => shingleDocument(d.text));
const batch = pack(sets);
const shingles = batch.offsets[batch.offsets.length - 1];
const bytes = utf8Bytes(documents);
// The BigInt baseline is ~100× slower: time it on a slice with a known share of the shingles.
const sliceDocs = 40;
const sliceSets = sets.slice(0, sliceDocs).map((s) => pairsToBigInts(s));
const sliceShingles = sliceSets.reduce((n, s) => n + s.length, 0);

const threads = availableParallelism();
const parallel = new ParallelCpuSigner(family, threads);

const SHINGLE = 'shingle (word 5-grams, FNV-1a mod P)';
const BASELINE = `baseline: BigInt reference, k=${K}, first ${sliceDocs} docs`;
const SINGLE = `sign CPU, 32-bit lanes, k=${K}, 1 thread`;
const PARALLEL = `sign CPU, 32-bit lanes, k=${K}, ${threads} worker threads`;

const bench = new Bench({ iterations: 5, warmupIterations: 2, time: 0 });
bench
  .add(SHINGLE, () => {
    for (const d of documents) shingleDocument(d.text);
  })
  .add(SINGLE, () => {
    signBatchOnCpu(family, batch);
  })
  .add(PARALLEL, async () => {
    await parallel.sign(batch);
  })
  .add(BASELINE, () => {
    for (const s of sliceSets) signatureRef(s, K, 42n);
  });

await bench.run();
parallel.destroy();

const mean = (name: string): number => meanSeconds(bench, name);
const shingleS = mean(SHINGLE);
const signS = mean(SINGLE);
const parallelS = mean(PARALLEL);
const baselineS = mean(BASELINE);
const evals = shingles * K;
const laneRate = evals / signS;
const bigintRate = (sliceShingles * K) / baselineS;
const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits });

console.log(`machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, Node ${process.version}`);
console.log(
  `corpus: ${documents.length} documents, ${fmt(bytes / 1e6, 2)} MB of UTF-8 text, ${fmt(shingles)} shingles, k=${K}`,
);
console.log(
  `shingling: ${fmt(shingleS, 3)} s → ${fmt(documents.length / shingleS)} docs/s, ${fmt(bytes / 1e6 / shingleS, 1)} MB/s, ${fmt(shingles / shingleS)} shingles/s`,
);
console.log(
  `signing:   ${fmt(signS, 3)} s → ${fmt(documents.length / signS)} docs/s, ${fmt(bytes / 1e6 / signS, 2)} MB/s, ${fmt(laneRate / 1e6, 1)} M hash evaluations/s`,
);
console.log(
  `signing, ${threads} threads: ${fmt(parallelS, 3)} s → ${fmt(documents.length / parallelS)} docs/s, ${fmt(evals / parallelS / 1e6, 1)} M hash evaluations/s (${fmt(signS / parallelS, 2)}× one thread)`,
);
console.log(
  `end to end (shingle + sign): ${fmt(documents.length / (shingleS + signS))} docs/s, ${fmt(bytes / 1e6 / (shingleS + signS), 2)} MB/s`,
);
console.log(
  `baseline BigInt reference: ${fmt(bigintRate / 1e6, 2)} M hash evaluations/s → lanes are ${fmt(laneRate / bigintRate, 1)}× faster`,
);
