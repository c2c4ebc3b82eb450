/**
 * Signatures held on disk instead of in memory (the Node pipeline spills them
 * past its memory limit: src/pipeline/dedup/rowSpill.ts). Banding needs only the
 * band keys, computed in one pass over the rows; verification and clustering
 * need only the rows of candidate documents, loaded after banding as a sparse
 * matrix. This interface keeps src/clusters free of files.
 */
import type { BandKeySource } from './bandKeySource.js';
import { matrixBandKeys } from './bandKeySource.js';
import type { BandLayout } from './bBitSlots.js';
import type { LshParams } from './lshParams.js';
import type { RowWorkerPool } from './rowWorkers.js';
import type { SignatureMatrix, SlotBits } from './signatureMatrix.js';

export interface SpilledSignatures {
  readonly spilled: true;
  readonly count: number;
  readonly k: number;
  readonly slotBits: SlotBits;
  readonly bands?: BandLayout;
  /** Every document's band keys, from one pass over the rows. */
  bandKeys(lsh: LshParams, reading?: RowReading): Promise<BandKeySource>;
  /** The rows of the documents flagged 1 in `needed`, as a sparse matrix of all `count` documents. */
  load(needed: Uint8Array, reading?: RowReading): Promise<SignatureMatrix>;
}

/** How spilled rows are read: on a pool's workers where given; `onRows` told the rows read so far. */
export interface RowReading {
  readonly pool?: RowWorkerPool;
  readonly onRows?: (rows: number) => void;
}

/** A corpus's signatures: rows in memory, or spilled to disk. */
export type CorpusSignatures = SignatureMatrix | SpilledSignatures;

export function isSpilled(s: CorpusSignatures): s is SpilledSignatures {
  return 'spilled' in s;
}

/** The band keys banding reads, from memory or from the spilled rows. */
export function bandKeysOf(s: CorpusSignatures, lsh: LshParams, reading?: RowReading): Promise<BandKeySource> {
  return isSpilled(s) ? s.bandKeys(lsh, reading) : Promise.resolve(matrixBandKeys(s, lsh));
}

/** The rows verification and clustering read: all of them in memory, else those flagged in `needed`. */
export function rowsFor(s: CorpusSignatures, needed: () => Uint8Array, reading?: RowReading): Promise<SignatureMatrix> {
  return isSpilled(s) ? s.load(needed(), reading) : Promise.resolve(s);
}
