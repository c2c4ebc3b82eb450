// resolveBrowserBackend's choice with stand-in navigator.gpu adapters (no GPU
// needed): `auto` passes a software adapter over for the CPU, as the CLI does,
// and says which; `webgpu` still tries it. The real SwiftShader case runs in
// Chromium (test/web/browser.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { makeHashFamily } from '../../../src/signatures/hashFamily.js';
import { resolveBrowserBackend } from '../../../src/signatures/webgpu/browser.js';

const family = makeHashFamily(4, { hi: 0, lo: 1 });
const saved = Object.getOwnPropertyDescriptor(globalThis, 'navigator');

afterEach(() => {
  if (saved) Object.defineProperty(globalThis, 'navigator', saved);
  else delete (globalThis as { navigator?: unknown }).navigator;
});

/** A navigator.gpu whose one adapter has this info; its devices cannot sign (enough to see the choice). */
function standIn(info: { vendor: string; architecture: string; isFallbackAdapter?: boolean }): {
  destroyed: () => number;
} {
  let destroyed = 0;
  const device = {
    lost: new Promise(() => {}),
    addEventListener() {},
    removeEventListener() {},
    destroy: () => void destroyed++,
  };
  const adapter = {
    info: { device: '', description: '', ...info },
    limits: { maxStorageBufferBindingSize: 1 << 27, maxBufferSize: 1 << 28, maxComputeWorkgroupsPerDimension: 65535 },
    requestDevice: async () => device,
  };
  const gpu = { requestAdapter: async () => adapter };
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
  return { destroyed: () => destroyed };
}

describe('resolveBrowserBackend', () => {
  it('auto passes SwiftShader (and any fallback adapter) over for the CPU, naming it, and releases its device', async () => {
    for (const info of [
      { vendor: 'google', architecture: 'swiftshader' },
      { vendor: 'x', architecture: 'y', isFallbackAdapter: true },
    ]) {
      const gpu = standIn(info);
      const { backend, notes, passedOver } = await resolveBrowserBackend('auto', family);
      backend.destroy();
      expect(backend.kind).toBe('cpu');
      expect(passedOver?.architecture).toBe(info.architecture);
      expect(notes[0]).toMatch(
        new RegExp(
          `^webgpu: passed over WebGPU on ${info.vendor} ${info.architecture}.*: software adapter on the same cores`,
        ),
      );
      expect(notes[1]).toMatch(/^cpu: chosen, CPU/);
      expect(gpu.destroyed()).toBe(1);
    }
  });

  it('auto tries a hardware adapter, and webgpu tries even SwiftShader', async () => {
    standIn({ vendor: 'nvidia', architecture: 'ampere' });
    const hardware = await resolveBrowserBackend('auto', family);
    hardware.backend.destroy();
    expect(hardware.passedOver).toBeUndefined();
    // The stand-in device cannot build the signer: the CPU, for that reason and not for being passed over.
    expect(hardware.notes[0]).toMatch(/^webgpu: /);
    expect(hardware.notes[0]).not.toMatch(/passed over/);

    standIn({ vendor: 'google', architecture: 'swiftshader' });
    const explicit = resolveBrowserBackend('webgpu', family);
    await expect(explicit).rejects.toThrow(/^webgpu backend unavailable: /);
    await expect(explicit).rejects.not.toThrow(/passed over/);
  });
});
