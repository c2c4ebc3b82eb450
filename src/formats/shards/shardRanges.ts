/**
 * Positions of shards that read only their own pieces of the input
 * (src/io/shardPlan.ts): how a shard numbers its documents, and how the
 * numbers become the whole input's positions. The shard file (shardFile.ts)
 * records the pieces in its metadata.
 */
/**
 * A shard that read only its pieces: shard i holds the i-th contiguous run of
 * the input, so positions are `i × 2^32 + ordinal in the shard` (rangePosition):
 * they order documents as the whole input does, which is all the join needs,
 * and a document's global 0-based position is its shard's offset (the
 * documents of the shards before it, rangeOffsets) plus its ordinal.
 */
export interface ShardRanges {
  /** SHA-256 of the whole plan (files, sizes, shard count, every shard's pieces): shards of one plan agree on it. */
  readonly plan: string;
  /** The input's bytes on disk. */
  readonly inputBytes: number;
  /**
   * This shard's pieces in order: the file, what of it (`whole`, `groups A-B` for row groups [A, B), `bytes A-B`), its
   * documents.
   */
  readonly pieces: readonly { readonly path: string; readonly part: string; readonly documents: number }[];
}

/** Ordinals of a ranges shard stay below this (2^32); shard indexes below 2^21, so positions stay exact doubles. */
export const RANGE_POSITION_STRIDE = 2 ** 32;

/** The position column of a ranges shard's `ordinal`-th document (0-based). */
export function rangePosition(shardIndex: number, ordinal: number): number {
  if (ordinal >= RANGE_POSITION_STRIDE)
    throw new RangeError(`a shard holds at most ${RANGE_POSITION_STRIDE} documents: use more shards`);
  return shardIndex * RANGE_POSITION_STRIDE + ordinal;
}

/** Each ranges shard's global offset, by shard index: the documents of the shards before it. */
export function rangeOffsets(
  metas: readonly { readonly shard: { readonly index: number; readonly count: number }; readonly documents: number }[],
): number[] {
  const counts = new Array<number>(metas[0]?.shard.count ?? 0).fill(0);
  for (const m of metas) counts[m.shard.index] = m.documents;
  let at = 0;
  return counts.map((n) => {
    const offset = at;
    at += n;
    return offset;
  });
}

/** The global 0-based position of a shard row's `position` (for ranges shards: offset + ordinal). */
export function globalPosition(position: number, offsets: readonly number[] | undefined): number {
  if (offsets === undefined) return position;
  const shard = Math.floor(position / RANGE_POSITION_STRIDE);
  return offsets[shard] + (position - shard * RANGE_POSITION_STRIDE);
}
