/**
 * Banding on worker threads: each worker buckets the bands it is sent (band b goes to worker b mod W) into a
 * PairSet of its own, then sends its pairs back sorted; this thread merges them. The union of the bands' pairs,
 * sorted, is what findCandidates gives on one thread, so the candidates are the same, in the same order. No Node
 * imports: the tab's workers could run it as Node's do.
 */
import { BucketTable } from './bucketTable.js';
import {
  bandedDocuments,
  bandPairs,
  checkedBanding,
  noBuckets,
  type CandidateOptions,
  type Candidates,
} from './candidates.js';
import { mergeSortedKeys, PairSet, pairsOfKeys } from './pairSet.js';
import type { SignatureMatrix } from './signatureMatrix.js';
import type { LshParams } from './lshParams.js';
import { bandKeysOfMatrix, type BandKeySource } from './bandKeySource.js';
import { isShared } from './sharedMemory.js';

export type BandRequest =
  /**
   * One band's keys (transferred), or the shared matrix they are computed from there, into the worker's pairs of
   * this banding run.
   */
  | {
      readonly type: 'band';
      readonly keys: Uint32Array | MatrixBand;
      readonly count: number;
      readonly include: Uint8Array;
      readonly maxBucketPairs: number;
    }
  /** The run's pairs, sorted, and its bucket counts; the worker forgets them. */
  | { readonly type: 'band pairs' };

/** Band `band` of a matrix in shared memory, banded by `lsh`: the worker computes its keys where the rows lie. */
interface MatrixBand {
  readonly matrix: SignatureMatrix;
  readonly band: number;
  readonly lsh: LshParams;
}

export interface BandResponse {
  readonly keys?: Float64Array;
  readonly stats?: ReturnType<typeof noBuckets>;
}

/** Workers that answer BandRequests, whatever starts them. */
export interface BandWorkerPool {
  readonly size: number;
  request(worker: number, request: BandRequest, transfer?: readonly ArrayBuffer[]): Promise<BandResponse>;
}

/** The worker's side: one banding run at a time. */
export function bandHandler() {
  let table: BucketTable | undefined;
  let pairs: PairSet | undefined;
  let stats = noBuckets();
  let computed = new Uint32Array(0);
  return (request: BandRequest): { response: BandResponse; transfer: ArrayBuffer[] } => {
    if (request.type === 'band pairs') {
      const keys = pairs?.sortedKeys() ?? new Float64Array(0);
      const response = { keys, stats };
      pairs = undefined;
      stats = noBuckets();
      // The run is over: its bucket table goes too (43 MiB a worker at 780 k texts, held through verification before).
      table = undefined;
      computed = new Uint32Array(0);
      return { response, transfer: [keys.buffer as ArrayBuffer] };
    }
    const { count } = request;
    if (table === undefined || table.documents < count) table = new BucketTable(count);
    pairs ??= new PairSet(count);
    let { keys } = request;
    if (!(keys instanceof Uint32Array)) {
      if (computed.length < 2 * count) computed = new Uint32Array(2 * count);
      const { matrix, band, lsh } = keys;
      // The banded documents' keys only: bucketing reads no other.
      bandKeysOfMatrix(matrix, band, lsh, request.include, computed);
      keys = computed;
    }
    bandPairs(table, keys, count, request.include, request, pairs, stats);
    return { response: {}, transfer: [] };
  };
}

/** findCandidates (without `reference`) on the workers: the same candidates and counts. */
export async function findCandidatesOn(
  workers: BandWorkerPool,
  source: SignatureMatrix | BandKeySource,
  options: Omit<CandidateOptions, 'reference'>,
): Promise<Candidates> {
  const { keys, maxBucketPairs } = checkedBanding(source, options);
  const include = bandedDocuments(keys, options.include);
  const sent: Promise<BandResponse>[] = [];
  let done = 0;
  // A dense matrix in shared memory: each worker computes its bands' keys where the rows lie, not this thread.
  const { matrix } = keys;
  const shared = matrix !== undefined && matrix.rowAt === undefined && isShared(matrix.words) ? matrix : undefined;
  for (let band = 0; band < options.bands; band++) {
    // keysOf reuses its array: each band's keys are copied out, and handed over.
    const bandKeys = shared ? { matrix: shared, band, lsh: keys.lsh } : keys.keysOf(band).slice();
    const transfer = bandKeys instanceof Uint32Array ? [bandKeys.buffer] : [];
    const request = { type: 'band', keys: bandKeys, count: keys.count, include, maxBucketPairs } as const;
    sent.push(workers.request(band % workers.size, request, transfer).then((r) => (options.onBand?.(++done), r)));
    // At most two bands a worker in flight: the keys of all bands at once could pass the memory limit.
    if (sent.length >= 2 * workers.size) await sent[sent.length - 2 * workers.size];
  }
  await Promise.all(sent);
  const answers = await Promise.all(
    Array.from({ length: workers.size }, (_, w) => workers.request(w, { type: 'band pairs' })),
  );
  const stats = noBuckets();
  for (const { stats: s } of answers) {
    stats.buckets += s!.buckets;
    stats.bigBuckets += s!.bigBuckets;
    stats.largestBucket = Math.max(stats.largestBucket, s!.largestBucket);
  }
  return { ...pairsOfKeys(mergeSortedKeys(answers.map((a) => a.keys!)), keys.count), stats };
}
