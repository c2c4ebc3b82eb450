/**
 * One-permutation hashing's bin minima alone (no densification), TypeScript
 * (binMinimaTs) vs WebAssembly (ophBins.wat), one thread, on the sample's
 * shingle batch; then whole OPH signing (bins + densification) with each.
 * The two kernels' outputs are compared word for word before timing.
 *
 *   npm run build && node dist/bench/ophBins.bench.js
 */
import { cpus } from 'node:os';
import { u64 } from '../src/math/u64.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { shingleDocument } from '../src/shingles/shingles.js';
import { EMPTY_SLOT_WORD } from '../src/signatures/backend.js';
import { makeHashFamily } from '../src/signatures/hashFamily.js';
import { binMinimaTs, signBatchOph, type OphBinKernel } from '../src/signatures/oph.js';
import { loadWasmOphBins } from '../src/signatures/wasm/ophKernel.js';
import { loadSampleCorpus } from './corpus.js';

const CORPUS = 'data/sample.jsonl.gz';
const RUNS = 7;
const documents = loadSampleCorpus(CORPUS);
const batch = pack(documents.map((d) => shingleDocument(d.text)));
const shingles = batch.offsets[documents.length];
const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const kernels: [string, OphBinKernel][] = [
  ['TypeScript (binMinimaTs)', binMinimaTs],
  ['wasm scalar (ophBins.wat)', loadWasmOphBins()],
];

/** Median of RUNS after one warm-up, seconds. */
function median(work: () => unknown): number {
  work();
  const times = Array.from({ length: RUNS }, () => {
    const t0 = performance.now();
    work();
    return (performance.now() - t0) / 1000;
  }).sort((x, y) => x - y);
  return times[RUNS >> 1];
}

console.log(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
);
console.log(
  `Corpus \`${CORPUS}\`: ${documents.length} documents, ${fmt(shingles)} shingles; seed 42; median of ${RUNS} after a warm-up, one thread.`,
);
console.log();
console.log('| k | kernel | bin minima | shingles/s | bins + densification | shingles/s | vs TypeScript (bins) |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const k of [128, 1000]) {
  const family = makeHashFamily(k, u64(0, 42), 'oph');
  const out = new Uint32Array(documents.length * k * 2);
  const results = kernels.map(([, kernel]) => signBatchOph(family, batch, kernel));
  if (results[1].some((w, i) => w !== results[0][i]))
    throw new Error(`k = ${k}: the wasm kernel's signatures differ from TypeScript's`);
  let base = 0;
  for (const [name, kernel] of kernels) {
    const bins = median(() => kernel(family, batch, out.fill(EMPTY_SLOT_WORD)));
    const whole = median(() => signBatchOph(family, batch, kernel));
    base ||= bins;
    console.log(
      `| ${k} | ${name} | ${fmt(bins * 1000, 1)} ms | ${fmt(shingles / bins / 1e6, 1)} M | ${fmt(whole * 1000, 1)} ms | ${fmt(shingles / whole / 1e6, 1)} M | ${fmt(base / bins, 2)}× |`,
    );
  }
}
