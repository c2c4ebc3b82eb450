/**
 * Dedup of documents held in memory: the exact pre-pass, shingling and
 * signing of the distinct texts, then `dedupSigned`. The browser app runs
 * exactly this; `runDedup` (src/pipeline) streams files through the same
 * exact pre-pass and signer and shares `dedupSigned`, so the two agree
 * document for document.
 */
import type { LshParams } from '../bands/lshParams.js';
import { isBBit, toStoredRows } from '../bands/bBitSlots.js';
import type { SignatureMatrix, SlotBits } from '../bands/signatureMatrix.js';
import { RowStore } from '../bands/rowStore.js';
import type { Shingler } from '../shingles/shingler.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import type { SignerBackend } from '../signatures/backend.js';
import { signDocuments, type PipelineTimings } from '../signatures/signDocuments.js';
import type { DocumentTable } from './documentTable.js';
import { ExactPrePass } from './exactPrePass.js';
import type { KeepPolicy } from './keepPolicy.js';
import { usesShingleSets } from './verification.js';
import { dedupSigned, type DedupSettings, type LoadShingleSets, type SignedCorpus, type SignedDedup, type SignedReference, type StageRunner } from './dedupSigned.js';

export interface InMemoryDocument {
  readonly id: string;
  readonly text: string;
  /** A JSON record's fields, for `keep: field:NAME`. */
  readonly record?: Record<string, unknown>;
}

export interface DedupDocumentsOptions extends DedupSettings {
  /** Signs the distinct texts; its k is the signature length. The caller destroys it. */
  readonly backend: SignerBackend;
  readonly shingle: ShingleOptions;
  /** Below 32: b-bit rows, banded by the keys of `lsh`'s layout (bBitSlots.ts). */
  readonly slotBits: SlotBits;
  readonly keep: KeepPolicy;
  /** A reference set: corpus documents that are near-duplicates of one of these are removed (decontamination). */
  readonly against?: readonly InMemoryDocument[];
  /** Who shingles for the signer: this thread by default. */
  readonly shingler?: Shingler;
  /** A signing batch closes at this many UTF-16 code units of text (signDocuments' default otherwise). */
  readonly batchCharacters?: number;
  /** Awaited before each stage starts (the tab repaints there). */
  readonly onStage?: (stage: string) => void | Promise<void>;
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
  /** Milliseconds per stage, in order. */
  readonly timings: readonly StageTime[];
}

export async function dedupDocuments(documents: readonly InMemoryDocument[], options: DedupDocumentsOptions): Promise<DedupDocumentsResult> {
  return dedupDocumentStream(documents, options);
}

/** Documents one at a time, from memory or from a streaming reader. */
export type DocumentStream = AsyncIterable<InMemoryDocument> | Iterable<InMemoryDocument>;

export interface DedupStreamOptions extends Omit<DedupDocumentsOptions, 'against'> {
  readonly against?: DocumentStream;
  /**
   * The same documents again, in the same order: exact verification then
   * recomputes the shingle sets of its candidates from a second read, and
   * signing keeps none. Without it, signing keeps every set (as `dedupDocuments`).
   */
  readonly reread?: () => DocumentStream;
  /** Items done of a stage's total (bands, pairs), as the stage runs. */
  readonly onProgress?: (stage: string, done: number, total: number) => void;
}

/**
 * `dedupDocuments` over a stream: texts are not retained (only the exact
 * pre-pass's table and the signatures), so the input may be larger than memory
 * holds as strings. Same stages, same result.
 */
export async function dedupDocumentStream(documents: DocumentStream, options: DedupStreamOptions): Promise<DedupDocumentsResult> {
  const timings: StageTime[] = [];
  const stage: StageRunner = async (name, work, total) => {
    await options.onStage?.(name);
    const started = performance.now();
    const progress = (done: number): void => {
      if (total !== undefined) options.onProgress?.(name, done, total);
    };
    const value = await work(progress);
    timings.push({ stage: name, ms: performance.now() - started });
    return value;
  };
  const signing: PipelineTimings = { shingleMs: 0, signMs: 0 };
  await options.onStage?.('signing');
  const started = performance.now();
  // Exact and hybrid verification need candidates' shingle sets: kept from signing unless they can be read again.
  const retainSets = options.reread === undefined && usesShingleSets(options.verify);
  const { corpus, sets, missingKeepField, shingles } = await signCorpus(documents, options, signing, retainSets);
  const reference = options.against !== undefined ? await signReference(options.against, options, signing) : undefined;
  const signingMs = performance.now() - started;
  timings.push(
    { stage: 'exact pre-pass', ms: Math.max(0, signingMs - signing.shingleMs - signing.signMs) },
    { stage: 'shingling', ms: signing.shingleMs },
    { stage: 'signing', ms: signing.signMs },
  );
  const { reread } = options;
  const load: LoadShingleSets = reread ? (needed) => shingleSetsFromReread(reread(), corpus.table, needed, options.shingle) : async () => sets;
  const core = await dedupSigned(corpus, options, load, reference?.rows.count ? reference : undefined, stage);
  return { ...core, ...corpus, lsh: options.lsh, missingKeepField, shingles, timings };
}

/**
 * Exact verification's shingle sets from a second read of the same documents,
 * in the same order: each needed group's set from its first document.
 */
export async function shingleSetsFromReread(
  documents: DocumentStream,
  table: DocumentTable,
  needed: Uint8Array,
  shingle: ShingleOptions,
): Promise<(Uint32Array | undefined)[]> {
  const sets: (Uint32Array | undefined)[] = new Array(needed.length);
  let d = 0;
  for await (const doc of documents) {
    if (d >= table.documents) throw new Error(`the input changed since it was signed: more than ${table.documents} documents`);
    const g = table.group(d++);
    if (g >= 0 && needed[g] === 1 && sets[g] === undefined) sets[g] = shingleDocument(doc.text, shingle);
  }
  if (d !== table.documents) throw new Error(`the input changed since it was signed: ${d} documents, not ${table.documents}`);
  return sets;
}

/** The exact pre-pass over the documents, signing the first of each group; row g and sets[g] are group g's. */
async function signCorpus(documents: DocumentStream, options: DedupStreamOptions, timings: PipelineTimings, retainSets: boolean) {
  const prePass = new ExactPrePass(options.shingle.normalize, options.keep);
  async function* firstOfEachGroup(): AsyncGenerator<InMemoryDocument> {
    for await (const doc of documents) if (prePass.add(doc.text, doc.record).isNew) yield doc;
  }
  const { rows, sets, shingles } = await signAll(firstOfEachGroup(), options, timings, retainSets);
  return { corpus: { table: prePass.table, signatures: rows }, sets, missingKeepField: prePass.missingKeepField, shingles };
}

/** Every reference document signed (never deduplicated), with its shingle set for exact verification. */
async function signReference(documents: DocumentStream, options: DedupStreamOptions, timings: PipelineTimings): Promise<SignedReference> {
  const ids: string[] = [];
  async function* named(): AsyncGenerator<InMemoryDocument> {
    for await (const doc of documents) {
      ids.push(doc.id);
      yield doc;
    }
  }
  const { rows, sets } = await signAll(named(), options, timings, true);
  return { ids, rows, sets };
}

async function signAll(documents: DocumentStream, options: DedupStreamOptions, timings: PipelineTimings, retainSets: boolean) {
  const { k } = options.backend;
  const bands = isBBit(options.slotBits) ? options.lsh : undefined;
  const store = new RowStore(k, options.slotBits, bands);
  const sets: Uint32Array[] = [];
  let shingles = 0;
  for await (const batch of signDocuments(documents, options.backend, { shingle: options.shingle, shingler: options.shingler, batchCharacters: options.batchCharacters }, timings)) {
    store.append(toStoredRows(batch.signatures, k, options.slotBits, bands));
    if (retainSets) sets.push(...batch.sets);
    shingles += batch.shingles;
  }
  return { rows: store.joined(), sets, shingles };
}
