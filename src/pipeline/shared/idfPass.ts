/**
 * The document frequencies `--weights idf` weighs by: a pass of its own over the corpus before signing (one thread,
 * the TypeScript shingler with the run's settings, each document's deduplicated set counted once; a second pass
 * when the corpus has more than 2^24 distinct shingles, see countIdfTable), or a table a
 * previous run wrote (`--idf FILE`, idfTable.ts's format). Either way the table is registered, so that the
 * parameters recording its identity carry it to every signer (signatures/params.ts, shingleOptionsOf).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeTextFile } from '../../formats/files/textFile.js';
import type { ReadOptions } from '../../io/documents.js';
import { listInputFiles, readDocuments, readsOnce } from '../../io/readDocuments.js';
import { DfCounter, decodeIdfTable, encodeIdfTable, shinglingDifferences } from '../../shingles/idfTable.js';
import { DfSketch } from '../../shingles/dfSketch.js';
import { registerIdfTable, type IdfShingling, type IdfTable } from '../../shingles/idfWeights.js';
import { shingleDocument, type ShingleOptions } from '../../shingles/shingles.js';
import { makeParams, shingleOptionsOf } from '../../signatures/params.js';

export interface IdfSource {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly shingling: IdfShingling;
  /** The table file: read when it exists, else counted from the inputs and written there. */
  readonly file?: string;
  readonly note?: (message: string) => void;
  /** Distinct shingles counted exactly in one pass (default 2^24: a map of at most 576 MiB while it grows). */
  readonly limit?: number;
  /** log2 of the count-min sketch's counters a row (default 22: 4 rows, 64 MiB). */
  readonly sketchBits?: number;
}

/** 2^24 distinct shingles: the one-pass map stays under 2^25 slots of 12 bytes (384 MiB; 576 MiB while growing). */
const DISTINCT_LIMIT = 1 << 24;

/** The run's table, loaded or counted, registered; its identity is what the signature parameters record. */
export async function prepareIdfTable(source: IdfSource): Promise<IdfTable> {
  const { file, shingling } = source;
  if (file !== undefined && existsSync(file)) {
    const table = decodeIdfTable(new Uint8Array(await readFile(file)), file);
    const differences = shinglingDifferences(table.shingling, shingling);
    if (differences.length > 0)
      throw new RangeError(`${file}: this idf table was counted with other shingles (${differences.join(', ')})`);
    registerIdfTable(table);
    source.note?.(`idf: table ${table.identity} from ${file} (${table.documents} documents)`);
    return table;
  }
  const table = await countIdfTable(source);
  if (file !== undefined) await writeTextFile(file, encodeIdfTable(table));
  registerIdfTable(table);
  source.note?.(
    `idf: counted ${table.documents} documents, ${table.entries.length / 3} shingles lighter than the rest` +
      `${file === undefined ? '' : `, written to ${file}`} (table ${table.identity})`,
  );
  return table;
}

/** Counts the inputs' document frequencies in one streaming pass. */
export async function countIdfTable(source: IdfSource): Promise<IdfTable> {
  const once = source.inputs.find(readsOnce);
  if (once !== undefined)
    throw new RangeError(
      `--weights idf counts document frequencies in a pass of its own, and ${once} can be read only once: give ` +
        'files, or a table an earlier run wrote with --idf FILE',
    );
  if (source.inputs.length === 0)
    throw new RangeError('--weights idf needs documents to count, or a table an earlier run wrote: --idf FILE');
  const counter = new DfCounter(undefined, source.limit ?? DISTINCT_LIMIT);
  const sketch = new DfSketch(source.sketchBits);
  await eachSet(source, (set) => {
    counter.addSet(set);
    sketch.addSet(set);
  });
  if (!counter.overflowed) return counter.table(source.shingling);
  // Too many distinct shingles to hold: again, counting exactly only those the sketch puts above N / 128 (the only
  // ones that can weigh less than 8); the rest weigh 8 as the table's absence says. The same table as one pass.
  const documents = counter.documents;
  source.note?.(
    `idf: over ${source.limit ?? DISTINCT_LIMIT} distinct shingles; counting the heavy ones in a second pass`,
  );
  const heavy = new DfCounter((lo, hi) => sketch.candidate(lo, hi, documents));
  await eachSet(source, (set) => heavy.addSet(set));
  return heavy.table(source.shingling);
}

/** Every input document's plain shingle set, in order. */
async function eachSet(source: IdfSource, use: (set: Uint32Array) => void): Promise<void> {
  const shingle = setOptionsOf(source.shingling);
  const files = await listInputFiles(source.inputs);
  for await (const document of readDocuments(files, { ...source.read, onInvalid: undefined }))
    use(shingleDocument(document.text, shingle));
}

/** The plain-set shingle options of these settings. */
function setOptionsOf(s: IdfShingling): ShingleOptions {
  const mode = s.shingle as ShingleOptions['mode'];
  return shingleOptionsOf(makeParams({ shingle: mode, n: s.n, nfkc: s.nfkc, stripPunctuation: s.stripPunctuation }));
}
