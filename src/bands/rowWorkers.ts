/**
 * Spilled signature rows (src/pipeline/dedup/rowSpill.ts) read in ranges: every band's keys, and the candidates'
 * rows after banding. The same functions run on this thread or on worker threads, each worker reading its ranges
 * from the file by its path and writing into shared memory (or, for keys bound for disk, sending its range's keys
 * back); the keys and rows are the same either way. No Node imports: the file is opened through `OpenWords`.
 */
import type { OpenWords } from '../workers/wordFiles.js';
import type { BandLayout } from './bBitSlots.js';
import { bandKey } from './bandKeys.js';
import type { LshParams } from './lshParams.js';
import { isEmptySignature, signatureMatrix, type SignatureMatrix, type SlotBits } from './signatureMatrix.js';

/** A file of rows, `width` words each. */
export interface RowFile {
  readonly path: string;
  readonly k: number;
  readonly slotBits: SlotBits;
  readonly bands?: BandLayout;
  readonly width: number;
}

/** Rows [first, first + count) of the file. */
interface RowRange {
  readonly file: RowFile;
  readonly first: number;
  readonly count: number;
}

export type RowRequest =
  /** The range's band keys into `columns` (shared; 2 words a document, all documents), or sent back without them. */
  | (RowRange & {
      readonly type: 'row keys';
      readonly lsh: LshParams;
      /** Shared: 1 for each document whose signature is not empty. */
      readonly nonEmpty: Uint8Array;
      readonly columns?: readonly Uint32Array[];
    })
  /** The range's rows at `rowAt[d − first]` ≥ 0 copied to that row of `words` (shared). */
  | (RowRange & { readonly type: 'row copy'; readonly rowAt: Int32Array; readonly words: Uint32Array });

export interface RowResponse {
  /** Per band, the range's keys, when no columns were given. */
  readonly keys?: Uint32Array[];
}

/** Workers that answer RowRequests, whatever starts them. */
export interface RowWorkerPool {
  readonly size: number;
  request(worker: number, request: RowRequest, transfer?: readonly ArrayBuffer[]): Promise<RowResponse>;
}

/** What reads a file's words: a worker's reader, or the spill's own file on this thread. */
interface Words {
  read(into: Uint32Array, fromWord: number): void;
}

/** 16 MiB of rows read at a time. */
const BLOCK_BYTES = 16 * 2 ** 20;

/** Calls `visit` with consecutive blocks of the range's rows as matrices, `at` the block's first row in the range. */
function forEachBlock(
  words: Words,
  { file, first, count }: RowRange,
  visit: (block: SignatureMatrix, at: number) => void,
) {
  const rowsPerBlock = Math.max(1, Math.floor(BLOCK_BYTES / 4 / file.width));
  const buffer = new Uint32Array(Math.min(count, rowsPerBlock) * file.width);
  for (let at = 0; at < count; at += rowsPerBlock) {
    const rows = buffer.subarray(0, Math.min(rowsPerBlock, count - at) * file.width);
    words.read(rows, (first + at) * file.width);
    visit(signatureMatrix(rows, file.k, file.slotBits, file.bands), at);
  }
}

/** A range's band keys: into `columns` at each document's place, else into per-band arrays of the range, returned. */
export function rangeKeys(words: Words, request: Omit<Extract<RowRequest, { type: 'row keys' }>, 'type'>) {
  const { first, count, lsh, nonEmpty, columns } = request;
  const own = columns ? undefined : Array.from({ length: lsh.bands }, () => new Uint32Array(2 * count));
  forEachBlock(words, request, (block, at) => {
    for (let d = 0; d < block.count; d++) {
      const doc = first + at + d;
      nonEmpty[doc] = isEmptySignature(block, d) ? 0 : 1;
      if (nonEmpty[doc] === 0) continue;
      for (let band = 0; band < lsh.bands; band++) {
        if (own) bandKey(block, d, band, lsh, own[band], 2 * (at + d));
        else bandKey(block, d, band, lsh, columns![band], 2 * doc);
      }
    }
  });
  return own;
}

/** Copies the range's rows flagged in `rowAt` (≥ 0: their row in `words`). */
export function copyRows(words: Words, request: Omit<Extract<RowRequest, { type: 'row copy' }>, 'type'>): void {
  const { width } = request.file;
  forEachBlock(words, request, (block, at) => {
    for (let d = 0; d < block.count; d++) {
      const row = request.rowAt[at + d];
      if (row >= 0) request.words.set(block.words.subarray(d * width, (d + 1) * width), row * width);
    }
  });
}

/** The worker's side: each request opens the file, reads its range, and closes it. */
export function rowHandler(open: OpenWords) {
  return (request: RowRequest): { response: RowResponse; transfer: ArrayBuffer[] } => {
    const reader = open(request.file.path);
    try {
      if (request.type === 'row copy') {
        copyRows(reader, request);
        return { response: {}, transfer: [] };
      }
      const keys = rangeKeys(reader, request);
      return { response: { keys }, transfer: keys?.map((k) => k.buffer as ArrayBuffer) ?? [] };
    } finally {
      reader.close();
    }
  };
}

/**
 * Sends range i's request (`make(i)`) to worker i mod W for i < ranges, at most two a worker in flight, and hands
 * each answer to `take` in range order (keys bound for a file are appended in order).
 */
export async function rangesOn(
  pool: RowWorkerPool,
  ranges: number,
  make: (range: number) => RowRequest,
  take: (range: number, response: RowResponse) => void = () => undefined,
): Promise<void> {
  const sent: Promise<RowResponse>[] = [];
  let taken = 0;
  try {
    for (let i = 0; i < ranges; i++) {
      const answer = pool.request(i % pool.size, make(i));
      answer.catch(() => undefined); // a failure is thrown where the answer is awaited, in order: not unhandled now
      sent.push(answer);
      if (sent.length - taken >= 2 * pool.size) take(taken, await sent[taken++]);
    }
    while (taken < ranges) take(taken, await sent[taken++]);
  } finally {
    await Promise.allSettled(sent); // nothing still writes into the arrays once this returns
  }
}
