import { describe, expect, it, vi } from 'vitest';
import { ParallelCpuSigner } from '../../src/signatures/cpuParallel.js';
import { signBatchOnCpu } from '../../src/signatures/cpuSigner.js';
import { FallbackSigner } from '../../src/signatures/fallbackSigner.js';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { WasmSigner } from '../../src/signatures/wasmSigner.js';
import type { SignerBackend } from '../../src/signatures/backend.js';
import { pack } from '../../src/shingles/shingleBatch.js';
import { u64 } from '../../src/math/u64.js';
import { randomU32, rng } from '../support/reference.js';
import { expectSameWords } from '../support/sameWords.js';

function randomSets(count: number, seed: number): Uint32Array[] {
  const next = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const n = i % 11 === 0 ? 0 : Math.floor(next() * 400);
    const set = new Uint32Array(2 * n);
    for (let j = 0; j < n; j++) {
      set[2 * j] = randomU32(next);
      set[2 * j + 1] = randomU32(next) & 0x1fffffff;
    }
    return set;
  });
}

const family = makeHashFamily(128, u64(0, 42));

describe('WasmSigner', () => {
  it('signs with wasm SIMD by default, scalar wasm or TypeScript when asked, all equal to CpuSigner', async () => {
    const batch = pack(randomSets(40, 1));
    const want = signBatchOnCpu(family, batch);
    for (const [kernel, description] of [
      ['wasm-simd', 'CPU (wasm SIMD)'],
      ['wasm-scalar', 'CPU (wasm scalar)'],
      ['typescript', 'CPU (TypeScript, 32-bit lanes)'],
    ] as const) {
      const signer = new WasmSigner(family, kernel);
      expect(signer.kernelName).toBe(kernel);
      expect(signer.description).toBe(description);
      expect(signer.notes).toEqual([]);
      expect(await signer.sign(batch)).toEqual(want);
    }
  });

  it('falls back to the TypeScript lanes, with a note, where WebAssembly does not instantiate', async () => {
    vi.resetModules(); // a fresh kernel cache that has not loaded wasm yet
    const validate = vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    // biome-ignore lint/complexity/useArrowFunction: WebAssembly.Module is called with new, which an arrow refuses
    const module = vi.spyOn(WebAssembly, 'Module').mockImplementation(function () {
      throw new WebAssembly.CompileError('no wasm here');
    });
    try {
      const { WasmSigner: FreshSigner } = await import('../../src/signatures/wasmSigner.js');
      const signer = new FreshSigner(family);
      expect(signer.kernelName).toBe('typescript');
      expect(signer.description).toBe('CPU (TypeScript, 32-bit lanes)');
      expect(signer.notes).toEqual([
        'wasm SIMD unavailable: this engine does not validate WebAssembly SIMD',
        'wasm scalar unavailable: no wasm here',
      ]);
      const batch = pack(randomSets(10, 2));
      expect(await signer.sign(batch)).toEqual(signBatchOnCpu(family, batch));
    } finally {
      validate.mockRestore();
      module.mockRestore();
      vi.resetModules();
    }
  });
});

describe('ParallelCpuSigner with the wasm kernels', () => {
  it('signs in its worker threads with the kernel it names, equal to CpuSigner', async () => {
    const batch = pack(randomSets(120, 3));
    expect(batch.offsets[120] * 128).toBeGreaterThan(1 << 20); // really goes to the workers
    for (const [kernel, description] of [
      ['wasm-simd', 'CPU (wasm SIMD, 2 threads)'],
      ['wasm-scalar', 'CPU (wasm scalar, 2 threads)'],
    ] as const) {
      const signer = new ParallelCpuSigner(family, 2, kernel);
      try {
        expect(signer.description).toBe(description);
        expectSameWords(await signer.sign(batch), signBatchOnCpu(family, batch));
      } finally {
        signer.destroy();
      }
    }
  });
});

describe('FallbackSigner', () => {
  it('takes over on the wasm CPU kernel after a failure and names it', async () => {
    const failing: SignerBackend = {
      kind: 'webgpu',
      description: 'GPU',
      k: 128,
      sign: () => Promise.reject(new Error('device lost')),
      destroy() {},
    };
    const signer = new FallbackSigner(failing, family);
    const batch = pack(randomSets(20, 4));
    expect(await signer.sign(batch)).toEqual(signBatchOnCpu(family, batch));
    expect(signer.kind).toBe('cpu');
    expect(signer.description).toBe('GPU, then CPU (wasm SIMD) after a failure (device lost)');
  });
});
