/**
 * CPU against WebGPU signing on the same documents, in one run: the bundled
 * corpus, shingled once, signed by each backend (tinybench), then
 * - the WebGPU time split into upload, kernel, readback and host combining
 *   (a profiling signer that drains the queue between the phases);
 * - shingling + signing through the batch pipeline, where the CPU shingles
 *   batch i + 1 while the GPU signs batch i;
 * - the device's own 32-bit integer throughput (shaders/int_throughput.wgsl),
 *   to set the kernel's integer operations per second against.
 *   npm run bench:gpu                 (k = 128)
 *   npm run bench:gpu -- --k 256
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { u64 } from '../src/math/u64.js';
import { DEFAULT_SHINGLE, shingleDocument } from '../src/shingles/shingles.js';
import type { InputDocument } from '../src/io/documents.js';
import { signBatchOnCpu } from '../src/signatures/cpuSigner.js';
import { ParallelCpuSigner } from '../src/signatures/cpuParallel.js';
import { makeHashFamily } from '../src/signatures/hashFamily.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { signDocuments } from '../src/firstPass/signDocuments.js';
import type { SignerBackend } from '../src/signatures/backend.js';
import { describeAdapter } from '../src/signatures/webgpu/adapter.js';
import { acquireNodeDevice } from '../src/signatures/webgpu/nodeDevice.js';
import { findShaderDirectory, loadShaderSources } from '../src/signatures/webgpu/nodeShaders.js';
import { WebGpuSigner, type SignerStats } from '../src/signatures/webgpu/webGpuSigner.js';
import { loadSampleCorpus, utf8Bytes } from './corpus.js';
import { meanSeconds } from './tinybench.js';

/**
 * WGSL integer operations per hash evaluation of shaders/minhash.wgsl, counted
 * in bench/RESULTS.md (WebGPU section): the multiply-mod with a's limbs
 * hoisted out of the loop, the running minimum, and the loop with its load.
 */
const OPS_PER_EVALUATION = 142;

const kArg = process.argv.indexOf('--k');
const K = kArg >= 0 ? Number(process.argv[kArg + 1]) : 128;
const ITERATIONS = 3;
/** Pipeline batches small enough that the corpus makes several, so shingling can overlap signing. */
const PIPELINE_BATCH_DOCUMENTS = 64;

const documents = loadSampleCorpus();
const bytes = utf8Bytes(documents);
const family = makeHashFamily(K, u64(0, 42));
const batch = pack(documents.map((d) => shingleDocument(d.text)));
const shingles = batch.offsets[batch.offsets.length - 1];
const evaluations = shingles * K;

const gpu = await acquireNodeDevice({ label: 'gpudedup bench' }).catch((error: Error) => {
  console.error(`bench:gpu needs a WebGPU adapter: ${error.message}`);
  process.exit(1);
});
const adapter = describeAdapter(gpu.adapter);
const sources = loadShaderSources();
const signer = await WebGpuSigner.create(gpu.device, family, sources, { description: adapter, release: () => {} });
const profiler = await WebGpuSigner.create(gpu.device, family, sources, { profile: true, release: () => {} });
const threads = availableParallelism();
const parallel = new ParallelCpuSigner(family, threads);

const inputs: InputDocument[] = documents.map((d, index) => ({
  index,
  id: d.id,
  text: d.text,
  source: { path: 'bench', line: index + 1 },
}));
async function* streamed(): AsyncGenerator<InputDocument> {
  yield* inputs;
}
/** Shingling + signing through the pipeline; returns the CPU's shingling milliseconds. */
async function pipeline(backend: SignerBackend): Promise<number> {
  const timings = { shingleMs: 0, signMs: 0 };
  const options = { shingle: DEFAULT_SHINGLE, batchDocuments: PIPELINE_BATCH_DOCUMENTS };
  for await (const signed of signDocuments(streamed(), backend, options, timings)) void signed;
  return timings.shingleMs;
}

const SHINGLE = 'shingle on the CPU (word 5-grams)';
const CPU_1 = `sign, CPU, 1 thread`;
const CPU_N = `sign, CPU, ${threads} worker threads`;
const GPU = `sign, WebGPU`;
const PIPE_CPU = `shingle + sign, CPU 1 thread, pipeline`;
const PIPE_GPU = `shingle + sign, WebGPU, pipeline (overlapped)`;
const bench = new Bench({ iterations: ITERATIONS, warmupIterations: 1, time: 0 });
bench
  .add(SHINGLE, () => {
    for (const d of documents) shingleDocument(d.text);
  })
  .add(CPU_1, () => void signBatchOnCpu(family, batch))
  .add(CPU_N, async () => void (await parallel.sign(batch)))
  .add(GPU, async () => void (await signer.sign(batch)))
  .add(
    PIPE_CPU,
    async () =>
      void (await pipeline({
        kind: 'cpu',
        description: 'cpu',
        k: K,
        sign: async (b) => signBatchOnCpu(family, b),
        destroy() {},
      })),
  )
  .add(PIPE_GPU, async () => void (await pipeline(signer)));
await bench.run();

// The phase split: one warm-up, then ITERATIONS profiled runs, averaged.
await profiler.sign(batch);
const before: SignerStats = { ...profiler.stats };
for (let i = 0; i < ITERATIONS; i++) await profiler.sign(batch);
const phase = (key: 'uploadMs' | 'kernelMs' | 'readbackMs' | 'combineMs'): number =>
  (profiler.stats[key] - before[key]) / ITERATIONS / 1000;

const intOpsPerSecond = await integerThroughput(gpu.device);

signer.destroy();
profiler.destroy();
parallel.destroy();
gpu.release();

const seconds = (name: string): number => meanSeconds(bench, name);
const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const rates = (s: number): string =>
  `${fmt(s, 3)} s | ${fmt(documents.length / s)} | ${fmt(shingles / s / 1e6, 2)} M | ${fmt(evaluations / s / 1e6, 1)} M`;

console.log(`machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, Node ${process.version}`);
console.log(`adapter: ${adapter}`);
console.log(
  `corpus: ${documents.length} documents, ${fmt(bytes / 1e6, 2)} MB, ${fmt(shingles)} shingles, k = ${K} → ${fmt(evaluations / 1e6, 1)} M hash evaluations`,
);
console.log(
  `tinybench: ${ITERATIONS} iterations after 1 warm-up; pipeline batches of ${PIPELINE_BATCH_DOCUMENTS} documents\n`,
);
console.log('| task | time | docs/s | shingles/s | hash evaluations/s |');
console.log('| --- | --- | --- | --- | --- |');
for (const name of [SHINGLE, CPU_1, CPU_N, GPU, PIPE_CPU, PIPE_GPU]) {
  console.log(
    name === SHINGLE
      ? `| ${name} | ${fmt(seconds(name), 3)} s | ${fmt(documents.length / seconds(name))} | ${fmt(shingles / seconds(name) / 1e6, 2)} M | |`
      : `| ${name} | ${rates(seconds(name))} |`,
  );
}

const split = {
  shingle: seconds(SHINGLE),
  upload: phase('uploadMs'),
  kernel: phase('kernelMs'),
  readback: phase('readbackMs'),
  combine: phase('combineMs'),
};
const total = Object.values(split).reduce((a, b) => a + b, 0);
console.log(`\nWebGPU time split, phases run one after another (profiling signer, mean of ${ITERATIONS}):`);
for (const [name, s] of Object.entries(split))
  console.log(`  ${name.padEnd(9)} ${fmt(s * 1000, 1).padStart(9)} ms  ${fmt((100 * s) / total, 1).padStart(5)} %`);
const kernelRate = evaluations / split.kernel;
console.log(
  `  kernel alone: ${fmt(kernelRate / 1e6, 1)} M hash evaluations/s × ${OPS_PER_EVALUATION} integer ops = ${fmt((kernelRate * OPS_PER_EVALUATION) / 1e9, 1)} G ops/s`,
);
console.log(
  `device integer throughput (int_throughput.wgsl): ${fmt(intOpsPerSecond / 1e9, 1)} G ops/s → kernel at ${fmt((100 * kernelRate * OPS_PER_EVALUATION) / intOpsPerSecond, 0)} % of it; ceiling ${fmt(intOpsPerSecond / OPS_PER_EVALUATION / 1e6, 0)} M evaluations/s`,
);

/** 32-bit integer operations per second of shaders/int_throughput.wgsl: best of a few timed dispatches. */
async function integerThroughput(device: GPUDevice): Promise<number> {
  const CHAINS = 8; // as in the shader
  const STEPS = 1024;
  const OPS_PER_STEP = 7; // multiply, two shifts, xor, and, two adds
  const invocations = 64 * 2048;
  const code = readFileSync(join(findShaderDirectory(), 'int_throughput.wgsl'), 'utf8');
  const module = device.createShaderModule({ label: 'bench int_throughput.wgsl', code });
  const pipeline = await device.createComputePipelineAsync({
    label: 'bench int throughput',
    layout: 'auto',
    compute: { module, entryPoint: 'spin', constants: { WORKGROUP_SIZE: 64, STEPS } },
  });
  const sink = device.createBuffer({
    label: 'bench int throughput sink',
    size: 4 * invocations,
    usage: GPUBufferUsage.STORAGE,
  });
  const bindGroup = device.createBindGroup({
    label: 'bench int throughput bindings',
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: sink } }],
  });
  let best = Infinity;
  for (let run = 0; run < 4; run++) {
    const started = performance.now();
    const encoder = device.createCommandEncoder({ label: 'bench int throughput' });
    const pass = encoder.beginComputePass({ label: 'bench int throughput' });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(invocations / 64);
    pass.end();
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    if (run > 0) best = Math.min(best, (performance.now() - started) / 1000);
  }
  sink.destroy();
  return (invocations * CHAINS * STEPS * OPS_PER_STEP) / best;
}
