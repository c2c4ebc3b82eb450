/**
 * Dedup without files: the first pass (src/firstPass: the exact pre-pass,
 * shingling and signing of the distinct texts, in workers) over units of
 * input, then `dedupSigned`. The browser app hands it its files' units, the
 * library `dedup()` its documents as text units; `runDedup` (src/pipeline)
 * runs the same first pass over the CLI's files and shares `dedupSigned`, so
 * all three agree document for document.
 */
import type { LshParams } from '../bands/lshParams.js';
import { isBBit, toStoredRows } from '../bands/bBitSlots.js';
import type { SignatureMatrix, SlotBits } from '../bands/signatureMatrix.js';
import { RowStore } from '../bands/rowStore.js';
import { DocumentRecords } from '../firstPass/documentRecords.js';
import { firstPassHandler } from '../firstPass/handler.js';
import { InlineWorkers, type FirstPassSources } from '../firstPass/ports.js';
import { unitId, type InputUnit, type ReadSetup, type UnitReadOptions } from '../firstPass/protocol.js';
import { MemorySetSpool } from '../firstPass/setSpool.js';
import { rowsOfEveryDocument, selectedSet, signedUnits, type FirstPassSigner, type SignedPassTimings } from '../firstPass/signedUnits.js';
import { UniqueIds } from '../exact/uniqueIds.js';
import type { ShingleOptions } from '../shingles/shingles.js';
import type { SignerBackend } from '../signatures/backend.js';
import { ExactPrePass } from '../exact/exactPrePass.js';
import type { KeepPolicy } from '../text/keepPolicy.js';
import { usesShingleSets } from '../verify/verification.js';
import { dedupSigned, type DedupSettings, type SignedCorpus, type SignedDedup, type SignedReference, type StageRunner } from './dedupSigned.js';

export interface InMemoryDocument {
  readonly id: string;
  readonly text: string;
  /** A JSON record's fields, for `keep: field:NAME`. */
  readonly record?: Record<string, unknown>;
}

export interface DedupUnitsOptions extends DedupSettings {
  /** Who signs: workers (on the CPU) or a device here, as the caller opened them. The caller destroys it. */
  readonly signer: FirstPassSigner;
  readonly shingle: ShingleOptions;
  /** Below 32: b-bit rows, banded by the keys of `lsh`'s layout (bBitSlots.ts). */
  readonly slotBits: SlotBits;
  readonly keep: KeepPolicy;
  readonly read?: UnitReadOptions;
  /** A reference set: corpus documents that are near-duplicates of one of these are removed (decontamination). */
  readonly against?: AsyncIterable<InputUnit> | Iterable<InputUnit>;
  /** Awaited before each stage starts (the tab repaints there). */
  readonly onStage?: (stage: string) => void | Promise<void>;
  /** Items done of a stage's total (bands, pairs), as the stage runs. */
  readonly onProgress?: (stage: string, done: number, total: number) => void;
  readonly onInvalid?: (message: string) => void;
  readonly onBinary?: (path: string) => void;
}

export interface StageTime {
  readonly stage: string;
  readonly ms: number;
}

export interface DedupDocumentsResult extends SignedDedup, SignedCorpus {
  /** Every distinct text's row: in memory here, never spilled. */
  readonly signatures: SignatureMatrix;
  /** The banding used (the options'). */
  readonly lsh: LshParams;
  /** Documents whose keep field was missing or not a number (`field:NAME` only). */
  readonly missingKeepField: number;
  /** Shingles of the distinct texts signed. */
  readonly shingles: number;
  /** Every document's id and place, in input order. */
  readonly records: DocumentRecords;
  /** Milliseconds per stage, in order. */
  readonly timings: readonly StageTime[];
}

const MEMORY_READ: UnitReadOptions = { textField: 'text', idField: 'id', skipInvalid: false, strict: false };

/** The first pass over `units`, then every stage after signing. */
export async function dedupUnits(units: AsyncIterable<InputUnit> | Iterable<InputUnit>, options: DedupUnitsOptions): Promise<DedupDocumentsResult> {
  const timings: StageTime[] = [];
  const stage: StageRunner = async (name, work, total) => {
    await options.onStage?.(name);
    const started = performance.now();
    const value = await work((done) => {
      if (total !== undefined) options.onProgress?.(name, done, total);
    });
    timings.push({ stage: name, ms: performance.now() - started });
    return value;
  };
  const signing: SignedPassTimings = { shingleMs: 0, signMs: 0 };
  await options.onStage?.('signing');
  const started = performance.now();
  const setup: ReadSetup = { read: options.read ?? MEMORY_READ, shingle: options.shingle, keep: options.keep };
  const sets = usesShingleSets(options.verify) ? new MemorySetSpool() : undefined;
  const corpus = await signCorpus(units, options, setup, signing, sets);
  const reference = options.against !== undefined ? await signReference(options.against, options, setup, signing) : undefined;
  const signingMs = performance.now() - started;
  timings.push(
    // Shingling and signing overlap reading in the workers: their milliseconds are the workers', summed.
    { stage: 'read + sign', ms: signingMs },
    { stage: 'shingling', ms: signing.shingleMs },
    { stage: 'signing', ms: signing.signMs },
  );
  const core = await dedupSigned(corpus, options, sets ?? (async () => []), reference?.rows.count ? reference : undefined, stage);
  return { ...core, ...corpus, lsh: options.lsh, timings };
}

/** The exact pre-pass over the documents, signing the first of each group; row g and set g are group g's. */
async function signCorpus(units: AsyncIterable<InputUnit> | Iterable<InputUnit>, options: DedupUnitsOptions, setup: ReadSetup, timings: SignedPassTimings, sets: MemorySetSpool | undefined) {
  const prePass = new ExactPrePass(options.shingle.normalize, options.keep);
  const { k } = options.signer.backend;
  const bands = isBBit(options.slotBits) ? options.lsh : undefined;
  const store = new RowStore(k, options.slotBits, bands);
  const records = new DocumentRecords();
  let shingles = 0;
  const signed = signedUnits(units, options.signer, { setup, prePass, ids: new UniqueIds(), onInvalid: options.onInvalid, onBinary: options.onBinary, keepSets: sets !== undefined }, timings);
  for await (const unit of signed) {
    records.addUnit(unit);
    store.append(toStoredRows(unit.signatures, k, options.slotBits, bands));
    if (sets !== undefined) for (let i = 0; i < unit.selected.length; i++) sets.append(selectedSet(unit, i)!);
    shingles += unit.result.shingleCount;
  }
  return { table: prePass.table, signatures: store.joined(), missingKeepField: prePass.missingKeepField, shingles, records };
}

/** Every reference document signed (never deduplicated), with its shingle set for exact verification. */
async function signReference(units: AsyncIterable<InputUnit> | Iterable<InputUnit>, options: DedupUnitsOptions, setup: ReadSetup, timings: SignedPassTimings): Promise<SignedReference> {
  const { k } = options.signer.backend;
  const bands = isBBit(options.slotBits) ? options.lsh : undefined;
  const store = new RowStore(k, options.slotBits, bands);
  const ids: string[] = [];
  const sets: Uint32Array[] = [];
  for await (const unit of signedUnits(units, options.signer, { setup, keepSets: true }, timings)) {
    for (let d = 0; d < unit.documents.count; d++) ids.push(unitId(unit.documents, d));
    store.append(toStoredRows(rowsOfEveryDocument(unit, k), k, options.slotBits, bands));
    let s = 0;
    for (let d = 0; d < unit.documents.count; d++) sets.push(unit.documents.empty[d] === 1 ? new Uint32Array(0) : selectedSet(unit, s++)!);
  }
  return { ids, rows: store.joined(), sets };
}

/** Documents one at a time, from memory or from a stream. */
export type DocumentStream = AsyncIterable<InMemoryDocument> | Iterable<InMemoryDocument>;

/** Characters of text a `texts` unit gathers before it goes to a worker. */
const TEXT_UNIT_CHARACTERS = 1 << 19;

/** Documents from memory as first-pass units of about half a million characters. */
export async function* textUnits(documents: DocumentStream): AsyncGenerator<InputUnit> {
  let texts: string[] = [];
  let ids: string[] = [];
  let records: (Record<string, unknown> | undefined)[] = [];
  let characters = 0;
  let first = 1;
  const unit = (): InputUnit => {
    const out: InputUnit = { kind: 'texts', texts, ids, first, records: records.some((r) => r !== undefined) ? records : undefined };
    first += texts.length;
    texts = [];
    ids = [];
    records = [];
    characters = 0;
    return out;
  };
  for await (const doc of documents) {
    texts.push(doc.text);
    ids.push(doc.id);
    records.push(doc.record);
    characters += doc.text.length;
    if (characters >= TEXT_UNIT_CHARACTERS) yield unit();
  }
  if (texts.length > 0) yield unit();
}

/** A signer on this thread alone: `backend` signs what the inline "worker" shingles. */
export function inlineSigner(backend: SignerBackend): FirstPassSigner {
  const noFiles: FirstPassSources = {
    readWhole: () => Promise.reject(new Error('no files here: documents come from memory')),
    openParquet: () => Promise.reject(new Error('no files here: documents come from memory')),
  };
  return { backend, workers: new InlineWorkers(firstPassHandler(noFiles)) };
}

export interface DedupDocumentsOptions extends Omit<DedupUnitsOptions, 'signer' | 'against'> {
  /** Signs the distinct texts (on this thread's shingles) unless `signer` is given; its k is the signature length. The caller destroys it. */
  readonly backend: SignerBackend;
  readonly signer?: FirstPassSigner;
  readonly against?: DocumentStream;
}

/** Dedup of documents in memory or streamed: ids must be unique (a repeat is refused, naming both). */
export async function dedupDocuments(documents: DocumentStream, options: DedupDocumentsOptions): Promise<DedupDocumentsResult> {
  const signer = options.signer ?? inlineSigner(options.backend);
  const against = options.against === undefined ? undefined : textUnits(options.against);
  return dedupUnits(textUnits(documents), { ...options, signer, against });
}

/** The same as dedupDocuments: documents from any (async) iterable are read once. */
export const dedupDocumentStream = dedupDocuments;
