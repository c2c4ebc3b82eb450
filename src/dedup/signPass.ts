/**
 * The one signing pass of dedup, over units of input from anywhere (the CLI's
 * files, the tab's, the library's documents): the corpus goes through the
 * exact pre-pass with the first of each group signed, the reference set has
 * every document signed. The callers differ only in their ports: where the
 * units come from, where rows past a size and shingle sets go, and what they
 * are told as units arrive.
 */
import { toStoredRows, type BandLayout } from '../bands/bBitSlots.js';
import { RowStore, type RowSpill } from '../bands/rowStore.js';
import type { SlotBits } from '../bands/signatureMatrix.js';
import type { CorpusSignatures } from '../bands/spilledSignatures.js';
import { ExactPrePass, type SignedCorpus } from '../exact/exactPrePass.js';
import { UniqueIds } from '../exact/uniqueIds.js';
import { DocumentRecords } from '../firstPass/documentRecords.js';
import { unitId, type InputUnit, type ReadSetup } from '../firstPass/protocol.js';
import type { SetSpool } from '../firstPass/setSpool.js';
import {
  freeAnswer,
  rowsOfEveryDocument,
  selectedSet,
  signedUnits,
  type FirstPassSigner,
  type SignedPassTimings,
  type SignedUnit,
} from '../firstPass/signedUnits.js';

export type Units = AsyncIterable<InputUnit> | Iterable<InputUnit>;

/** How the rows are stored: k slots of `slotBits`, b-bit rows banded by `bands`'s layout. */
export interface RowShape {
  readonly k: number;
  readonly slotBits: SlotBits;
  readonly bands?: BandLayout;
}

export interface CorpusSigning {
  /** Read options, shingling (its normalization is the pre-pass's too) and the keep policy. */
  readonly setup: ReadSetup;
  readonly rows: RowShape;
  /** Rows past a size go to its sink (the CLI's temporary file); none: all in memory. */
  readonly spill?: RowSpill;
  /** Where every signed group's shingle set goes (exact and hybrid verification); none: they are not kept. */
  readonly sets?: SetSpool;
  readonly onInvalid?: (message: string) => void;
  readonly onBinary?: (path: string) => void;
  /** After each unit: the bytes of the per-document tables (pre-pass, id check, records) and the documents read. */
  readonly onUnit?: (tablesBytes: number, documents: number) => void;
}

export interface SignedCorpusPass extends SignedCorpus {
  readonly signatures: CorpusSignatures;
  /** Documents whose keep field was missing or not a number (`field:NAME` only). */
  readonly missingKeepField: number;
  /** Shingles of the distinct texts signed. */
  readonly shingles: number;
  /** Every document's id and place, in input order. */
  readonly records: DocumentRecords;
  /** `sets`, as given. */
  readonly sets?: SetSpool;
}

/** The exact pre-pass over the corpus, signing the first document of each group; row g and set g are group g's. */
export async function signCorpus(
  units: Units,
  signer: FirstPassSigner,
  options: CorpusSigning,
  timings: SignedPassTimings,
): Promise<SignedCorpusPass> {
  const { setup, rows, sets } = options;
  const prePass = new ExactPrePass(setup.shingle.normalize, setup.keep);
  const store = new RowStore(rows.k, rows.slotBits, rows.bands, options.spill);
  const records = new DocumentRecords();
  const ids = new UniqueIds();
  let shingles = 0;
  const signed = signedUnits(
    units,
    signer,
    {
      setup,
      prePass,
      ids,
      onInvalid: options.onInvalid,
      onBinary: options.onBinary,
      keepSets: sets !== undefined,
      sharedSets: () => sets?.adoptsShared ?? false,
    },
    timings,
  );
  for await (const unit of signed) {
    records.addUnit(unit);
    options.onUnit?.(prePass.bytes + ids.bytes + records.bytes, prePass.table.documents);
    // A worker's answer, freed as soon as it is taken: left to the collector, every 64 MiB of them cost this thread a
    // full collection (most of its time on a 1 M dedup).
    const owned = unit.ownsBuffers === true;
    const stored = toStoredRows(unit.signatures, rows.k, rows.slotBits, rows.bands);
    store.append(stored, owned);
    if (sets !== undefined) {
      const { shingles, offsets } = unit.result;
      if (shingles === undefined || offsets === undefined) throw new Error('internal: a unit came without its sets');
      sets.appendRun(shingles, offsets, unit.selected.length, owned);
    }
    shingles += unit.result.shingleCount;
    // The signatures too, where the store took rows converted from them (its own copy).
    freeAnswer(unit, ...(stored.buffer === unit.signatures.buffer ? [] : [unit.signatures.buffer]));
    // Spilled rows and sets go to disk behind this thread: past a bound it waits, rather than write them itself.
    await store.room();
    await sets?.room?.();
  }
  return {
    table: prePass.table,
    signatures: store.finish(),
    missingKeepField: prePass.missingKeepField,
    shingles,
    records,
    sets,
  };
}

export interface ReferenceSigning {
  readonly setup: ReadSetup;
  readonly rows: RowShape;
  /** Keep the shingle sets (exact verification compares them): the first pass's own, no second shingling. */
  readonly keepSets: boolean;
  readonly onInvalid?: (message: string) => void;
  readonly onBinary?: (path: string) => void;
  /** After each unit: the reference documents read. */
  readonly onDocuments?: (documents: number) => void;
}

/** Every reference document signed (never deduplicated), with its shingle set when asked. */
export async function signReference(
  units: Units,
  signer: FirstPassSigner,
  options: ReferenceSigning,
  timings: SignedPassTimings,
) {
  const { setup, rows, keepSets } = options;
  const ids: string[] = [];
  const sets: Uint32Array[] = [];
  const store = new RowStore(rows.k, rows.slotBits, rows.bands);
  for await (const unit of signedUnits(
    units,
    signer,
    { setup, onInvalid: options.onInvalid, onBinary: options.onBinary, keepSets },
    timings,
  )) {
    for (let d = 0; d < unit.documents.count; d++) ids.push(unitId(unit.documents, d));
    store.append(toStoredRows(rowsOfEveryDocument(unit, rows.k), rows.k, rows.slotBits, rows.bands));
    if (keepSets) everySet(unit, sets);
    options.onDocuments?.(ids.length);
  }
  // As `substrings --against` refuses it: an empty reference set would remove nothing and say nothing of it.
  if (ids.length === 0)
    throw new RangeError(
      '--against holds no document (its files are empty, or were skipped): give documents to match, or leave it out',
    );
  return { ids, rows: store.joined(), sets: keepSets ? sets : undefined };
}

/** The unit's sets in document order, an empty document's empty. */
function everySet(unit: SignedUnit, into: Uint32Array[]): void {
  let s = 0;
  for (let d = 0; d < unit.documents.count; d++)
    into.push(unit.documents.empty[d] === 1 ? new Uint32Array(0) : selectedSet(unit, s++)!);
}
