/**
 * The one small interface both signing backends implement.
 *
 * A batch is the shingle sets of many documents packed end to end (CSR form):
 * document d owns shingles [offsets[d], offsets[d + 1]) of `shingles`, each a
 * (lo, hi) pair of 32-bit words. A signature is k slots per document, each a
 * (lo, hi) pair: exactly the little-endian uint64 layout of a .npy row.
 */

export interface ShingleBatch {
  /** (lo, hi) pairs of all documents, back to back. */
  readonly shingles: Uint32Array;
  /** documents + 1 offsets into `shingles`, counted in shingles (pairs), not words. */
  readonly offsets: Uint32Array;
}

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

export function documentCount(batch: ShingleBatch): number {
  return batch.offsets.length - 1;
}
