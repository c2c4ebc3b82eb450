/**
 * What banding reads: every document's key in each band, band by band. From
 * a signature matrix in memory the keys are computed band by band as banding
 * asks; from spilled signatures (src/pipeline/dedup/rowSpill.ts) they were computed
 * in one pass over the file and are held per band, in memory or on disk.
 */
import { bandKey } from './bandKeys.js';
import { sameBanding, type LshParams } from './lshParams.js';
import { isEmptySignature, type SignatureMatrix } from './signatureMatrix.js';

export interface BandKeySource {
  readonly count: number;
  /** Slots per signature, and the banding the keys were computed for. */
  readonly k: number;
  readonly lsh: LshParams;
  /** 1 for each document with a non-empty signature: only those are banded. */
  readonly nonEmpty: Uint8Array;
  /** Band `band`'s keys, document d's (lo, hi) at 2d, 2d + 1; valid until the next call. */
  keysOf(band: number): Uint32Array;
  /** The rows the keys are computed from, where they are in memory (band workers may compute them there). */
  readonly matrix?: SignatureMatrix;
}

/**
 * Keys computed from the rows in memory, one band at a time into one reused array; a sparse matrix bands the rows it
 * holds.
 */
export function matrixBandKeys(m: SignatureMatrix, lsh: LshParams): BandKeySource {
  const keys = new Uint32Array(2 * m.count);
  const nonEmpty = new Uint8Array(m.count);
  for (let d = 0; d < m.count; d++)
    nonEmpty[d] = (m.rowAt !== undefined && m.rowAt[d] < 0) || isEmptySignature(m, d) ? 0 : 1;
  return {
    count: m.count,
    k: m.k,
    lsh,
    nonEmpty,
    matrix: m,
    keysOf(band) {
      bandKeysOfMatrix(m, band, lsh, nonEmpty, keys);
      return keys;
    },
  };
}

/** Band `band`'s keys of the documents flagged 1 in `flagged`, document d's at out[2d], out[2d + 1]. */
export function bandKeysOfMatrix(
  m: SignatureMatrix,
  band: number,
  lsh: Pick<LshParams, 'rows' | 'slots'>,
  flagged: Uint8Array,
  out: Uint32Array,
): void {
  for (let d = 0; d < m.count; d++) if (flagged[d] === 1) bandKey(m, d, band, lsh, out, 2 * d);
}

/** The keys of `first`'s documents followed by `second`'s: a corpus and its reference set banded together. */
export function concatBandKeys(first: BandKeySource, second: BandKeySource): BandKeySource {
  if (first.k !== second.k || !sameBanding(first.lsh, second.lsh)) {
    throw new RangeError(
      `cannot band keys of k=${first.k}, ${first.lsh.bands}×${first.lsh.rows} with k=${second.k}, ` +
        `${second.lsh.bands}×${second.lsh.rows}`,
    );
  }
  const count = first.count + second.count;
  const keys = new Uint32Array(2 * count);
  const nonEmpty = new Uint8Array(count);
  nonEmpty.set(first.nonEmpty, 0);
  nonEmpty.set(second.nonEmpty, first.count);
  return {
    count,
    k: first.k,
    lsh: first.lsh,
    nonEmpty,
    keysOf(band) {
      keys.set(first.keysOf(band), 0);
      keys.set(second.keysOf(band), 2 * first.count);
      return keys;
    },
  };
}
