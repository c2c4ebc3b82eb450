/**
 * Wraps a primary backend (the GPU) so that a failed batch, and every batch
 * after it, is signed on the CPU instead. Each call signs exactly its own batch
 * once, so documents are neither lost nor duplicated; results stay in call order.
 */
import type { ShingleBatch, SignerBackend } from './backend.js';
import { WasmSigner } from './wasmSigner.js';
import type { HashFamily } from './hashFamily.js';

export class FallbackSigner implements SignerBackend {
  readonly k: number;
  private cpu: SignerBackend | undefined;
  private failure: Error | undefined;
  private destroyed = false;

  /** `createCpu` makes the CPU backend on the first failure (Node passes a multi-threaded one). */
  constructor(
    private readonly primary: SignerBackend,
    private readonly family: HashFamily,
    private readonly onFallback: (error: Error) => void = () => undefined,
    private readonly createCpu: (family: HashFamily) => SignerBackend = (f) => new WasmSigner(f),
  ) {
    this.k = family.k;
  }

  get kind(): SignerBackend['kind'] {
    return this.failure ? 'cpu' : this.primary.kind;
  }

  get description(): string {
    return this.failure
      ? `${this.primary.description}, then ${this.cpu?.description ?? 'CPU'} after a failure (${this.failure.message})`
      : this.primary.description;
  }

  /** The error that made this signer fall back, if any. */
  get fallbackReason(): Error | undefined {
    return this.failure;
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    if (!this.failure) {
      try {
        return await this.primary.sign(batch);
      } catch (error) {
        // A batch still in flight when the run stopped for another reason (an output error, Ctrl-C) fails
        // because its signer was destroyed: that is not a GPU failure, and there is nothing left to sign.
        if (this.destroyed) throw error;
        if (!this.failure) {
          this.failure = error instanceof Error ? error : new Error(String(error));
          this.onFallback(this.failure);
          try {
            this.primary.destroy();
          } catch {
            // a lost device may refuse to be destroyed; the CPU carries on regardless
          }
        }
      }
    }
    this.cpu ??= this.createCpu(this.family);
    return this.cpu.sign(batch);
  }

  destroy(): void {
    this.destroyed = true;
    if (!this.failure) this.primary.destroy();
    this.cpu?.destroy();
  }
}
