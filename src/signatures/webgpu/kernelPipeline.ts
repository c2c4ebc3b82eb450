/**
 * What the WebGPU signer (webGpuSigner.ts) sets up once per family: its
 * kernel's compute pipeline, compiled for k and the workgroup size, and the
 * hash coefficients the kernel reads.
 */
import type { HashFamily } from '../hashFamily.js';
import type { DeviceWatch } from './deviceWatch.js';
import { kernelSource, type ShaderSources } from './shaderSources.js';
import type { SigningKernel } from './signingKernel.js';

export async function compileKernel(
  device: GPUDevice,
  watch: DeviceWatch,
  sources: ShaderSources,
  kernel: SigningKernel,
  k: number,
  workgroupSize: number,
): Promise<GPUComputePipeline> {
  const file = `${kernel.name}.wgsl`;
  const module = device.createShaderModule({ label: `gpudedup ${file}`, code: kernelSource(sources, kernel.name) });
  try {
    return await watch.guard(
      device.createComputePipelineAsync({
        label: `gpudedup ${kernel.name} k=${k}`,
        layout: 'auto',
        compute: { module, entryPoint: kernel.entryPoint, constants: { WORKGROUP_SIZE: workgroupSize, K: k } },
      }),
    );
  } catch (error) {
    const info = await module.getCompilationInfo();
    const messages = info.messages.map((m) => `${m.type} at ${m.lineNum}:${m.linePos}: ${m.message}`);
    throw new Error(`${file} did not compile: ${[String(error), ...messages].join('\n')}`);
  }
}

/** Per hash function i the kernel uses: (a_i.lo, a_i.hi, b_i.lo, b_i.hi). */
export async function uploadCoefficients(
  device: GPUDevice,
  watch: DeviceWatch,
  family: HashFamily,
  kernel: SigningKernel,
): Promise<GPUBuffer> {
  const words = kernel.coefficients(family);
  const { value: buffer, errors } = watch.scoped('uploading coefficients', () => {
    const created = device.createBuffer({
      label: `gpudedup coefficients k=${family.k}`,
      size: words.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(created, 0, words);
    return created;
  });
  await errors;
  return buffer;
}
