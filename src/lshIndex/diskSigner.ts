/**
 * The persistent index's signer (Node): small batches on this thread, larger
 * ones on a worker pool opened on first use.
 */
import type { FirstPassSigner } from '../firstPass/signedUnits.js';
import { hashFamilyOf } from '../signatures/params.js';
import { openSigner } from '../firstPass/node/resolveBackend.js';
import { signatureParamsOf, type IndexParameters, type OpenOptions } from './options.js';
import { inlineIndexSigner, signTexts, type SignedTexts } from './signing.js';

/** Texts up to this many characters are signed on this thread (no worker round trip); more go to the worker pool. */
const INLINE_CHARACTERS = 1 << 18;

export class DiskSigner {
  private inline?: FirstPassSigner;
  private pool?: Awaited<ReturnType<typeof openSigner>>;

  constructor(
    private readonly settings: IndexParameters,
    private readonly options: OpenOptions,
  ) {}

  async sign(
    texts: readonly string[],
    keepSets: boolean,
    onSigned?: (signed: SignedTexts, from: number, to: number) => void,
  ): Promise<SignedTexts> {
    let characters = 0;
    for (const t of texts) characters += t.length;
    if (characters <= INLINE_CHARACTERS) {
      this.inline ??= inlineIndexSigner(this.settings);
      return signTexts(texts, this.inline, this.settings, keepSets, onSigned);
    }
    this.pool ??= await openSigner(this.options.backend ?? 'cpu', hashFamilyOf(signatureParamsOf(this.settings)), {
      cpuThreads: this.options.threads,
    });
    return signTexts(texts, this.pool.firstPass, this.settings, keepSets, onSigned);
  }

  /** Ends the worker pool, if one was opened. */
  destroy(): void {
    this.pool?.signer.destroy();
    this.pool?.firstPass.workers.destroy();
  }
}
