/**
 * The order in which the workers decide a call's pairs when sets lie in the
 * spill file: by the file position of the later of each pair's two sets. The
 * workers then read the file front to back (the kernel's read-ahead streams
 * it), and each pair's earlier set lies behind that front, where the page
 * cache holds what was read last. In candidate order instead, every pair's
 * later set is a random read ahead of the front: at 10 M, where the 18.5 GB
 * of sets pass the page cache's room, that made verification wait on the disk
 * (bench/RESULTS.md). Where the file fits the page cache (1 M: 1.9 GB) the
 * order gains nothing and costs this thread a sort, so the spool asks for it
 * only past half the memory available (SharedSets.readInFileOrder). Decisions
 * do not depend on the order; the callers get them in candidate order.
 */
import type { SharedSets } from '../firstPass/sharedSets.js';

/** 256 KiB of the file a bucket: finer than read-ahead's window, coarse enough for a counting sort at 10 M pairs. */
const BUCKET_WORDS = 2 ** 16;

/**
 * Pair indexes in the order described above (stable: candidate order within a bucket), or undefined where the sets
 * are not to be read in file order (none in a file, or a file the page cache holds: `readInFileOrder`).
 */
export function fileOrder(sets: SharedSets, a: Uint32Array, b: Uint32Array): Uint32Array | undefined {
  if (sets.file === undefined || sets.readInFileOrder !== true) return undefined;
  const { chunk, start } = sets;
  // Bucket 0: both sets held in memory; bucket 1 + i: the later set starts in the file's i-th 256 KiB.
  const bucketOf = (g: number): number => (chunk[g] < 0 ? 1 + Math.floor(start[g] / BUCKET_WORDS) : 0);
  const buckets = new Uint32Array(a.length);
  let last = 0;
  for (let i = 0; i < a.length; i++) {
    const bucket = Math.max(bucketOf(a[i]), bucketOf(b[i]));
    buckets[i] = bucket;
    if (bucket > last) last = bucket;
  }
  const next = new Float64Array(last + 2);
  for (let i = 0; i < a.length; i++) next[buckets[i] + 1]++;
  for (let bucket = 1; bucket < next.length; bucket++) next[bucket] += next[bucket - 1];
  const order = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) order[next[buckets[i]]++] = i;
  return order;
}
