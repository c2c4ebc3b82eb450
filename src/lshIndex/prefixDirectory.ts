/**
 * A directory over an LSH Forest's sorted trees (forest.ts): for each tree and
 * size partition, where the rows whose first fingerprint starts with each
 * DIRECTORY_BITS-bit value begin. A prefix search of r ≥ 1 slots then looks
 * only among the rows of its first fingerprint's bucket (about 1/1024 of the
 * partition) instead of the whole partition: at 1 M documents the descent's
 * binary searches (every tree × partition × depth × segment) were a fifth of
 * a query's CPU, most of it cache misses. 4 bytes per bucket: 32 trees × a
 * dozen partitions × 1,025 ≈ 1.6 MB a segment. Browser-safe.
 */

/** The leading bits of a fingerprint a bucket is named by. */
export const DIRECTORY_BITS = 10;
const BUCKETS = 1 << DIRECTORY_BITS;

/** The bucket of a 16-bit fingerprint. */
export const bucketOf = (fingerprint: number): number => fingerprint >>> (16 - DIRECTORY_BITS);

/** What the directory is built from: the forest's layout. */
export interface SortedTrees {
  readonly shape: { readonly trees: number; readonly depth: number };
  readonly slots: number;
  readonly banded: number;
  readonly sorted: Uint32Array;
  readonly fingerprints: Uint16Array;
  /** Partition i holds positions [starts[i], starts[i+1]) of every tree. */
  readonly starts: readonly number[];
}

/**
 * Entry ((t · partitions + p) · (BUCKETS + 1) + b): the first position of tree t's partition p whose first
 * fingerprint's bucket is b or more (the partition's end for b = BUCKETS).
 */
export function buildDirectory(f: SortedTrees): Uint32Array {
  const { trees, depth } = f.shape;
  const partitions = f.starts.length - 1;
  const out = new Uint32Array(Math.max(0, trees * partitions * (BUCKETS + 1)));
  for (let t = 0; t < trees; t++) {
    const base = t * f.banded;
    for (let p = 0; p < partitions; p++) {
      const at = (t * partitions + p) * (BUCKETS + 1);
      let position = f.starts[p];
      const end = f.starts[p + 1];
      for (let b = 0; b <= BUCKETS; b++) {
        while (position < end && bucketOf(f.fingerprints[f.sorted[base + position] * f.slots + t * depth]) < b)
          position++;
        out[at + b] = position;
      }
    }
  }
  return out;
}

/** Positions [from, to) of tree t's partition p where rows whose first fingerprint is `first` lie. */
export function bucketBounds(
  directory: Uint32Array,
  partitions: number,
  t: number,
  p: number,
  first: number,
): [number, number] {
  const at = (t * partitions + p) * (BUCKETS + 1) + bucketOf(first);
  return [directory[at], directory[at + 1]];
}
