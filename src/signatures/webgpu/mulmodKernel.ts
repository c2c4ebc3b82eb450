/**
 * Runs shaders/mulmod_test.wgsl: mul_add_mod_p over a buffer of operand
 * triples, one invocation each. Tests compare the results with the BigInt
 * reference; `gpudedup doctor` compares them with the CPU's mulAddModP.
 */
import { DeviceWatch } from './deviceWatch.js';
import { workgroupGrid } from './plan.js';
import { kernelSource, type ShaderSources } from './shaderSources.js';

const WORKGROUP_SIZE = 64;

/**
 * `operands`: 6 words per case, (a.lo, a.hi, x.lo, x.hi, b.lo, b.hi), each
 * value below 2^61 and b below P. Returns 2 words per case, (lo, hi).
 */
export async function runMulAddModP(
  device: GPUDevice,
  sources: ShaderSources,
  operands: Uint32Array<ArrayBuffer>,
): Promise<Uint32Array> {
  const count = operands.length / 6;
  if (!Number.isInteger(count) || count < 1) throw new RangeError('operands: a positive multiple of 6 words');
  const watch = new DeviceWatch(device);
  const buffers: GPUBuffer[] = [];
  const buffer = (label: string, size: number, usage: GPUBufferUsageFlags): GPUBuffer => {
    const created = device.createBuffer({ label: `gpudedup mulmod test ${label}`, size, usage });
    buffers.push(created);
    return created;
  };
  try {
    const pipeline = await mulmodPipeline(device, sources, watch);
    const grid = workgroupGrid(count, WORKGROUP_SIZE, device.limits.maxComputeWorkgroupsPerDimension);
    const resultBytes = 8 * count;
    const { value: readback, errors } = watch.scoped('mulmod test', () => {
      const params = buffer('params', 16, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
      const input = buffer('operands', operands.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
      const results = buffer('results', resultBytes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
      const readback = buffer('readback', resultBytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
      device.queue.writeBuffer(params, 0, Uint32Array.of(count, grid.x));
      device.queue.writeBuffer(input, 0, operands);
      const encoder = device.createCommandEncoder({ label: 'gpudedup mulmod test' });
      const pass = encoder.beginComputePass({ label: 'gpudedup mulmod test' });
      pass.setPipeline(pipeline);
      pass.setBindGroup(
        0,
        device.createBindGroup({
          label: 'gpudedup mulmod test bindings',
          layout: pipeline.getBindGroupLayout(0),
          entries: [
            { binding: 0, resource: { buffer: params, size: 8 } },
            { binding: 1, resource: { buffer: input } },
            { binding: 2, resource: { buffer: results } },
          ],
        }),
      );
      pass.dispatchWorkgroups(grid.x, grid.y);
      pass.end();
      encoder.copyBufferToBuffer(results, 0, readback, 0, resultBytes);
      device.queue.submit([encoder.finish({ label: 'gpudedup mulmod test' })]);
      return readback;
    });
    await watch.guard(Promise.all([readback.mapAsync(GPUMapMode.READ), errors]));
    const words = new Uint32Array(readback.getMappedRange()).slice();
    readback.unmap();
    return words;
  } finally {
    for (const created of buffers) created.destroy();
    watch.dispose();
  }
}

/** The test shader's compute pipeline, its compilation watched for device loss. */
function mulmodPipeline(device: GPUDevice, sources: ShaderSources, watch: DeviceWatch): Promise<GPUComputePipeline> {
  const module = device.createShaderModule({
    label: 'gpudedup mulmod_test.wgsl',
    code: kernelSource(sources, 'mulmodTest'),
  });
  return watch.guard(
    device.createComputePipelineAsync({
      label: 'gpudedup mulmod test',
      layout: 'auto',
      compute: { module, entryPoint: 'mul_add_mod_p_each', constants: { WORKGROUP_SIZE } },
    }),
  );
}
