/**
 * The embedded WebAssembly modules (base64 in the generated kernels.generated.ts
 * beside each kernel's .wat): decoding, synchronous instantiation, and growing
 * an instance's memory. No Node imports: browsers and worker threads load the
 * kernels exactly as Node does.
 */
const PAGE = 65536;

export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A new instance (its own memory) of an embedded module; throws where WebAssembly is missing or rejects it. */
export function instantiateEmbedded(base64: string): WebAssembly.Instance {
  return new WebAssembly.Instance(new WebAssembly.Module(decodeBase64(base64)), {});
}

/** Grows `memory` to hold at least `bytes`. */
export function reserveMemory(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
}

/**
 * A kernel instantiated on first use, one per thread: `get` gives its exports,
 * or undefined where it cannot load (`unavailable` says why, and the caller
 * takes its TypeScript path); `dropIfOver` lets an instance whose memory a
 * huge input grew be replaced by a fresh one.
 */
export class LazyKernel<Exports extends { readonly memory: WebAssembly.Memory }> {
  private exports: Exports | undefined;
  private failure: Error | undefined;

  constructor(private readonly base64: string) {}

  get(): Exports | undefined {
    if (this.exports || this.failure) return this.exports;
    try {
      this.exports = instantiateEmbedded(this.base64).exports as unknown as Exports;
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
    return this.exports;
  }

  get unavailable(): Error | undefined {
    this.get();
    return this.failure;
  }

  /** Drops the instance (the next `get` makes another) when its memory is past `bytes`. */
  dropIfOver(bytes: number): void {
    if (this.exports && this.exports.memory.buffer.byteLength > bytes) this.exports = undefined;
  }
}
