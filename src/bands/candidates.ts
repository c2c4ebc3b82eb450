/**
 * Candidate pairs from LSH banding: documents that share a bucket in any band.
 *
 * The big-bucket rule keeps pair counts linear: a bucket of up to
 * `maxBucketPairs` members yields all its pairs; a larger one (boilerplate, a
 * template copied thousands of times) pairs each member with the bucket's
 * first member and with its successor in input order. Union-find joins
 * transitively, so the star connects every member that verifies against the
 * first, and the chain still connects the others when the first member is an
 * outlier that verifies against nobody. Per band this gives at most
 * max((maxBucketPairs − 1)/2, 2) pairs per document.
 */
import { matrixBandKeys, type BandKeySource } from './bandKeySource.js';
import { BucketTable } from './bucketTable.js';
import { checkParams, sameBanding, type LshParams } from './lshParams.js';
import { PairSet, type PairList } from './pairSet.js';
import type { SignatureMatrix } from './signatureMatrix.js';

export const DEFAULT_MAX_ALL_PAIRS = 16;

export interface CandidateOptions extends LshParams {
  /** Buckets up to this size give all pairs; larger ones a star around their first member. */
  readonly maxBucketPairs?: number;
  /**
   * Decontamination: documents flagged 1 are the reference set. Only pairs of a
   * reference and a non-reference document are made; in a big bucket each
   * non-reference member pairs with the bucket's first reference member.
   */
  readonly reference?: Uint8Array;
  /** Only documents flagged 1 take part (empty signatures never do). */
  readonly include?: Uint8Array;
  /** Called after each band, for progress bars. */
  readonly onBand?: (bandsDone: number) => void;
}

export interface CandidateStats {
  /** Buckets of two or more members, summed over bands. */
  readonly buckets: number;
  /** Buckets larger than maxBucketPairs, summed over bands. */
  readonly bigBuckets: number;
  /** Largest bucket seen. */
  readonly largestBucket: number;
}

export interface Candidates extends PairList {
  readonly stats: CandidateStats;
}

/** Candidate pairs of the documents of a signature matrix, or of band keys computed before (spilled signatures). */
export function findCandidates(source: SignatureMatrix | BandKeySource, options: CandidateOptions): Candidates {
  const { keys, maxBucketPairs } = checkedBanding(source, options);
  const include = bandedDocuments(keys, options.include);
  const table = new BucketTable(keys.count);
  const pairs = new PairSet(keys.count);
  const stats = noBuckets();
  for (let band = 0; band < options.bands; band++) {
    bandPairs(
      table,
      keys.keysOf(band),
      keys.count,
      include,
      { maxBucketPairs, reference: options.reference },
      pairs,
      stats,
    );
    options.onBand?.(band + 1);
  }
  return { ...pairs.toSortedList(), stats };
}

/** The band keys of `source` and the big-bucket size, checked against `options`. */
export function checkedBanding(
  source: SignatureMatrix | BandKeySource,
  options: CandidateOptions,
): { keys: BandKeySource; maxBucketPairs: number } {
  checkParams(options, source.k);
  const keys = 'words' in source ? matrixBandKeys(source, options) : source;
  if (keys.lsh.rows !== options.rows || keys.lsh.bands < options.bands || !sameSlots(keys.lsh, options)) {
    throw new RangeError(
      `band keys computed for ${keys.lsh.bands} × ${keys.lsh.rows}, asked for ${options.bands} × ${options.rows}`,
    );
  }
  const maxBucketPairs = options.maxBucketPairs ?? DEFAULT_MAX_ALL_PAIRS;
  if (!Number.isInteger(maxBucketPairs) || maxBucketPairs < 2)
    throw new RangeError(`maxBucketPairs must be an integer ≥ 2, got ${maxBucketPairs}`);
  return { keys, maxBucketPairs };
}

/** Whether keys computed for `computed` serve `asked` (its first bands): the same slots, when either has a list. */
function sameSlots(computed: LshParams, asked: LshParams): boolean {
  if (computed.slots === undefined && asked.slots === undefined) return true;
  return sameBanding(computed, { ...asked, bands: computed.bands });
}

/** The documents that take part in banding: non-empty, and flagged in `include` when given. */
export function bandedDocuments(keys: BandKeySource, include?: Uint8Array): Uint8Array {
  const banded = keys.nonEmpty.slice();
  if (include !== undefined) for (let d = 0; d < keys.count; d++) banded[d] &= include[d];
  return banded;
}

export const noBuckets = (): { buckets: number; bigBuckets: number; largestBucket: number } => ({
  buckets: 0,
  bigBuckets: 0,
  largestBucket: 0,
});

/** One band's buckets (keys of `count` documents) into `pairs`, counted in `stats`: what each band of findCandidates does. */
export function bandPairs(
  table: BucketTable,
  keys: Uint32Array,
  count: number,
  include: Uint8Array,
  options: { readonly maxBucketPairs: number; readonly reference?: Uint8Array },
  pairs: PairSet,
  stats: ReturnType<typeof noBuckets>,
): void {
  const { maxBucketPairs, reference } = options;
  const emit = (x: number, y: number): void => {
    pairs.add(x, y);
  };
  table.forEachBucket(keys, count, include, (members, size) => {
    stats.buckets++;
    if (size > maxBucketPairs) stats.bigBuckets++;
    if (size > stats.largestBucket) stats.largestBucket = size;
    if (reference === undefined) pairsInBucket(members, size, maxBucketPairs, emit);
    else crossPairsInBucket(members, size, maxBucketPairs, reference, emit);
  });
}

/** All pairs of a small bucket, or a star around its first (earliest) member plus a chain of neighbours. */
export function pairsInBucket(
  members: Uint32Array,
  size: number,
  maxBucketPairs: number,
  emit: (a: number, b: number) => void,
): void {
  if (size <= maxBucketPairs) {
    for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) emit(members[i], members[j]);
  } else {
    for (let j = 1; j < size; j++) emit(members[0], members[j]);
    for (let j = 2; j < size; j++) emit(members[j - 1], members[j]);
  }
}

/**
 * Reference × corpus pairs of a bucket: all of them when small; in a big one,
 * each corpus member with the bucket's first few reference members (anchors),
 * so one outlier reference first in the bucket cannot hide the others. There
 * is no transitivity to lean on here (a match is a direct pair), hence more
 * than one anchor; the count stays bounded, so pairs stay linear.
 */
export function crossPairsInBucket(
  members: Uint32Array,
  size: number,
  maxBucketPairs: number,
  reference: Uint8Array,
  emit: (a: number, b: number) => void,
): void {
  if (size <= maxBucketPairs) {
    for (let i = 0; i < size; i++) {
      for (let j = i + 1; j < size; j++)
        if (reference[members[i]] !== reference[members[j]]) emit(members[i], members[j]);
    }
    return;
  }
  const anchors: number[] = [];
  const wanted = referenceAnchors(maxBucketPairs);
  for (let i = 0; i < size && anchors.length < wanted; i++) if (reference[members[i]] === 1) anchors.push(members[i]);
  for (const anchor of anchors)
    for (let i = 0; i < size; i++) if (reference[members[i]] === 0) emit(anchor, members[i]);
}

/** Reference members each corpus member of a big bucket is paired with: 4 with the default 16. */
export function referenceAnchors(maxBucketPairs: number): number {
  return Math.max(2, Math.floor(maxBucketPairs / 4));
}
