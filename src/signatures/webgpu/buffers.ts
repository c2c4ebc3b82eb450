/**
 * GPU buffers of one in-flight chunk. The signer keeps two such slots so that
 * chunk i + 1 uploads while chunk i still computes and reads back; a slot is
 * reused only after its previous chunk has been read back (ChunkSlot.busy).
 */

/** A buffer that is replaced by a larger one when a chunk needs more room. */
export class GrowableBuffer {
  private buffer: GPUBuffer | undefined;

  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
    private readonly usage: GPUBufferUsageFlags,
    private readonly maxSize: number,
  ) {}

  /** A buffer of at least `bytes`; growth doubles, so a run resizes only a few times. */
  atLeast(bytes: number): GPUBuffer {
    if (this.buffer && this.buffer.size >= bytes) return this.buffer;
    // Limits are multiples of 4, so rounding up to 4 never passes maxSize when bytes does not.
    const grown = Math.min(2 * (this.buffer?.size ?? 0), this.maxSize);
    const size = Math.ceil(Math.max(bytes, grown, 256) / 4) * 4;
    this.buffer?.destroy();
    this.buffer = this.device.createBuffer({ label: this.label, size, usage: this.usage });
    return this.buffer;
  }

  destroy(): void {
    this.buffer?.destroy();
    this.buffer = undefined;
  }
}

export class ChunkSlot {
  /** The kernel's Params: segments, groups_x (padded to 16 bytes). */
  readonly params: GPUBuffer;
  readonly shingles: GrowableBuffer;
  readonly segmentStarts: GrowableBuffer;
  /** Per-segment words some kernels take (OPH: whether the segment is its whole document). */
  readonly segmentData: GrowableBuffer;
  readonly minima: GrowableBuffer;
  readonly readback: GrowableBuffer;
  /** Settles when this slot's last chunk has been read back and combined. */
  busy: Promise<void> = Promise.resolve();

  constructor(device: GPUDevice, name: string, maxBinding: number, maxBuffer: number) {
    const label = (what: string): string => `gpudedup ${name} ${what}`;
    this.params = device.createBuffer({
      label: label('params'),
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const storage = GPUBufferUsage.STORAGE;
    this.shingles = new GrowableBuffer(device, label('shingles'), storage | GPUBufferUsage.COPY_DST, maxBinding);
    this.segmentStarts = new GrowableBuffer(
      device,
      label('segment starts'),
      storage | GPUBufferUsage.COPY_DST,
      maxBinding,
    );
    this.segmentData = new GrowableBuffer(device, label('segment data'), storage | GPUBufferUsage.COPY_DST, maxBinding);
    this.minima = new GrowableBuffer(device, label('minima'), storage | GPUBufferUsage.COPY_SRC, maxBinding);
    this.readback = new GrowableBuffer(
      device,
      label('readback'),
      GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      maxBuffer,
    );
  }

  destroy(): void {
    this.params.destroy();
    this.shingles.destroy();
    this.segmentStarts.destroy();
    this.segmentData.destroy();
    this.minima.destroy();
    this.readback.destroy();
  }
}
