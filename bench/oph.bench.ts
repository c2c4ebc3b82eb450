/**
 * One-permutation hashing against classic MinHash, and b-bit slots, in one run
 * on the same documents (issue 13):
 *
 *   npm run bench:oph                 (builds first; prints Markdown)
 *   npm run bench:oph -- --large 100  (adds ~100 MB of generated real text, whole process)
 *
 * - signing speed, kernel alone: signBatchOnCpu (one thread) and WebgpuSigner
 *   (lavapipe here) on the sample's shingle batch, classic vs OPH, k = 128;
 * - whole process: `gpudedup sign` per scheme and backend, wall time;
 * - quality: runDedup on the sample per scheme and slot width; recall at
 *   J ≥ t + 0.05 (same cluster) against brute-force exact Jaccard, false
 *   positives (verified pairs with J < t) after estimate verification;
 * - stored bytes per document of each slot width;
 * - estimate error at J = 0.8: RMSE over random set pairs of exact J = 0.8,
 *   --slot-bits 8 (Li and König's estimate) vs 64.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { toStoredRows } from '../src/bands/bBitSlots.js';
import { optimalParams, DEDUP_WEIGHTS } from '../src/bands/lshParams.js';
import { signatureAgreement, signatureMatrix, type SlotBits } from '../src/bands/signatureMatrix.js';
import { u64 } from '../src/math/u64.js';
import { runDedup, type DedupConfig } from '../src/pipeline/dedup/dedup.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { shingleDocument } from '../src/shingles/shingles.js';
import { signBatchOnCpu } from '../src/signatures/cpuSigner.js';
import { makeHashFamily, type SchemeName } from '../src/signatures/hashFamily.js';
import { makeParams } from '../src/signatures/params.js';
import { signBatchOph } from '../src/signatures/oph.js';
import { loadWasmOphBins } from '../src/signatures/wasm/ophKernel.js';
import { describeAdapter } from '../src/signatures/webgpu/adapter.js';
import { acquireNodeDevice } from '../src/signatures/webgpu/nodeDevice.js';
import { loadShaderSources } from '../src/signatures/webgpu/nodeShaders.js';
import { WebGpuSigner } from '../src/signatures/webgpu/webGpuSigner.js';
import { loadSampleCorpus, utf8Bytes, type BenchDocument } from './corpus.js';
import { denseSets, jaccard } from './bruteForceJaccard.js';

const CORPUS = 'data/sample.jsonl.gz';
const K = 128;
const THRESHOLD = 0.8;
type BenchScheme = 'classic' | 'oph';
const SCHEMES: BenchScheme[] = ['classic', 'oph'];
const largeMb =
  Number(process.argv[process.argv.indexOf('--large') + 1] || 0) * (process.argv.includes('--large') ? 1 : 0);

const out: string[] = [];
const print = (line = ''): void => {
  out.push(line);
  process.stderr.write(line + '\n');
};
const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Best wall time of `runs` calls, in seconds. */
async function best(runs: number, work: () => unknown): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await work();
    min = Math.min(min, (performance.now() - t0) / 1000);
  }
  return min;
}

const documents = loadSampleCorpus(CORPUS);
const bytes = utf8Bytes(documents);
const sets = documents.map((d) => shingleDocument(d.text));
const batch = pack(sets);
const shingles = batch.offsets[batch.offsets.length - 1];
const families = { classic: makeHashFamily(K, u64(0, 42)), oph: makeHashFamily(K, u64(0, 42), 'oph') };

print(
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
);
print(
  `Corpus \`${CORPUS}\`: ${documents.length} documents, ${fmt(bytes / 1e6, 2)} MB, ${fmt(shingles)} word 5-gram shingles; k = ${K}, seed 42.`,
);
print();

async function kernelSpeeds(): Promise<void> {
  print('### Signing speed, kernel alone (same shingle batch)');
  print();
  print('| backend | scheme | time | docs/s | shingles/s | hash evaluations/s | speed-up vs classic |');
  print('| --- | --- | --- | --- | --- | --- | --- |');
  const row = (backend: string, scheme: SchemeName, seconds: number, base: number): void => {
    const evaluations = scheme === 'oph' ? shingles : shingles * K;
    print(
      `| ${backend} | ${scheme} | ${fmt(seconds, 3)} s | ${fmt(documents.length / seconds)} | ${fmt(shingles / seconds / 1e6, 2)} M | ${fmt(evaluations / seconds / 1e6, 1)} M | ${fmt(base / seconds, 1)}× |`,
    );
  };
  const cpuClassic = await best(1, () => signBatchOnCpu(families.classic, batch));
  const cpuOph = await best(5, () => signBatchOnCpu(families.oph, batch));
  row('CPU, TypeScript, 1 thread', 'classic', cpuClassic, cpuClassic);
  row('CPU, TypeScript, 1 thread', 'oph', cpuOph, cpuClassic);
  const wasmBins = loadWasmOphBins();
  row(
    'CPU, wasm OPH bins (ophBins.wat), 1 thread',
    'oph',
    await best(5, () => signBatchOph(families.oph, batch, wasmBins)),
    cpuClassic,
  );
  const gpu = await acquireNodeDevice({ label: 'gpudedup bench oph' }).catch((error: Error) => {
    print(`| WebGPU | — | no adapter: ${error.message} | | | | |`);
    return undefined;
  });
  if (!gpu) return;
  try {
    const sources = loadShaderSources();
    const times: Record<BenchScheme, number> = { classic: 0, oph: 0 };
    for (const scheme of SCHEMES) {
      const signer = await WebGpuSigner.create(gpu.device, families[scheme], sources, { release: () => {} });
      try {
        await signer.sign(batch); // warm-up: pipeline compile, buffer growth
        times[scheme] = await best(3, () => signer.sign(batch));
      } finally {
        signer.destroy();
      }
    }
    const name = `WebGPU, ${/llvmpipe/.test(describeAdapter(gpu.adapter)) ? 'lavapipe (llvmpipe)' : describeAdapter(gpu.adapter).split(',')[0]}`;
    row(name, 'classic', times.classic, times.classic);
    row(name, 'oph', times.oph, times.classic);
  } finally {
    gpu.release();
  }
  print();
}

/** `gpudedup sign` as a user runs it; wall seconds. */
function signCli(input: string, npy: string, scheme: SchemeName, backend: string, extra: string[] = []): number {
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [
      'dist/src/cli/main.js',
      'sign',
      input,
      '-o',
      npy,
      '-k',
      String(K),
      '--scheme',
      scheme,
      '--backend',
      backend,
      '-q',
      ...extra,
    ],
    {
      stdio: 'ignore',
      env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp/gpudedup-xdg' },
    },
  );
  return (performance.now() - t0) / 1000;
}

function wholeProcess(dir: string, input: string, label: string, docs: number, mb: number, backends: string[]): void {
  print(`### Whole process: \`gpudedup sign\` on ${label} (${fmt(docs)} documents, ${fmt(mb, 1)} MB)`);
  print();
  print('| backend | classic | oph | speed-up | oph MB/s |');
  print('| --- | --- | --- | --- | --- |');
  for (const backend of backends) {
    const classic = signCli(input, join(dir, `${label}-c.npy`), 'classic', backend);
    const oph = signCli(input, join(dir, `${label}-o.npy`), 'oph', backend);
    print(`| ${backend} | ${fmt(classic, 2)} s | ${fmt(oph, 2)} s | ${fmt(classic / oph, 1)}× | ${fmt(mb / oph, 1)} |`);
  }
  print();
}

async function quality(): Promise<void> {
  const dense = denseSets(sets);
  const n = documents.length;
  const truth = new Float32Array(n * n);
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) truth[a * n + b] = jaccard(dense[a], dense[b]);
  const lsh = optimalParams(THRESHOLD, K, DEDUP_WEIGHTS);
  print(
    `### Dedup quality on the sample (t = ${THRESHOLD}, ${lsh.bands} × ${lsh.rows}, verify estimate, signed in memory on the CPU)`,
  );
  print();
  print(
    '| scheme | slot bits | recall, J ≥ t + 0.05 (same cluster) | verified pairs | false positives (J < t) | removed |',
  );
  print('| --- | --- | --- | --- | --- | --- |');
  for (const scheme of SCHEMES) {
    for (const slotBits of [64, 8] as SlotBits[]) {
      const config: DedupConfig = {
        inputs: [CORPUS],
        read: { textField: 'text', idField: 'id', skipInvalid: false },
        params: makeParams({
          k: K,
          scheme,
          slotBits,
          bandKeys: slotBits < 32 ? { bands: lsh.bands, rows: lsh.rows } : undefined,
        }),
        backend: 'cpu',
        threshold: THRESHOLD,
        lsh: { bands: lsh.bands, rows: lsh.rows },
        verify: 'estimate',
        clusterCheck: 'none',
        keep: { kind: 'first' },
        against: [],
      };
      const outcome = await runDedup(config);
      const { table, assignment, verified } = outcome;
      const firstDoc = new Int32Array(outcome.signatures.count).fill(-1);
      for (let d = 0; d < n; d++) if (table.group(d) >= 0 && firstDoc[table.group(d)] < 0) firstDoc[table.group(d)] = d;
      let falsePositives = 0;
      for (let i = 0; i < verified.a.length; i++) {
        const [a, b] = [firstDoc[verified.a[i]], firstDoc[verified.b[i]]].sort((x, y) => x - y);
        if (truth[a * n + b] < THRESHOLD) falsePositives++;
      }
      let pairs = 0;
      let found = 0;
      for (let a = 0; a < n; a++) {
        for (let b = a + 1; b < n; b++) {
          if (truth[a * n + b] < THRESHOLD + 0.05) continue;
          pairs++;
          if (assignment.cluster[a] === assignment.cluster[b]) found++;
        }
      }
      const removed = assignment.kept.reduce((s, kept) => s + (kept === 1 ? 0 : 1), 0);
      print(
        `| ${scheme} | ${slotBits} | ${fmt((100 * found) / pairs, 1)} % of ${pairs} | ${verified.a.length} | ${falsePositives} (${fmt((100 * falsePositives) / Math.max(1, verified.a.length), 1)} %) | ${removed} |`,
      );
    }
  }
  print();
}

function storedBytes(dir: string): void {
  const lsh = optimalParams(THRESHOLD, K, DEDUP_WEIGHTS);
  print(
    `### Stored bytes per document (k = ${K}, band keys for ${lsh.bands} × ${lsh.rows} with b < 32; measured \`.npy\` data bytes)`,
  );
  print();
  print('| --slot-bits | bytes/document | smaller than 64-bit by |');
  print('| --- | --- | --- |');
  const sample = join(dir, 'bytes.jsonl');
  writeFileSync(
    sample,
    documents
      .slice(0, 50)
      .map((d) => JSON.stringify(d))
      .join('\n') + '\n',
  );
  for (const bits of [64, 32, 16, 8, 4, 2, 1]) {
    const npy = join(dir, `bytes-${bits}.npy`);
    signCli(sample, npy, 'oph', 'cpu', ['--slot-bits', String(bits)]);
    const perDoc = (statSync(npy).size - 128) / 50; // 128-byte .npy header
    print(
      `| ${bits} | ${fmt(perDoc)} (slots ${fmt((K * bits) / 8)}) | ${fmt(1024 / perDoc, 1)}× (slots alone ${fmt(64 / bits, 1)}×) |`,
    );
  }
  print();
}

function estimateError(): void {
  // Pairs of random sets with exact Jaccard 0.8: 400 elements each, 356 shared (356 / 444 = 0.8018).
  const trials = 300;
  const size = 400;
  const common = 356;
  const j = common / (2 * size - common);
  let state = 12345;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const layout = { bands: 1, rows: 1 };
  print(`### Estimate error at J = ${fmt(j, 4)} (${trials} random set pairs, k = ${K}), --slot-bits 8 vs 64`);
  print();
  print('| scheme | RMSE, 64-bit | RMSE, 8-bit (Li–König) | ratio | mean estimate, 8-bit | target ratio ≤ 1.5 |');
  print('| --- | --- | --- | --- | --- | --- |');
  for (const scheme of SCHEMES) {
    const se = { 64: 0, 8: 0 };
    let mean8 = 0;
    for (let t = 0; t < trials; t++) {
      const shared = Array.from({ length: common }, () => [next(), next() & 0x1fffffff]);
      const own = (): number[][] => Array.from({ length: size - common }, () => [next(), next() & 0x1fffffff]);
      const toSet = (list: number[][]): Uint32Array => Uint32Array.from(list.flat());
      const pair = pack([toSet([...shared, ...own()]), toSet([...shared, ...own()])]);
      const pairs = signBatchOnCpu(makeHashFamily(K, u64(0, 1000 + t), scheme), pair);
      for (const bits of [64, 8] as const) {
        const m = signatureMatrix(toStoredRows(pairs, K, bits, layout), K, bits, bits === 8 ? layout : undefined);
        const estimate = signatureAgreement(m, 0, 1);
        se[bits] += (estimate - j) ** 2 / trials;
        if (bits === 8) mean8 += estimate / trials;
      }
    }
    const [r64, r8] = [Math.sqrt(se[64]), Math.sqrt(se[8])];
    print(
      `| ${scheme} | ${fmt(r64, 4)} | ${fmt(r8, 4)} | ${fmt(r8 / r64, 2)} | ${fmt(mean8, 4)} | ${r8 / r64 <= 1.5 ? 'met' : 'missed'} |`,
    );
  }
  print(`Theory (classic, independent slots): √(J(1−J)/k) = ${fmt(Math.sqrt((j * (1 - j)) / K), 4)} for 64 bits.`);
  print();
}

/** ~`mb` MB of real text: the sample's documents again and again, each copy with ~3 % of its words replaced. */
function generateLarge(dir: string, mb: number): { path: string; docs: number; mb: number } {
  const words = documents.flatMap((d) => d.text.split(/\s+/).slice(0, 50));
  let seed = 7;
  const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const lines: string[] = [];
  let total = 0;
  for (let copy = 0; total < mb * 1e6; copy++) {
    for (const doc of documents as BenchDocument[]) {
      const text = doc.text
        .split(' ')
        .map((w) => (next() % 100 < 3 ? words[next() % words.length] : w))
        .join(' ');
      lines.push(JSON.stringify({ id: `${doc.id}#${copy}`, text }));
      total += Buffer.byteLength(text);
    }
  }
  const path = join(dir, 'large.jsonl.gz');
  writeFileSync(path, gzipSync(lines.join('\n') + '\n', { level: 1 }));
  return { path, docs: lines.length, mb: total / 1e6 };
}

const dir = mkdtempSync(join(tmpdir(), 'gpudedup-oph-'));
await kernelSpeeds();
wholeProcess(dir, CORPUS, 'the sample', documents.length, bytes / 1e6, ['cpu', 'webgpu']);
if (largeMb > 0) {
  const large = generateLarge(dir, largeMb);
  wholeProcess(
    dir,
    large.path,
    'generated real text',
    large.docs,
    large.mb,
    (process.env.LARGE_BACKENDS ?? 'webgpu,cpu').split(','),
  );
}
await quality();
storedBytes(dir);
estimateError();
process.stdout.write(out.join('\n') + '\n');
