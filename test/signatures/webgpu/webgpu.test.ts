// The WebGPU backend on a real adapter (lavapipe on a machine without a GPU):
// the WGSL multiply-mod against BigInt, signatures against the CPU backend,
// batching past the device's limits, and failures turning into rejections.
// All in one file so that vitest's two workers never run two Dawn devices at
// once on two cores. Without an adapter these skip (fail under CI), see gpu.ts.
import { describe, expect, it } from 'vitest';
import { CpuSigner, signBatchOnCpu } from '../../../src/signatures/cpuSigner.js';
import { FallbackSigner } from '../../../src/signatures/fallbackSigner.js';
import { makeHashFamily } from '../../../src/signatures/hashFamily.js';
import { resolveBackend } from '../../../src/firstPass/node/resolveBackend.js';
import { runDoctor } from '../../../src/cli/doctor.js';
import type { ShingleBatch } from '../../../src/signatures/backend.js';
import { resolveBrowserBackend } from '../../../src/signatures/webgpu/browser.js';
import { DeviceWatch, GpuFailure } from '../../../src/signatures/webgpu/deviceWatch.js';
import { runMulAddModP } from '../../../src/signatures/webgpu/mulmodKernel.js';
import { loadShaderSources } from '../../../src/signatures/webgpu/nodeShaders.js';
import { workgroupGrid } from '../../../src/signatures/webgpu/plan.js';
import { WebGpuSigner, type WebGpuSignerOptions } from '../../../src/signatures/webgpu/webGpuSigner.js';
import { SimhashGpuSigner } from '../../../src/signatures/webgpu/simhashSigner.js';
import { signBatchSimhash } from '../../../src/signatures/simhash.js';
import { describeWithGpu, noGpu, tryAcquireTestDevice } from '../../support/gpu.js';
import { ophSignatureRef, P, pairsToBigInts } from '../../support/reference.js';
import {
  corpusBatch,
  idfCorpusBatch,
  lowWords,
  mulAddCases,
  packOperands,
  randomBatch,
  randomSizes,
  weightedCorpusBatch,
} from './cases.js';

const SEED = { hi: 0x01234567, lo: 0x89abcdef };
const sources = loadShaderSources();

describeWithGpu('WebGPU backend', (gpu) => {
  /** Signs on the GPU and on the CPU; both slot widths must agree. */
  async function expectParity(
    batch: ShingleBatch,
    k: number,
    options: WebGpuSignerOptions = {},
  ): Promise<WebGpuSigner> {
    const family = makeHashFamily(k, SEED);
    const signer = await WebGpuSigner.create(gpu().device, family, sources, { ...options, release: () => {} });
    try {
      const got = await signer.sign(batch);
      const expected = signBatchOnCpu(family, batch);
      expectSameWords(got, expected, `k=${k}, 64-bit slots`);
      expectSameWords(lowWords(got), lowWords(expected), `k=${k}, 32-bit slots`);
      return signer;
    } finally {
      signer.destroy();
    }
  }

  describe('WGSL multiply-mod (shaders/mulmod_test.wgsl)', () => {
    it('equals BigInt on every edge pair and on 100 000 random operands', async () => {
      const cases = mulAddCases(100_000, 7);
      const results = await runMulAddModP(gpu().device, sources, packOperands(cases));
      const wrong: string[] = [];
      cases.forEach(({ a, x, b }, i) => {
        const got = (BigInt(results[2 * i + 1]) << 32n) | BigInt(results[2 * i]);
        const want = (((a * x) % P) + b) % P;
        if (got !== want && wrong.length < 5) wrong.push(`a=${a} x=${x} b=${b}: got ${got}, want ${want}`);
      });
      expect(wrong).toEqual([]);
    });
  });

  describe('signatures equal the CPU backend', () => {
    // 0 and 1 shingle, a workgroup's size (64) and one either side, then random sizes.
    const sizes = [0, 1, 63, 64, 65, 0, 1, 2, 127, 128, 129, ...randomSizes(60, 700, 3)];

    for (const k of [1, 7, 128, 256]) {
      it(`on random documents, k = ${k}`, async () => {
        await expectParity(randomBatch(sizes, 100 + k), k);
      });
    }

    it('when one document spans several batches and segments', async () => {
      const batch = randomBatch([3, 4321, 0, 64, 1500, 1], 9);
      for (const k of [7, 128]) {
        const signer = await expectParity(batch, k, { maxChunkShingles: 1000, segmentCap: 100 });
        expect(signer.stats.chunks).toBe(6); // 5889 shingles in chunks of at most 1000
      }
    });

    it('over many chunks cycling through both buffer slots, growing them', async () => {
      const batch = randomBatch(randomSizes(300, 300, 4), 10);
      const signer = await expectParity(batch, 7, { maxChunkShingles: 2000, segmentCap: 64 });
      expect(signer.stats.chunks).toBeGreaterThan(4);
    });

    it('when a dispatch needs more than 65 535 workgroups (2D fold)', async () => {
      // One invocation per workgroup reaches the fold with 70 000 (segment, slot) pairs.
      const documents = 10_000;
      const k = 7;
      const limit = gpu().device.limits.maxComputeWorkgroupsPerDimension;
      expect(workgroupGrid(documents * k, 1, limit).y).toBeGreaterThan(1);
      const sizes = Array.from({ length: documents }, (_, d) => 1 + (d % 3));
      await expectParity(randomBatch(sizes, 12), k, { workgroupSize: 1 });
    });

    it('for empty batches and batches of empty documents', async () => {
      await expectParity({ shingles: new Uint32Array(0), offsets: Uint32Array.of(0) }, 7);
      await expectParity({ shingles: new Uint32Array(0), offsets: new Uint32Array(5) }, 7);
    });

    it('for concurrent sign() calls, each getting its own result', async () => {
      const family = makeHashFamily(7, SEED);
      const signer = await WebGpuSigner.create(gpu().device, family, sources, {
        release: () => {},
        maxChunkShingles: 500,
      });
      try {
        const batches = [1, 2, 3, 4].map((i) => randomBatch(randomSizes(20, 200, i), 50 + i));
        const results = await Promise.all(batches.map((batch) => signer.sign(batch)));
        results.forEach((result, i) => expect(result).toEqual(signBatchOnCpu(family, batches[i])));
      } finally {
        signer.destroy();
      }
    });

    // The CPU signs 12.7M hash evaluations/s here: the full corpus (736k
    // shingles) for k = 1 and 7, every fourth document for k = 128 and 256,
    // keeps this under ten seconds.
    const corpus = corpusBatch();
    const everyFourth = subset(corpus.batch, (d) => d % 4 === 0);
    for (const k of [1, 7, 128, 256]) {
      it(`on the bundled corpus (data/sample.jsonl.gz), k = ${k}`, async () => {
        await expectParity(k <= 7 ? corpus.batch : everyFourth, k);
      });
    }
  });

  describe('OPH signatures (shaders/oph.wgsl) equal the BigInt reference and the CPU', () => {
    async function signOph(
      batch: ShingleBatch,
      k: number,
      options: WebGpuSignerOptions = {},
    ): Promise<{ got: Uint32Array; signer: WebGpuSigner }> {
      const family = makeHashFamily(k, SEED, 'oph');
      const signer = await WebGpuSigner.create(gpu().device, family, sources, { ...options, release: () => {} });
      try {
        const got = await signer.sign(batch);
        expectSameWords(got, signBatchOnCpu(family, batch), `OPH k=${k}`);
        return { got, signer };
      } finally {
        signer.destroy();
      }
    }
    const seed = (BigInt(SEED.hi) << 32n) | BigInt(SEED.lo);

    it('on empty, one-shingle, fewer-shingles-than-bins and random documents, against BigInt, densified on the GPU', async () => {
      const sizes = [0, 1, 2, 3, 0, 7, 60, 127, 128, 129, 400, ...randomSizes(30, 900, 8)];
      for (const k of [1, 7, 128, 256]) {
        const batch = randomBatch(sizes, 300 + k);
        // One segment per document: the kernel densifies every row, the host none.
        const { got, signer } = await signOph(batch, k, { segmentCap: 1 << 20 });
        expect(signer.stats.hostDensified).toBe(0);
        const all = pairsToBigInts(batch.shingles);
        for (let d = 0; d < sizes.length; d++) {
          const want = ophSignatureRef(all.slice(batch.offsets[d], batch.offsets[d + 1]), k, seed);
          expect(pairsToBigInts(got.subarray(2 * k * d, 2 * k * (d + 1))), `k=${k} doc ${d}`).toEqual(want);
        }
      }
    });

    it('when documents span chunks and segments, and for empty batches', async () => {
      // k = 1024: the split documents (4321 and 1500 shingles) still have empty bins after their segments are combined.
      const { signer } = await signOph(randomBatch([3, 4321, 0, 64, 1500, 1, 20, 90], 9), 1024, {
        maxChunkShingles: 1000,
        segmentCap: 100,
      });
      expect(signer.stats.chunks).toBe(6);
      // Split documents are densified by the host; those of one segment (3, 64, 1, 20, 90 shingles) by the kernel.
      expect(signer.stats.hostDensified).toBe(2);
      await signOph({ shingles: new Uint32Array(0), offsets: new Uint32Array(5) }, 7);
    });

    it('on the bundled corpus (data/sample.jsonl.gz), k = 128 and 256', async () => {
      const { batch } = corpusBatch();
      await signOph(batch, 128);
      await signOph(batch, 256);
    });
  });

  describe('weighted sets (--weights counts and idf) sign as on the CPU', () => {
    // The elements (g, j) are made before signing (countWeights.ts, idfWeights.ts): classic and OPH shaders sign them
    // unchanged.
    const batches = { counts: weightedCorpusBatch(60), idf: idfCorpusBatch(60) };
    for (const scheme of ['classic', 'oph'] as const) {
      it(`${scheme}, k = 128, the bundled corpus's documents repeated (counts) and halved (idf)`, async () => {
        const family = makeHashFamily(128, SEED, scheme);
        const signer = await WebGpuSigner.create(gpu().device, family, sources, { release: () => {} });
        try {
          for (const [weights, batch] of Object.entries(batches))
            expectSameWords(await signer.sign(batch), signBatchOnCpu(family, batch), `${scheme}, ${weights}`);
        } finally {
          signer.destroy();
        }
      });
    }
  });

  describe('SimHash fingerprints (shaders/simhash.wgsl) equal the CPU', () => {
    const family = makeHashFamily(64, SEED, 'simhash');
    async function expectSimhash(batch: ShingleBatch, maxChunkElements?: number): Promise<void> {
      const signer = await SimhashGpuSigner.create(gpu().device, family, sources, {
        release: () => {},
        maxChunkElements,
      });
      try {
        expectSameWords(await signer.sign(batch), signBatchSimhash(family.a, batch), 'simhash');
      } finally {
        signer.destroy();
      }
    }
    it('on random documents with empty ones, in one dispatch and in chunks (one past a chunk: the CPU)', async () => {
      const batch = randomBatch([0, 1, 2, 63, 64, 65, 0, ...randomSizes(200, 900, 12), 3000, 1], 13);
      await expectSimhash(batch);
      await expectSimhash(batch, 1000);
    });
    it('on the bundled corpus, sets, count-weighted and idf-weighted elements', async () => {
      await expectSimhash(corpusBatch().batch);
      await expectSimhash(weightedCorpusBatch(60));
      await expectSimhash(idfCorpusBatch(60));
    });
  });

  describe('failures reject promptly, so the run can finish on the CPU', () => {
    it('an error inside an error scope fails the watch with its message', async () => {
      const watch = new DeviceWatch(gpu().device);
      try {
        const { errors } = watch.scoped('making a huge buffer', () =>
          gpu().device.createBuffer({ label: 'test: too large', size: 2 ** 52, usage: GPUBufferUsage.STORAGE }),
        );
        await expect(errors).rejects.toThrow(/making a huge buffer failed: GPU(Validation|OutOfMemory)Error/);
        expect(() => watch.throwIfFailed()).toThrow(GpuFailure);
      } finally {
        watch.dispose();
      }
    });

    it('device loss mid-run rejects sign() and every later call; FallbackSigner loses no document', async (context) => {
      const own = await tryAcquireTestDevice('test: device loss');
      if (!('gpu' in own)) return noGpu(own.missing, (note) => context.skip(note));
      const family = makeHashFamily(128, SEED);
      const signer = await WebGpuSigner.create(own.gpu.device, family, sources, {
        release: () => own.gpu.release(),
        maxChunkShingles: 5000,
      });
      const fallback = new FallbackSigner(signer, family);
      try {
        const batches = [30, 400, 30].map((documents, i) => randomBatch(randomSizes(documents, 1000, 20 + i), 30 + i));
        const first = await fallback.sign(batches[0]);
        const second = fallback.sign(batches[1]); // in flight when the device goes
        await new Promise((resolve) => setTimeout(resolve, 30));
        own.gpu.device.destroy();
        // Must reject, not hang: a hang fails this test by its timeout (a wall-clock bound would flake on a loaded machine).
        await expect(signer.sign(batches[2])).rejects.toThrow(/device lost/);
        const results = [first, await second, await fallback.sign(batches[2])];
        expect(fallback.kind).toBe('cpu');
        expect(fallback.fallbackReason?.message).toMatch(/WebGPU: device lost/);
        results.forEach((result, i) => expect(result).toEqual(signBatchOnCpu(family, batches[i])));
      } finally {
        fallback.destroy();
        signer.destroy(); // FallbackSigner destroyed the primary already; this is then a no-op
      }
    }, 30_000);

    it('an uncaptured error on the device fails the signer instead of trusting its results', async () => {
      const family = makeHashFamily(7, SEED);
      const signer = await WebGpuSigner.create(gpu().device, family, sources, { release: () => {} });
      try {
        gpu().device.createBuffer({ label: 'test: uncaptured', size: 2 ** 52, usage: GPUBufferUsage.STORAGE });
        await expect(signer.sign(randomBatch([5, 6], 1))).rejects.toThrow(/uncaptured/);
      } finally {
        signer.destroy();
      }
    });
  });
});

describe('backend resolution on a real adapter', () => {
  it('auto chooses a hardware adapter and names it (vendor, architecture, backend); passes a software one over for the wasm CPU path', async (context) => {
    const family = makeHashFamily(16, SEED);
    const resolved = await resolveBackend('auto', family);
    if (
      resolved.notes[0]?.startsWith('webgpu: passed over') ||
      resolved.notes[0]?.startsWith('webgpu: not started: no GPU device')
    ) {
      // lavapipe / SwiftShader: the CPU path is faster on the same cores, and the note says so. Without a GPU device
      // node (gpuDevices.ts) auto does not even start Dawn: only a software adapter could be there.
      resolved.backend.destroy();
      expect(resolved.notes[0]).toMatch(
        /^webgpu: passed over WebGPU on .*: software adapter on the same cores, slower than the wasm SIMD CPU path|^webgpu: not started: no GPU device/,
      );
      expect(resolved.notes[1]).toMatch(/^cpu: chosen, CPU \(wasm SIMD, \d+ threads?\)$/);
      const forced = await resolveBackend('webgpu', family);
      try {
        expect(forced.backend.kind).toBe('webgpu');
      } finally {
        forced.backend.destroy();
      }
      return;
    }
    if (resolved.backend.kind !== 'webgpu') {
      resolved.backend.destroy();
      return noGpu(resolved.notes.join('; '), (note) => context.skip(note));
    }
    try {
      expect(resolved.notes).toEqual([`webgpu: chosen, ${resolved.backend.description}`]);
      expect(resolved.backend.description).toMatch(/^WebGPU on \S+ \S+.*, backend \S+/);
      const batch = randomBatch([0, 1, 50], 2);
      expect(await resolved.backend.sign(batch)).toEqual(await new CpuSigner(family).sign(batch));
    } finally {
      resolved.backend.destroy();
    }
  });

  it('gpudedup doctor lists the adapter with its limits and passes its parity check', async (context) => {
    const report = await runDoctor(16);
    if (report.adapters.length === 0) return noGpu(report.auto, (note) => context.skip(note));
    expect(report.auto).toMatch(/^webgpu, WebGPU on |^cpu \(webgpu: passed over WebGPU on .*software adapter/);
    for (const adapter of report.adapters) {
      expect(adapter.error).toBeUndefined();
      expect(adapter.limits?.maxStorageBufferBindingSize).toBeGreaterThan(0);
      expect(adapter.check?.mulmodMismatches).toEqual([]);
      expect(adapter.check?.signatureMismatches).toEqual([]);
    }
    expect(report.ok).toBe(true);
  });

  it('the browser entry (navigator.gpu, WGSL through ?raw) signs the same, here on Dawn, and auto passes a software adapter over', async (context) => {
    const global = globalThis as { navigator?: unknown };
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    const { create } = await import('webgpu'); // Dawn's navigator.gpu stands in for a browser's
    Object.defineProperty(globalThis, 'navigator', { value: { gpu: create([]) }, configurable: true, writable: true });
    try {
      const family = makeHashFamily(7, SEED);
      // 'webgpu': the signing itself, on whatever adapter Dawn has (lavapipe here, which 'auto' passes over).
      let resolved;
      try {
        resolved = await resolveBrowserBackend('webgpu', family);
      } catch (error) {
        return noGpu((error as Error).message, (note) => context.skip(note));
      }
      const { backend } = resolved;
      const software = /software|swiftshader|llvmpipe|lavapipe/i.test(backend.description);
      try {
        expect(backend.description).toMatch(/backend not exposed by the browser/);
        const batch = randomBatch([3, 0, 64, 200], 3);
        expect(await backend.sign(batch)).toEqual(signBatchOnCpu(family, batch));
      } finally {
        backend.destroy();
      }
      // 'auto' on the same adapter: the CPU when it is a software one, as in Node.
      const auto = await resolveBrowserBackend('auto', family);
      try {
        expect(auto.backend.kind).toBe(software ? 'cpu' : 'webgpu');
        if (software)
          expect(auto.notes[0]).toMatch(/^webgpu: passed over WebGPU on .*software adapter on the same cores/);
      } finally {
        auto.backend.destroy();
      }
    } finally {
      if (saved) Object.defineProperty(globalThis, 'navigator', saved);
      else delete global.navigator;
    }
  });
});

/** toEqual() on millions of words takes a minute; this says where the first difference is. */
function expectSameWords(got: Uint32Array, expected: Uint32Array, what: string): void {
  expect(got.length, what).toBe(expected.length);
  const at = got.findIndex((word, i) => word !== expected[i]);
  if (at >= 0) expect.fail(`${what}: word ${at} is ${got[at]}, the CPU has ${expected[at]}`);
}

/** The documents for which `keep(d)` holds, repacked. */
function subset(batch: ShingleBatch, keep: (d: number) => boolean): ShingleBatch {
  const parts: Uint32Array[] = [];
  for (let d = 0; d + 1 < batch.offsets.length; d++) {
    if (keep(d)) parts.push(batch.shingles.subarray(2 * batch.offsets[d], 2 * batch.offsets[d + 1]));
  }
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((part, i) => (offsets[i + 1] = offsets[i] + part.length / 2));
  const shingles = new Uint32Array(2 * offsets[parts.length]);
  parts.forEach((part, i) => shingles.set(part, 2 * offsets[i]));
  return { shingles, offsets };
}
