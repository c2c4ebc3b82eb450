// Backend choice and its notes, with stand-in environments (no GPU needed).
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { cpuThreads, resolveBackend } from '../../src/firstPass/node/resolveBackend.js';
import { NoAdapterError } from '../../src/signatures/webgpu/adapter.js';
import { selectBackend, type WebGpuEnvironment } from '../../src/signatures/selectBackend.js';
import { loadShaderSources } from '../../src/signatures/webgpu/nodeShaders.js';
import { noGpuDeviceReason } from '../../src/signatures/gpuDevices.js';

const family = makeHashFamily(4, { hi: 0, lo: 1 });
const noAdapter: WebGpuEnvironment = {
  acquireDevice: () => Promise.reject(new NoAdapterError('no adapter (Dawn returned null)')),
  shaderSources: loadShaderSources,
};

describe('selectBackend', () => {
  it('auto falls back to the CPU and says why', async () => {
    const { backend, notes } = await selectBackend('auto', family, noAdapter);
    expect(backend.kind).toBe('cpu');
    expect(notes).toEqual(['webgpu: no adapter (Dawn returned null)', 'cpu: chosen, CPU (wasm SIMD)']);
  });

  it('webgpu without an adapter is an error that says why', async () => {
    await expect(selectBackend('webgpu', family, noAdapter)).rejects.toThrow(
      'webgpu backend unavailable: no adapter (Dawn returned null)',
    );
  });

  it('releases the device when the signer cannot be built', async () => {
    let released = 0;
    const broken: WebGpuEnvironment = {
      acquireDevice: async () => ({
        device: {
          lost: new Promise(() => {}),
          addEventListener() {},
          removeEventListener() {},
        } as unknown as GPUDevice,
        adapter: { vendor: 'v', architecture: 'a', device: 'd', description: '', backend: 'b', fallback: false },
        adapterLimits: {} as GPUSupportedLimits,
        release: () => void released++,
      }),
      shaderSources: loadShaderSources,
    };
    const { backend, notes } = await selectBackend('auto', family, broken);
    expect(backend.kind).toBe('cpu');
    expect(notes[0]).toMatch(/^webgpu: /);
    expect(released).toBe(1);
  });

  it('auto passes a software adapter over for the CPU where the environment asks, and releases it', async () => {
    for (const [adapter, software] of [
      [
        {
          vendor: 'mesa',
          architecture: 'software',
          device: 'llvmpipe',
          description: 'llvmpipe (LLVM 15)',
          backend: 'vulkan',
          fallback: false,
        },
        true,
      ],
      [
        {
          vendor: 'google',
          architecture: 'swiftshader',
          device: '',
          description: '',
          backend: 'vulkan',
          fallback: false,
        },
        true,
      ],
      [{ vendor: 'x', architecture: 'y', device: 'z', description: '', backend: 'vulkan', fallback: true }, true],
      [
        {
          vendor: 'nvidia',
          architecture: 'ampere',
          device: 'RTX',
          description: '',
          backend: 'vulkan',
          fallback: false,
        },
        false,
      ],
    ] as const) {
      let released = 0;
      const environment: WebGpuEnvironment = {
        acquireDevice: async () => ({
          device: {
            lost: new Promise(() => {}),
            addEventListener() {},
            removeEventListener() {},
          } as unknown as GPUDevice,
          adapter,
          adapterLimits: {} as GPUSupportedLimits,
          release: () => void released++,
        }),
        shaderSources: loadShaderSources,
        preferCpuOverSoftwareAdapters: true,
      };
      const { backend, notes } = await selectBackend('auto', family, environment);
      expect(backend.kind).toBe('cpu'); // the stand-in device cannot sign either way
      expect(released).toBe(1);
      if (software) expect(notes[0]).toMatch(/^webgpu: passed over WebGPU on .*: software adapter on the same cores/);
      else expect(notes[0]).not.toMatch(/passed over/);
    }
  });

  it('auto does not start WebGPU where no hardware adapter can exist (no GPU device node); webgpu still asks', async () => {
    let asked = 0;
    const environment: WebGpuEnvironment = {
      acquireDevice: () => (asked++, noAdapter.acquireDevice()),
      shaderSources: loadShaderSources,
      preferCpuOverSoftwareAdapters: true,
      noHardwareReason: () => 'not started: no GPU device',
    };
    const { backend, notes } = await selectBackend('auto', family, environment);
    expect(backend.kind).toBe('cpu');
    expect(notes).toEqual(['webgpu: not started: no GPU device', 'cpu: chosen, CPU (wasm SIMD)']);
    expect(asked).toBe(0);
    await expect(selectBackend('webgpu', family, environment)).rejects.toThrow(/no adapter/);
    expect(asked).toBe(1);
  });

  it('a GPU device node is looked for on Linux only: /dev/dri/renderD*, /dev/nvidia<n>, /dev/dxg', () => {
    const machine = (files: Record<string, string[]>) => (dir: string) => files[dir] ?? [];
    expect(noGpuDeviceReason('linux', machine({ '/dev': ['null', 'nvidiactl', 'tty0'] }))).toMatch(
      /^not started: no GPU device/,
    );
    expect(noGpuDeviceReason('linux', machine({ '/dev/dri': ['renderD128'] }))).toBeUndefined();
    expect(noGpuDeviceReason('linux', machine({ '/dev': ['nvidia0', 'nvidiactl'] }))).toBeUndefined();
    expect(noGpuDeviceReason('linux', machine({ '/dev': ['dxg'] }))).toBeUndefined();
    expect(noGpuDeviceReason('darwin', machine({}))).toBeUndefined();
  });

  it('cpu is chosen without touching WebGPU, on worker threads in Node', async () => {
    const threads = availableParallelism();
    const { backend, notes } = await resolveBackend('cpu', family, { cpuThreads: threads });
    try {
      expect(backend.kind).toBe('cpu');
      expect(notes).toEqual([`cpu: chosen, CPU (wasm SIMD, ${threads} thread${threads === 1 ? '' : 's'})`]);
    } finally {
      backend.destroy();
    }
  });

  it('caps CPU threads at one per core, with a note saying so', () => {
    const cores = availableParallelism();
    expect(cpuThreads(1000)).toEqual({
      threads: cores,
      note: `cpu: 1000 threads requested, ${cores} used (one per core of this machine)`,
    });
    expect(cpuThreads(1)).toEqual({ threads: 1 });
    expect(cpuThreads()).toEqual({ threads: cores });
    // Unasked, sized to the input (options.ts's defaultThreads): a small one starts one thread; asked, as asked.
    expect(cpuThreads(undefined, 5_000)).toEqual({ threads: 1 });
    expect(cpuThreads(undefined, 2 ** 30)).toEqual({ threads: cores });
    expect(cpuThreads(Math.min(2, cores), 5_000)).toEqual({ threads: Math.min(2, cores) });
  });
});
