/**
 * The WebGPU backend: signs batches with shaders/minhash.wgsl (or oph.wgsl for
 * the OPH scheme, see signingKernel.ts) on any GPUDevice,
 * from Dawn in Node or from navigator.gpu in a browser; this file is the same
 * for both. Signatures are bit-identical to the CPU backend's (same algorithm,
 * mersenne61.wgsl mirrors src/math/mersenne61.ts).
 *
 * A batch is cut into chunks that fit the device (plan.ts). Two sets of
 * buffers (slots) take chunks in turn: while chunk i computes and is read
 * back, chunk i + 1 is already uploaded and queued. The turn runs across
 * sign() calls too, so when the caller submits its next batch while the
 * current one is in flight (shingling it meanwhile), the next batch's first
 * upload overlaps the current batch's last kernel and readback.
 */
import { EMPTY_SLOT_WORD, documentCount, type ShingleBatch, type SignerBackend } from '../backend.js';
import type { HashFamily } from '../hashFamily.js';
import { ChunkSlot } from './buffers.js';
import { DeviceWatch } from './deviceWatch.js';
import {
  chunkCapacity,
  combineSegments,
  planChunks,
  segmentCount,
  workgroupGrid,
  type Chunk,
  type ChunkCapacity,
} from './plan.js';
import { compileKernel, uploadCoefficients } from './kernelPipeline.js';
import type { ShaderSources } from './shaderSources.js';
import { kernelFor, type SigningKernel } from './signingKernel.js';

export interface WebGpuSignerOptions {
  /** For summaries, e.g. describeAdapter(...). */
  readonly description?: string;
  /** Called by destroy(); default device.destroy(). Pass a no-op to keep a shared device. */
  readonly release?: () => void;
  /** Invocations per workgroup (override WORKGROUP_SIZE), default 64. */
  readonly workgroupSize?: number;
  /** Cap on shingles per chunk below what the device allows (DEFAULT_CHUNK_SHINGLES). */
  readonly maxChunkShingles?: number;
  /** Fixed longest segment instead of segmentCapFor()'s choice (tests use small ones). */
  readonly segmentCap?: number;
  /**
   * Benchmarks: run upload, kernel and readback of each chunk one after the
   * other, waiting for the queue between them, and time each. Slower: no overlap.
   */
  readonly profile?: boolean;
}

export interface SignerStats {
  batches: number;
  chunks: number;
  segments: number;
  shingles: number;
  /** Filled only with `profile`: milliseconds in each phase, summed over chunks. */
  uploadMs: number;
  kernelMs: number;
  readbackMs: number;
  combineMs: number;
  /** OPH: documents whose empty bins the host filled (split across segments); the kernel densifies the others. */
  hostDensified: number;
}

const DEFAULT_WORKGROUP_SIZE = 64;

/** The slot's buffers as sized for one chunk. */
interface ChunkBuffers {
  readonly params: GPUBuffer;
  readonly shingles: GPUBuffer;
  readonly segmentStarts: GPUBuffer;
  /** The kernel's per-segment words (binding 5), if it has any. */
  readonly segmentData?: GPUBuffer;
  readonly minima: GPUBuffer;
  readonly readback: GPUBuffer;
}

export class WebGpuSigner implements SignerBackend {
  readonly kind = 'webgpu' as const;
  readonly k: number;
  readonly description: string;
  readonly capacity: ChunkCapacity;
  readonly stats: SignerStats = {
    batches: 0,
    chunks: 0,
    segments: 0,
    shingles: 0,
    uploadMs: 0,
    kernelMs: 0,
    readbackMs: 0,
    combineMs: 0,
    hostDensified: 0,
  };
  /** Two slots; one when profiling, so that no phase overlaps another. */
  private readonly slots: ChunkSlot[];
  private turn = 0;
  private destroyed = false;

  private constructor(
    private readonly device: GPUDevice,
    private readonly watch: DeviceWatch,
    private readonly pipeline: GPUComputePipeline,
    private readonly coefficients: GPUBuffer,
    private readonly workgroupSize: number,
    private readonly family: HashFamily,
    private readonly kernel: SigningKernel,
    private readonly options: WebGpuSignerOptions,
  ) {
    this.k = family.k;
    this.description = options.description ?? 'WebGPU (adapter not described)';
    const limits = device.limits;
    this.capacity = chunkCapacity(limits, this.k, workgroupSize, options.maxChunkShingles);
    const binding = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    const slots = options.profile ? 1 : 2;
    this.slots = Array.from(
      { length: slots },
      (_, i) => new ChunkSlot(device, `slot ${i}`, binding, limits.maxBufferSize),
    );
  }

  /** Compiles the kernel for this family's k and uploads its coefficients. */
  static async create(
    device: GPUDevice,
    family: HashFamily,
    sources: ShaderSources,
    options: WebGpuSignerOptions = {},
  ): Promise<WebGpuSigner> {
    const watch = new DeviceWatch(device);
    try {
      const workgroupSize = Math.min(
        options.workgroupSize ?? DEFAULT_WORKGROUP_SIZE,
        device.limits.maxComputeInvocationsPerWorkgroup,
        device.limits.maxComputeWorkgroupSizeX,
      );
      const kernel = kernelFor(family);
      const pipeline = await compileKernel(device, watch, sources, kernel, family.k, workgroupSize);
      const coefficients = uploadCoefficients(device, watch, family, kernel);
      return new WebGpuSigner(device, watch, pipeline, await coefficients, workgroupSize, family, kernel, options);
    } catch (error) {
      watch.dispose();
      throw error;
    }
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    this.watch.throwIfFailed();
    const docs = documentCount(batch);
    const out = new Uint32Array(docs * this.k * 2).fill(EMPTY_SLOT_WORD);
    const shingles = batch.offsets[docs] - batch.offsets[0];
    this.stats.batches++;
    if (shingles === 0) return out;
    const cap = this.options.segmentCap ?? this.kernel.segmentCap(Math.min(shingles, this.capacity.shingles), this.k);
    const chunks = planChunks(batch.offsets, this.capacity, cap);
    const run = (slot: ChunkSlot, chunk: Chunk): Promise<void> =>
      this.options.profile ? this.runChunkProfiled(slot, batch, chunk, out) : this.runChunk(slot, batch, chunk, out);
    await Promise.all(chunks.map((chunk) => this.watch.guard(this.onNextSlot((slot) => run(slot, chunk)))));
    this.stats.chunks += chunks.length;
    this.stats.shingles += shingles;
    for (const chunk of chunks) this.stats.segments += segmentCount(chunk);
    this.stats.hostDensified += this.kernel.finish?.(this.family, out) ?? 0;
    return out;
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.watch.fail('the signer was destroyed'); // rejects a sign() still in flight
    for (const slot of this.slots) slot.destroy();
    this.coefficients.destroy();
    this.watch.dispose();
    (this.options.release ?? (() => this.device.destroy()))();
  }

  /** Claims the next slot in turn and runs `work` on it once the slot's previous chunk is done. */
  private onNextSlot(work: (slot: ChunkSlot) => Promise<void>): Promise<void> {
    const slot = this.slots[this.turn++ % this.slots.length];
    const run = this.watch.guard(slot.busy).then(() => work(slot));
    slot.busy = run;
    run.catch(() => {}); // awaited by sign(); a failure also fails the slot's later chunks
    return run;
  }

  /** Queues upload, kernel and copy-out of one chunk, then reads it back into `out`. */
  private async runChunk(slot: ChunkSlot, batch: ShingleBatch, chunk: Chunk, out: Uint32Array): Promise<void> {
    const upload = this.watch.scoped('upload', () => this.upload(slot, batch, chunk));
    const run = this.watch.scoped('dispatch', () => this.submit(upload.value, chunk, true));
    await this.readBack(upload.value, chunk, out, [upload.errors, run.errors]);
  }

  /** The same steps with the queue drained between them, to time each. */
  private async runChunkProfiled(slot: ChunkSlot, batch: ShingleBatch, chunk: Chunk, out: Uint32Array): Promise<void> {
    const drained = (): Promise<void> => this.watch.guard(this.device.queue.onSubmittedWorkDone());
    let start = performance.now();
    const upload = this.watch.scoped('upload', () => this.upload(slot, batch, chunk));
    await drained();
    this.stats.uploadMs += performance.now() - start;
    start = performance.now();
    const run = this.watch.scoped('dispatch', () => this.submit(upload.value, chunk, false));
    await drained();
    this.stats.kernelMs += performance.now() - start;
    start = performance.now();
    const copy = this.watch.scoped('copy-out', () => this.submitCopyOut(upload.value, chunk));
    await this.readBack(upload.value, chunk, out, [upload.errors, run.errors, copy.errors], start);
  }

  /** Sizes the slot's buffers for the chunk and queues the writes of its inputs. */
  private upload(slot: ChunkSlot, batch: ShingleBatch, chunk: Chunk): ChunkBuffers {
    const words = 2 * (chunk.endShingle - chunk.firstShingle);
    const segments = segmentCount(chunk);
    const bytes = this.minimaBytes(chunk);
    const segmentData = this.kernel.segmentData?.(chunk, batch.offsets);
    const buffers: ChunkBuffers = {
      params: slot.params,
      shingles: slot.shingles.atLeast(4 * words),
      segmentStarts: slot.segmentStarts.atLeast(4 * (segments + 1)),
      ...(segmentData ? { segmentData: slot.segmentData.atLeast(segmentData.byteLength) } : {}),
      minima: slot.minima.atLeast(bytes),
      readback: slot.readback.atLeast(bytes),
    };
    const queue = this.device.queue;
    // WebGPU takes shared memory too (AllowSharedBufferSource); the TypeScript types are narrower.
    const shingles = batch.shingles as Uint32Array<ArrayBuffer>;
    queue.writeBuffer(buffers.shingles, 0, shingles, 2 * chunk.firstShingle, words);
    queue.writeBuffer(buffers.segmentStarts, 0, chunk.segmentStarts);
    if (segmentData) queue.writeBuffer(buffers.segmentData!, 0, segmentData);
    queue.writeBuffer(buffers.params, 0, Uint32Array.of(segments, this.grid(chunk).x));
    return buffers;
  }

  private submit(buffers: ChunkBuffers, chunk: Chunk, withCopyOut: boolean): void {
    const segments = segmentCount(chunk);
    const bytes = this.minimaBytes(chunk);
    const bindGroup = this.device.createBindGroup({
      label: 'gpudedup minhash bindings',
      layout: this.pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: buffers.params, size: 8 } },
        { binding: 1, resource: { buffer: this.coefficients } },
        { binding: 2, resource: { buffer: buffers.shingles, size: 8 * (chunk.endShingle - chunk.firstShingle) } },
        { binding: 3, resource: { buffer: buffers.segmentStarts, size: 4 * (segments + 1) } },
        { binding: 4, resource: { buffer: buffers.minima, size: bytes } },
        ...(buffers.segmentData ? [{ binding: 5, resource: { buffer: buffers.segmentData, size: 4 * segments } }] : []),
      ],
    });
    const encoder = this.device.createCommandEncoder({ label: 'gpudedup minhash chunk' });
    const pass = encoder.beginComputePass({ label: 'gpudedup minhash' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, bindGroup);
    const grid = this.grid(chunk);
    pass.dispatchWorkgroups(grid.x, grid.y);
    pass.end();
    if (withCopyOut) encoder.copyBufferToBuffer(buffers.minima, 0, buffers.readback, 0, bytes);
    this.device.queue.submit([encoder.finish({ label: 'gpudedup minhash chunk' })]);
  }

  private submitCopyOut(buffers: ChunkBuffers, chunk: Chunk): void {
    const encoder = this.device.createCommandEncoder({ label: 'gpudedup minhash copy-out' });
    encoder.copyBufferToBuffer(buffers.minima, 0, buffers.readback, 0, this.minimaBytes(chunk));
    this.device.queue.submit([encoder.finish({ label: 'gpudedup minhash copy-out' })]);
  }

  /** Waits for the chunk's partial minima (or any error of its steps) and folds them into `out`. */
  private async readBack(
    buffers: ChunkBuffers,
    chunk: Chunk,
    out: Uint32Array,
    errors: Promise<void>[],
    profileStart?: number,
  ): Promise<void> {
    const bytes = this.minimaBytes(chunk);
    const readback = buffers.readback;
    await this.watch.guard(Promise.all([readback.mapAsync(GPUMapMode.READ, 0, bytes), ...errors]));
    try {
      const minima = new Uint32Array(readback.getMappedRange(0, bytes));
      const combineStart = performance.now();
      if (profileStart !== undefined) this.stats.readbackMs += combineStart - profileStart;
      combineSegments(minima, chunk, this.k, out);
      if (profileStart !== undefined) this.stats.combineMs += performance.now() - combineStart;
    } finally {
      readback.unmap();
    }
  }

  private minimaBytes(chunk: Chunk): number {
    return 8 * this.k * segmentCount(chunk);
  }

  private grid(chunk: Chunk): { x: number; y: number } {
    const invocations = segmentCount(chunk) * this.kernel.invocationsPerSegment(this.k);
    return workgroupGrid(invocations, this.workgroupSize, this.device.limits.maxComputeWorkgroupsPerDimension);
  }
}
