/**
 * Wraps a primary backend (the GPU) so that a failed batch, and every batch
 * after it, is signed on the CPU instead. Each call signs exactly its own batch
 * once, so documents are neither lost nor duplicated; results stay in call order.
 */
import type { ShingleBatch, SignerBackend } from './backend.js';
import { CpuSigner } from './cpuSigner.js';
import type { HashFamily } from './hashFamily.js';

export class FallbackSigner implements SignerBackend {
  readonly k: number;
  private readonly cpu: CpuSigner;
  private failure: Error | undefined;

  constructor(
    private readonly primary: SignerBackend,
    family: HashFamily,
    private readonly onFallback: (error: Error) => void = () => undefined,
  ) {
    this.k = family.k;
    this.cpu = new CpuSigner(family);
  }

  get kind(): SignerBackend['kind'] {
    return this.failure ? 'cpu' : this.primary.kind;
  }

  get description(): string {
    return this.failure
      ? `${this.primary.description}, then CPU after a failure (${this.failure.message})`
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
    return this.cpu.sign(batch);
  }

  destroy(): void {
    if (!this.failure) this.primary.destroy();
  }
}
