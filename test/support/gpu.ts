/**
 * WebGPU in tests: a Dawn device per suite, or, without an adapter, a skip
 * that says how to get one. Under CI (env CI set) a missing adapter fails
 * every GPU test instead, so a broken CI image cannot pass by skipping.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { AcquiredDevice } from '../../src/signatures/webgpu/adapter.js';

export const ENABLE_HINT =
  'To run the WebGPU tests on Debian 12 without a GPU, install Mesa lavapipe (software Vulkan): sudo scripts/install-lavapipe.sh';

const underCi = (): boolean => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/** A Dawn device, or the reason there is none. */
export async function tryAcquireTestDevice(label: string): Promise<{ gpu: AcquiredDevice } | { missing: string }> {
  try {
    const { acquireNodeDevice } = await import('../../src/signatures/webgpu/nodeDevice.js');
    return { gpu: await acquireNodeDevice({ label }) };
  } catch (error) {
    return { missing: error instanceof Error ? error.message : String(error) };
  }
}

/** For a test that cannot run: fail under CI, skip with the hint otherwise. */
export function noGpu(missing: string, skip: (note: string) => never): never {
  const hint = missing.includes('install-lavapipe') ? '' : ` ${ENABLE_HINT}`;
  const message = `no WebGPU adapter: ${missing}.${hint}`;
  if (underCi()) throw new Error(`${message} (CI is set, so this fails instead of skipping)`);
  return skip(message);
}

/**
 * A suite whose tests share one device, destroyed after the suite (a live
 * Dawn device keeps a core busy and the process alive).
 */
export function describeWithGpu(name: string, body: (gpu: () => AcquiredDevice) => void): void {
  describe(name, () => {
    let acquired: AcquiredDevice | undefined;
    let missing = 'not acquired yet';
    beforeAll(async () => {
      const result = await tryAcquireTestDevice(`test: ${name}`);
      if ('gpu' in result) acquired = result.gpu;
      else {
        missing = result.missing;
        if (!underCi()) console.warn(`skipping WebGPU tests "${name}": ${missing}`);
      }
    });
    afterAll(() => acquired?.release());
    beforeEach((context) => {
      if (!acquired) noGpu(missing, (note) => context.skip(note));
    });
    body(() => {
      if (!acquired) throw new Error('describeWithGpu: the device is only there inside tests');
      return acquired;
    });
  });
}
