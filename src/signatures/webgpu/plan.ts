/**
 * Cutting a batch into what one dispatch can take, from the device's limits.
 *
 * A batch (CSR: shingles + per-document offsets) becomes a list of chunks.
 * Each chunk uploads one contiguous range of the batch's shingles and cuts it
 * into segments, each a run of one document's shingles of at most `segmentCap`
 * shingles; the kernel writes k partial minima per segment and the host takes
 * the minimum over each document's segments. So a document longer than a
 * segment, or longer than a whole chunk, is simply several segments, possibly
 * in several chunks. Documents without shingles get no segment: their slots
 * stay all-ones, exactly as the CPU leaves them.
 */

/** The device limits the plan depends on (a subset of GPUSupportedLimits). */
export interface PlanLimits {
  readonly maxStorageBufferBindingSize: number;
  readonly maxBufferSize: number;
  readonly maxComputeWorkgroupsPerDimension: number;
}

export interface ChunkCapacity {
  /** Most shingles one chunk uploads. */
  readonly shingles: number;
  /** Most segments one chunk holds: bounded by its k·8-byte output rows and the dispatch size. */
  readonly segments: number;
}

/**
 * Default upper bound on a chunk's shingles (8 MiB of upload): far below any
 * device's binding limit, small enough that uploading one chunk overlaps the
 * kernel of the previous one, and that two chunks in flight stay cheap in memory.
 */
export const DEFAULT_CHUNK_SHINGLES = 1 << 20;

const BYTES_PER_PAIR = 8;
/** Invocation indices are u32 in the kernel; stay well clear of wrapping. */
const MAX_INVOCATIONS = 2 ** 31;

export function chunkCapacity(
  limits: PlanLimits,
  k: number,
  workgroupSize: number,
  maxChunkShingles: number = DEFAULT_CHUNK_SHINGLES,
): ChunkCapacity {
  const binding = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  const shingles = Math.min(Math.floor(binding / BYTES_PER_PAIR), maxChunkShingles);
  const maxGroups = limits.maxComputeWorkgroupsPerDimension ** 2;
  const invocations = Math.min(maxGroups * workgroupSize, MAX_INVOCATIONS);
  const segments = Math.min(
    Math.floor(binding / (BYTES_PER_PAIR * k)), // output rows
    Math.floor(binding / 4) - 1, // segment starts, one u32 each plus the end
    Math.floor(invocations / k), // one invocation per (segment, slot)
  );
  if (shingles < 1 || segments < 1) {
    throw new RangeError(
      `k = ${k} needs ${BYTES_PER_PAIR * k} bytes per document, more than this device binds (${binding})`,
    );
  }
  return { shingles, segments };
}

/** Below this a segment's k output words cost too much next to its cap·k hash evaluations. */
export const MIN_SEGMENT_CAP = 64;
/** Above this one invocation's loop is long enough to leave the rest of a big device idle. */
export const MAX_SEGMENT_CAP = 4096;
/** Invocations a dispatch should offer to keep a large GPU busy. */
const TARGET_INVOCATIONS = 1 << 18;

/**
 * Longest segment for a chunk of `shingles` shingles: as long as possible (less
 * readback and host combining per hash evaluation) while a full chunk still
 * yields about TARGET_INVOCATIONS (segment, slot) invocations.
 */
export function segmentCapFor(shingles: number, k: number): number {
  const cap = Math.floor((shingles * k) / TARGET_INVOCATIONS);
  return Math.min(MAX_SEGMENT_CAP, Math.max(MIN_SEGMENT_CAP, cap));
}

export interface Chunk {
  /** The chunk uploads the batch's shingles [firstShingle, endShingle) (pair indices). */
  readonly firstShingle: number;
  readonly endShingle: number;
  /** segments + 1 offsets, relative to firstShingle: segment s is [starts[s], starts[s + 1]). */
  readonly segmentStarts: Uint32Array<ArrayBuffer>;
  /** The batch-local document of each segment. */
  readonly segmentDocs: Uint32Array;
}

export function segmentCount(chunk: Chunk): number {
  return chunk.segmentDocs.length;
}

/** Cuts the documents of `offsets` (documents + 1 CSR offsets) into chunks and segments. */
export function planChunks(offsets: Uint32Array, capacity: ChunkCapacity, segmentCap: number): Chunk[] {
  if (!(segmentCap >= 1)) throw new RangeError(`segment cap must be at least 1, got ${segmentCap}`);
  const chunks: Chunk[] = [];
  let first = offsets[0] ?? 0;
  let starts: number[] = [0];
  let docs: number[] = [];
  const close = (end: number): void => {
    chunks.push({
      firstShingle: first,
      endShingle: end,
      segmentStarts: Uint32Array.from(starts),
      segmentDocs: Uint32Array.from(docs),
    });
    first = end;
    starts = [0];
    docs = [];
  };
  for (let d = 0; d + 1 < offsets.length; d++) {
    let s = offsets[d];
    const end = offsets[d + 1];
    // Shingles are contiguous across documents, so the chunk grows by exactly
    // each segment's length and never has a gap.
    while (s < end) {
      const room = capacity.shingles - (s - first);
      if (room === 0 || docs.length === capacity.segments) {
        close(s);
        continue;
      }
      const length = Math.min(end - s, segmentCap, room);
      s += length;
      docs.push(d);
      starts.push(s - first);
    }
  }
  if (docs.length > 0) close(first + starts[starts.length - 1]);
  return chunks;
}

/** Workgroups for `invocations`, folded into 2D past maxComputeWorkgroupsPerDimension. */
export function workgroupGrid(
  invocations: number,
  workgroupSize: number,
  maxPerDimension: number,
): { x: number; y: number } {
  const groups = Math.ceil(invocations / workgroupSize);
  const x = Math.max(1, Math.min(groups, maxPerDimension));
  const y = Math.ceil(groups / x);
  if (y > maxPerDimension) throw new RangeError(`${groups} workgroups do not fit a ${maxPerDimension}² grid`);
  return { x, y };
}

/**
 * Folds a chunk's partial minima (segments·k (lo, hi) pairs, row s = segment s)
 * into the batch's signatures `out` (documents·k pairs, prefilled all-ones).
 */
export function combineSegments(minima: Uint32Array, chunk: Chunk, k: number, out: Uint32Array): void {
  const docs = chunk.segmentDocs;
  for (let s = 0; s < docs.length; s++) {
    const from = 2 * k * s;
    const to = 2 * k * docs[s];
    for (let i = 0; i < 2 * k; i += 2) {
      const lo = minima[from + i];
      const hi = minima[from + i + 1];
      if (hi < out[to + i + 1] || (hi === out[to + i + 1] && lo < out[to + i])) {
        out[to + i] = lo;
        out[to + i + 1] = hi;
      }
    }
  }
}
