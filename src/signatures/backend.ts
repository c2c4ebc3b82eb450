/**
 * The one small interface both signing backends implement: a ShingleBatch
 * (src/shingles/shingleBatch.ts) in, k slots per document out, each a (lo, hi)
 * pair: exactly the little-endian uint64 layout of a .npy row.
 */
import type { ShingleBatch } from '../shingles/shingleBatch.js';

export { documentCount, type ShingleBatch } from '../shingles/shingleBatch.js';

export type BackendKind = 'cpu' | 'webgpu';

export interface SignerBackend {
  readonly kind: BackendKind;
  /** Human-readable: for the GPU, the adapter's vendor, architecture and backend. */
  readonly description: string;
  readonly k: number;
  /**
   * Signatures of every document in the batch, documents·k·2 words. A document
   * with no shingles gets every slot at all-ones (0xffffffff, 0xffffffff).
   */
  sign(batch: ShingleBatch): Promise<Uint32Array>;
  /** Releases devices and buffers; the backend is unusable afterwards. */
  destroy(): void;
}

/** The all-ones word that fills every slot of an empty document. */
export const EMPTY_SLOT_WORD = 0xffffffff;
