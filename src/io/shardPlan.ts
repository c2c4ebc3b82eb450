/**
 * Which pieces of the input each of `sign --shard I/N`'s N shards reads, so
 * that N shards read the corpus once in total, not N times.
 *
 * The files, in input order, are laid end to end on one line of T bytes (their
 * sizes on disk) and the line is cut at the N − 1 points ⌊i·T/N⌋: shard i owns
 * the bytes [⌊i·T/N⌋, ⌊(i+1)·T/N⌋). A file that cannot be split (a plain-text
 * file, a compressed one, a small one) goes whole to the shard owning its
 * middle byte; a Parquet file's row groups each go to the shard owning the
 * middle of its bytes; an uncompressed JSON Lines file is cut at the points
 * themselves, each line going to the shard that owns its first byte (the
 * reader moves the cut to the next line end, src/io/shardInputs.ts).
 *
 * Every shard computes the whole plan from the file list and sizes alone (and
 * what the files' first bytes and Parquet footers say), so machines that see
 * the same files agree on it without talking. Each shard's pieces are one
 * contiguous run of the input, in order, and shard i's run comes before shard
 * i+1's: ordering documents by (shard, ordinal in shard) orders them as the
 * whole input does. Pure: no I/O.
 */

/** How a file may be cut. */
export type FileSplit =
  | { readonly kind: 'whole' }
  /** Uncompressed JSON Lines: anywhere, at line ends. */
  | { readonly kind: 'bytes' }
  /** Parquet: between row groups; each group's compressed bytes. */
  | { readonly kind: 'groups'; readonly sizes: readonly number[] };

export interface PlannedFile {
  /** Bytes on disk. */
  readonly size: number;
  readonly split: FileSplit;
}

/** A piece of one file: whole, row groups [first, end), or the JSON lines whose first byte lies in [start, end). */
export type Piece =
  | { readonly kind: 'file'; readonly file: number }
  | { readonly kind: 'groups'; readonly file: number; readonly first: number; readonly end: number }
  | { readonly kind: 'bytes'; readonly file: number; readonly start: number; readonly end: number };

/**
 * Files at most this fraction of a shard's share are never split (nor their
 * first bytes read to see whether they could be): the plan's imbalance is at
 * most one such file per cut.
 */
export const WHOLE_FILE_SHARE = 1 / 8;

/**
 * Whether the file at bytes [at, at + size) of the line is worth looking into
 * for a split: big enough, and a cut falls inside it (else it is one shard's
 * anyway). At most N − 1 files are, so each shard reads at most N − 1 heads or
 * footers of files not its own.
 */
export function mayBeSplit(at: number, size: number, total: number, count: number): boolean {
  if (count <= 1 || size <= (total / count) * WHOLE_FILE_SHARE) return false;
  const next = ownerOf(at, total, count) + 1;
  return next < count && cut(next, total, count) < at + size;
}

/** Shard i's first byte on the line: ⌊i·T/N⌋, exact in BigInt arithmetic (i·T can pass 2^53). */
function cut(i: number, total: number, count: number): number {
  return Number((BigInt(i) * BigInt(total)) / BigInt(count));
}

/** The shard owning byte x of the line (0 ≤ x < T; clamped). */
function ownerOf(x: number, total: number, count: number): number {
  if (total === 0) return 0;
  const at = Math.min(Math.max(0, x), total - 1);
  let i = Math.min(count - 1, Number((BigInt(at) * BigInt(count)) / BigInt(total)));
  while (i + 1 < count && cut(i + 1, total, count) <= at) i++;
  while (i > 0 && cut(i, total, count) > at) i--;
  return i;
}

/** Each shard's pieces, in input order (shard 0 first). */
export function planShards(files: readonly PlannedFile[], count: number): Piece[][] {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`internal: shard count ${count}`);
  const total = files.reduce((sum, f) => sum + f.size, 0);
  const shards: Piece[][] = Array.from({ length: count }, () => []);
  let at = 0; // the file's first byte on the line
  files.forEach((f, file) => {
    const { split } = f;
    if (split.kind === 'bytes' && f.size > 0) {
      for (let i = ownerOf(at, total, count); i < count && cut(i, total, count) < at + f.size; i++) {
        const start = Math.max(at, cut(i, total, count)) - at;
        const end = Math.min(at + f.size, cut(i + 1, total, count)) - at;
        if (end > start) shards[i].push({ kind: 'bytes', file, start, end });
      }
    } else if (split.kind === 'groups' && split.sizes.length > 0) {
      // Groups spread over the whole file (its footer too), in proportion to their bytes.
      const groupBytes = split.sizes.reduce((a, b) => a + b, 0);
      const scale = groupBytes > 0 ? f.size / groupBytes : 0;
      let before = 0;
      split.sizes.forEach((size, group) => {
        const owner = ownerOf(at + Math.floor((before + size / 2) * scale), total, count);
        before += size;
        const last = shards[owner].at(-1);
        if (last?.kind === 'groups' && last.file === file && last.end === group)
          shards[owner][shards[owner].length - 1] = { ...last, end: group + 1 };
        else shards[owner].push({ kind: 'groups', file, first: group, end: group + 1 });
      });
    } else {
      shards[ownerOf(at + Math.floor(f.size / 2), total, count)].push({ kind: 'file', file });
    }
    at += f.size;
  });
  return shards;
}
