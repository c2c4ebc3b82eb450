/**
 * SimHash on WebGPU (shaders/simhash.wgsl): one invocation per document computes its
 * fingerprint, bit-identical with simhash.ts (test/signatures/webgpu/webgpu.test.ts).
 * Documents go in chunks that fit a storage binding; a document too large for one
 * binding alone is fingerprinted on the CPU (signBatchSimhash).
 */
import { documentCount, EMPTY_SLOT_WORD, type ShingleBatch, type SignerBackend } from '../backend.js';
import type { HashFamily } from '../hashFamily.js';
import { expandFingerprint, signBatchSimhash, SIMHASH_BITS } from '../simhash.js';
import { DeviceWatch } from './deviceWatch.js';
import { workgroupGrid } from './plan.js';
import { kernelSource, type ShaderSources } from './shaderSources.js';

const WORKGROUP_SIZE = 64;

export interface SimhashSignerOptions {
  readonly description?: string;
  /** Called by destroy(); default device.destroy(). Pass a no-op to keep a shared device. */
  readonly release?: () => void;
  /** Elements per dispatch at most (default: what a storage binding holds, up to 2^24). */
  readonly maxChunkElements?: number;
}

export class SimhashGpuSigner implements SignerBackend {
  readonly kind = 'webgpu' as const;
  readonly k = SIMHASH_BITS;
  readonly description: string;
  private readonly watch: DeviceWatch;
  private readonly maxElements: number;

  private constructor(
    private readonly device: GPUDevice,
    private readonly pipeline: GPUComputePipeline,
    private readonly key: Uint32Array,
    private readonly options: SimhashSignerOptions,
    watch: DeviceWatch,
  ) {
    this.watch = watch;
    this.description = `WebGPU SimHash (${options.description ?? 'device'})`;
    const bindable = Math.floor(Math.min(device.limits.maxStorageBufferBindingSize, 1 << 30) / 8);
    this.maxElements = Math.max(1, Math.min(options.maxChunkElements ?? 1 << 24, bindable));
  }

  static async create(
    device: GPUDevice,
    family: HashFamily,
    sources: ShaderSources,
    options: SimhashSignerOptions = {},
  ): Promise<SimhashGpuSigner> {
    const watch = new DeviceWatch(device);
    const module = device.createShaderModule({
      label: 'gpudedup simhash.wgsl',
      code: kernelSource(sources, 'simhash'),
    });
    const pipeline = await watch.guard(
      device.createComputePipelineAsync({
        label: 'gpudedup simhash',
        layout: 'auto',
        compute: { module, entryPoint: 'simhash_documents', constants: { WORKGROUP_SIZE } },
      }),
    );
    return new SimhashGpuSigner(device, pipeline, family.a, options, watch);
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    const docs = documentCount(batch);
    const out = new Uint32Array(docs * SIMHASH_BITS * 2);
    for (let from = 0; from < docs; ) {
      let to = from + 1;
      while (to < docs && batch.offsets[to + 1] - batch.offsets[from] <= this.maxElements) to++;
      const rows = out.subarray(from * SIMHASH_BITS * 2, to * SIMHASH_BITS * 2);
      if (batch.offsets[to] - batch.offsets[from] > this.maxElements)
        rows.set(signBatchSimhash(this.key, slice(batch, from, to)));
      else expandRows(await this.fingerprints(slice(batch, from, to)), slice(batch, from, to), rows);
      from = to;
    }
    return out;
  }

  /** One dispatch: a fingerprint (lo, hi) per document of `batch`. */
  private async fingerprints(batch: ShingleBatch): Promise<Uint32Array> {
    const { device } = this;
    const docs = documentCount(batch);
    const grid = workgroupGrid(docs, WORKGROUP_SIZE, device.limits.maxComputeWorkgroupsPerDimension);
    const buffers: GPUBuffer[] = [];
    const buffer = (label: string, size: number, usage: GPUBufferUsageFlags): GPUBuffer => {
      const created = device.createBuffer({ label: `gpudedup simhash ${label}`, size: Math.max(16, size), usage });
      buffers.push(created);
      return created;
    };
    try {
      const { value: readback, errors } = this.watch.scoped('simhash', () => {
        const params = buffer('params', 16, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
        const elements = buffer(
          'elements',
          batch.shingles.byteLength,
          GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
        );
        const offsets = buffer('offsets', batch.offsets.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
        const results = buffer('fingerprints', 8 * docs, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
        const readback = buffer('readback', 8 * docs, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
        device.queue.writeBuffer(params, 0, Uint32Array.of(docs, grid.x, this.key[0], this.key[1]));
        if (batch.shingles.length > 0) device.queue.writeBuffer(elements, 0, new Uint32Array(batch.shingles));
        device.queue.writeBuffer(offsets, 0, new Uint32Array(batch.offsets));
        const encoder = device.createCommandEncoder({ label: 'gpudedup simhash' });
        const pass = encoder.beginComputePass({ label: 'gpudedup simhash' });
        pass.setPipeline(this.pipeline);
        pass.setBindGroup(
          0,
          device.createBindGroup({
            label: 'gpudedup simhash bindings',
            layout: this.pipeline.getBindGroupLayout(0),
            entries: [params, elements, offsets, results].map((b, binding) => ({ binding, resource: { buffer: b } })),
          }),
        );
        pass.dispatchWorkgroups(grid.x, grid.y);
        pass.end();
        encoder.copyBufferToBuffer(results, 0, readback, 0, 8 * docs);
        device.queue.submit([encoder.finish({ label: 'gpudedup simhash' })]);
        return readback;
      });
      await this.watch.guard(Promise.all([readback.mapAsync(GPUMapMode.READ), errors]));
      const words = new Uint32Array(readback.getMappedRange()).slice();
      readback.unmap();
      return words;
    } finally {
      for (const created of buffers) created.destroy();
    }
  }

  destroy(): void {
    this.watch.dispose();
    (this.options.release ?? (() => this.device.destroy()))();
  }
}

/** Documents [from, to) of a batch, offsets from 0. */
function slice(batch: ShingleBatch, from: number, to: number): ShingleBatch {
  const first = batch.offsets[from];
  const offsets = batch.offsets.slice(from, to + 1).map((o) => o - first);
  return { shingles: batch.shingles.subarray(2 * first, 2 * batch.offsets[to]), offsets };
}

/** Fingerprints as 64 one-bit slots; an empty document's row all-ones. */
function expandRows(words: Uint32Array, batch: ShingleBatch, rows: Uint32Array): void {
  for (let d = 0; d < documentCount(batch); d++) {
    const at = d * SIMHASH_BITS * 2;
    if (batch.offsets[d] === batch.offsets[d + 1]) rows.fill(EMPTY_SLOT_WORD, at, at + SIMHASH_BITS * 2);
    else expandFingerprint(words[2 * d], words[2 * d + 1], rows, at);
  }
}
