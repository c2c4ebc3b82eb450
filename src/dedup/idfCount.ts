/**
 * `--weights idf`'s document frequencies, counted from a corpus's texts: each document's plain shingle set counted
 * once (the TypeScript shingler with the run's settings). One pass while the distinct shingles fit the exact map; past
 * it a second pass counts exactly only those a count-min sketch puts above N / 128 (the only ones that can weigh less
 * than 8), which gives the same table. The CLI (src/pipeline/shared/idfPass.ts) and the tab (web/dedupWorker.ts) pass
 * their own readers' texts.
 */
import { DfSketch } from '../shingles/dfSketch.js';
import { DfCounter } from '../shingles/idfTable.js';
import type { IdfShingling, IdfTable } from '../shingles/idfWeights.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import { makeParams, shingleOptionsOf } from '../signatures/params.js';

export interface IdfCountOptions {
  /** Distinct shingles counted exactly in one pass (default 2^24: a map of at most 576 MiB while it grows). */
  readonly limit?: number;
  /** log2 of the count-min sketch's counters a row (default 22: 4 rows, 64 MiB). */
  readonly sketchBits?: number;
  readonly note?: (message: string) => void;
}

/** 2^24 distinct shingles: the one-pass map stays under 2^25 slots of 12 bytes (384 MiB; 576 MiB while growing). */
const DISTINCT_LIMIT = 1 << 24;

/** The table of `texts` (a fresh pass over the same texts each call: a second one only past `limit`). */
export async function countIdf(
  texts: () => AsyncIterable<string>,
  shingling: IdfShingling,
  options: IdfCountOptions = {},
): Promise<IdfTable> {
  const shingle = setOptionsOf(shingling);
  const limit = options.limit ?? DISTINCT_LIMIT;
  const counter = new DfCounter(undefined, limit);
  const sketch = new DfSketch(options.sketchBits);
  for await (const text of texts()) {
    const set = shingleDocument(text, shingle);
    counter.addSet(set);
    sketch.addSet(set);
  }
  if (!counter.overflowed) return counter.table(shingling);
  const documents = counter.documents;
  options.note?.(`idf: over ${limit} distinct shingles; counting the heavy ones in a second pass`);
  const heavy = new DfCounter((lo, hi) => sketch.candidate(lo, hi, documents));
  for await (const text of texts()) heavy.addSet(shingleDocument(text, shingle));
  return heavy.table(shingling);
}

/** The plain-set shingle options of these settings. */
function setOptionsOf(s: IdfShingling): ShingleOptions {
  const mode = s.shingle as ShingleOptions['mode'];
  return shingleOptionsOf(makeParams({ shingle: mode, n: s.n, nfkc: s.nfkc, stripPunctuation: s.stripPunctuation }));
}
