/**
 * Every signing kernel side by side on the same documents, in one run, per stage:
 * read + parse, shingle (TypeScript vs wasm, 1 thread and all threads), sign
 * (native C reference, wasm SIMD, wasm scalar, TypeScript, wasm SIMD on all threads,
 * WebGPU when an adapter is there). Every result is checked equal to wasm SIMD's.
 *   npm run bench:kernels                    (the bundled sample, k = 128)
 *   npm run bench:kernels -- CORPUS... [--k 256]
 * The native reference (bench/native/minhash.c) is compiled with gcc -O2 -march=native when gcc
 * is there, and skipped with a message otherwise. TypeScript signing runs on a prefix of the
 * documents (its rate is per evaluation, so the prefix is enough). Read and shingle rows: best of 3;
 * sign rows: gpudedup bench's (src/pipeline/bench/bench.ts), median of 3 after a warm-up.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { listInputFiles, readDocuments } from '../src/io/readDocuments.js';
import { u64 } from '../src/math/u64.js';
import { pack, type ShingleBatch } from '../src/shingles/shingleBatch.js';
import { shingleDocument, shingleDocumentReference } from '../src/shingles/shingles.js';
import { wasmWindowHashes } from '../src/shingles/wasm/shingleKernel.js';
import { normalizeText } from '../src/text/normalize.js';
import { makeHashFamily } from '../src/signatures/hashFamily.js';
import { benchSigning, checkEqual } from '../src/pipeline/bench/bench.js';

const args = process.argv.slice(2);
const kAt = args.indexOf('--k');
const K = kAt >= 0 ? Number(args[kAt + 1]) : 128;
const inputs = args.filter((a, i) => !a.startsWith('--') && (kAt < 0 || i !== kAt + 1));
const threads = availableParallelism();
const REPS = 3;
/** Evaluations the TypeScript signer is given (≈ 3 s at its rate). */
const TS_EVALUATIONS = 1e8;

interface Row {
  stage: string;
  name: string;
  seconds: number;
  docs: number;
  bytes: number;
  shingles: number;
  evaluations: number;
}
const rows: Row[] = [];
const best = async (f: () => unknown): Promise<number> => {
  let b = Infinity;
  for (let r = 0; r < REPS; r++) {
    const t = performance.now();
    await f();
    b = Math.min(b, (performance.now() - t) / 1000);
  }
  return b;
};

// Read + parse.
const t0 = performance.now();
const files = await listInputFiles(inputs.length > 0 ? inputs : ['data/sample.jsonl.gz']);
const texts: string[] = [];
for await (const doc of readDocuments(files)) texts.push(doc.text);
const readSeconds = (performance.now() - t0) / 1000;
const bytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
const docs = texts.length;

// Shingle.
const sets = texts.map((t) => shingleDocument(t));
const batch = pack(sets);
const distinct = batch.offsets[docs];
let windows = 0;
for (const t of texts) windows += wasmWindowHashes(normalizeText(t), 'word', 5)!.hashes.length / 2;
rows.push({
  stage: 'read + parse',
  name: 'readDocuments',
  seconds: readSeconds,
  docs,
  bytes,
  shingles: 0,
  evaluations: 0,
});
const shingleRow = (name: string, seconds: number) =>
  rows.push({ stage: 'shingle', name, seconds, docs, bytes, shingles: windows, evaluations: 0 });
shingleRow('TypeScript, 1 thread', await best(() => texts.forEach((t) => shingleDocumentReference(t))));
shingleRow('wasm, 1 thread', await best(() => texts.forEach((t) => shingleDocument(t))));
shingleRow(
  'wasm without the per-document dedup',
  await best(() => texts.forEach((t) => wasmWindowHashes(normalizeText(t), 'word', 5))),
);

// Sign.
const family = makeHashFamily(K, u64(0, 42));
const evaluations = distinct * K;
const signRow = (name: string, seconds: number) =>
  rows.push({ stage: 'sign', name, seconds, docs, bytes, shingles: distinct, evaluations });
// The signing rows are gpudedup bench's (src/pipeline/bench/bench.ts): median of REPS timed runs after a warm-up,
// every result equal to wasm SIMD's; the native reference is checked against the same signatures.
const signing = await benchSigning(
  batch,
  family,
  { documents: docs, bytes, shingles: distinct, evaluations },
  { runs: REPS, cpuThreads: threads, typescriptEvaluations: TS_EVALUATIONS },
  {
    note: (m) => m.includes('skipped') && console.log(m),
    stage: () => ({ update: () => undefined, stop: () => undefined }),
  },
);
const check = (name: string, got: Uint32Array) => checkEqual(name, got, signing.reference);
const native = nativeSeconds(batch);
if (native !== undefined) signRow('native C (gcc -O2 -march=native, u128), 1 thread', native);
for (const r of signing.rows) signRow(r.backend, r.seconds.median);

// Report.
const nativeRate = rows.find((r) => r.name.startsWith('native'))?.evaluations;
const nativeSec = native;
console.log(
  `${docs} documents, ${(bytes / 1e6).toFixed(1)} MB, ${windows} shingles (${distinct} distinct within their document), k = ${K}`,
);
console.log(`${cpus()[0]?.model ?? 'unknown CPU'}, ${threads} threads, Node ${process.version}\n`);
console.log('| stage | kernel | seconds | docs/s | MB/s | shingles/s | evaluations/s | time vs native |');
console.log('| --- | --- | --: | --: | --: | --: | --: | --: |');
const f = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0);
for (const r of rows) {
  const vs = r.stage === 'sign' && nativeRate && nativeSec ? `${(r.seconds / nativeSec).toFixed(2)}×` : '';
  console.log(
    `| ${r.stage} | ${r.name} | ${r.seconds.toFixed(3)} | ${f(r.docs / r.seconds)} | ${(r.bytes / 1e6 / r.seconds).toFixed(1)} | ${r.shingles ? f(r.shingles / r.seconds) : ''} | ${r.evaluations ? f(r.evaluations / r.seconds) : ''} | ${vs} |`,
  );
}

function nativeSeconds(b: ShingleBatch): number | undefined {
  if (spawnSync('gcc', ['--version']).status !== 0) {
    console.log('native reference skipped: no gcc on this machine');
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-native-'));
  try {
    const exe = join(dir, 'minhash');
    execFileSync('gcc', ['-O2', '-march=native', '-o', exe, 'bench/native/minhash.c']);
    const n = b.offsets.length - 1;
    const head = Uint32Array.of(K, n);
    const input = Buffer.concat(
      [head, family.a, family.b, b.offsets, b.shingles].map((x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength)),
    );
    writeFileSync(join(dir, 'in.bin'), input);
    const seconds = Number(execFileSync(exe, [join(dir, 'in.bin'), join(dir, 'out.bin'), String(REPS)]).toString());
    const out = readFileSync(join(dir, 'out.bin'));
    check('native C', new Uint32Array(out.buffer, out.byteOffset, out.byteLength / 4));
    return seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
