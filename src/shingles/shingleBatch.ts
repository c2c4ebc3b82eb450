/**
 * The shingle sets of many documents packed end to end (CSR form), the input
 * of every signing backend: document d owns shingles [offsets[d], offsets[d + 1])
 * of `shingles`, each a (lo, hi) pair of 32-bit words.
 */

export interface ShingleBatch {
  /** (lo, hi) pairs of all documents, back to back. */
  readonly shingles: Uint32Array;
  /** documents + 1 offsets into `shingles`, counted in shingles (pairs), not words. */
  readonly offsets: Uint32Array;
}

export function documentCount(batch: ShingleBatch): number {
  return batch.offsets.length - 1;
}

/** Packs shingle sets end to end: offsets count shingles, not words. */
export function pack(sets: readonly Uint32Array[]): ShingleBatch {
  const offsets = new Uint32Array(sets.length + 1);
  for (let i = 0; i < sets.length; i++) offsets[i + 1] = offsets[i] + sets[i].length / 2;
  const shingles = new Uint32Array(offsets[sets.length] * 2);
  for (let i = 0; i < sets.length; i++) shingles.set(sets[i], offsets[i] * 2);
  return { shingles, offsets };
}
