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

/**
 * 16 bits of a tree's prefix of first fingerprint `first` and second `second` (0 for a tree of one slot): the first's
 * bits below its bucket's, then the second's leading bits. Within a bucket, prefixes whose keys differ are ordered as
 * their keys; equal keys say only that the first fingerprints are equal (issue 39: a search reads a tree's keys beside
 * its sorted rows, one cache line for many probes, instead of each probed row's fingerprints, at random).
 */
export const prefixKey = (first: number, second: number): number =>
  ((first << DIRECTORY_BITS) & 0xffff) | (second >>> (16 - DIRECTORY_BITS));

/** Entries of a directory over `trees` trees of `partitions` partitions. */
export const directoryLength = (trees: number, partitions: number): number => trees * partitions * (BUCKETS + 1);

/**
 * Fills tree t's entries ((t · partitions + p) · (BUCKETS + 1) + b): the first position of tree t's partition p whose
 * first fingerprint's bucket is b or more (the partition's end for b = BUCKETS). `firstAt(position)`: the first
 * fingerprint of the row at that position of the tree (sorted by partition, then prefix).
 */
export function fillDirectory(
  out: Uint32Array,
  t: number,
  starts: readonly number[],
  firstAt: (position: number) => number,
): void {
  const partitions = starts.length - 1;
  for (let p = 0; p < partitions; p++) {
    const at = (t * partitions + p) * (BUCKETS + 1);
    let position = starts[p];
    const end = starts[p + 1];
    for (let b = 0; b <= BUCKETS; b++) {
      while (position < end && bucketOf(firstAt(position)) < b) position++;
      out[at + b] = position;
    }
  }
}

/** Where in the directory tree t's partition p's bucket of first fingerprint `first` begins: it ends at the next entry. */
export const bucketAt = (partitions: number, t: number, p: number, first: number): number =>
  (t * partitions + p) * (BUCKETS + 1) + bucketOf(first);
