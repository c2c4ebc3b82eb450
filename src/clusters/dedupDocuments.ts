/**
 * Dedup of documents held in memory: the exact pre-pass, shingling and
 * signing of the distinct texts, then `dedupSigned`. The browser app runs
 * exactly this; `runDedup` (src/pipeline) streams files through the same
 * exact pre-pass and signer and shares `dedupSigned`, so the two agree
 * document for document.
 */
import type { LshParams } from '../bands/lshParams.js';
import { isBBit, toStoredRows } from '../bands/bBitSlots.js';
import type { SlotBits } from '../bands/signatureMatrix.js';
import { RowStore } from '../bands/rowStore.js';
import type { Shingler } from '../shingles/shingler.js';
import type { ShingleOptions } from '../shingles/shingles.js';
import type { SignerBackend } from '../signatures/backend.js';
import { signDocuments, type PipelineTimings } from '../signatures/signDocuments.js';
import { ExactPrePass } from './exactPrePass.js';
import type { KeepPolicy } from './keepPolicy.js';
import { dedupSigned, type DedupSettings, type SignedCorpus, type SignedDedup, type SignedReference, type StageRunner } from './dedupSigned.js';

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
  /** Awaited before each stage starts (the tab repaints there). */
  readonly onStage?: (stage: string) => void | Promise<void>;
}

export interface StageTime {
  readonly stage: string;
  readonly ms: number;
}

export interface DedupDocumentsResult extends SignedDedup, SignedCorpus {
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
  const timings: StageTime[] = [];
  const stage: StageRunner = async (name, work) => {
    await options.onStage?.(name);
    const started = performance.now();
    const value = await work(() => undefined);
    timings.push({ stage: name, ms: performance.now() - started });
    return value;
  };
  const signing: PipelineTimings = { shingleMs: 0, signMs: 0 };
  await options.onStage?.('signing');
  const started = performance.now();
  const { corpus, sets, missingKeepField, shingles } = await signCorpus(documents, options, signing);
  const reference = options.against && options.against.length > 0 ? await signReference(options.against, options, signing) : undefined;
  const signingMs = performance.now() - started;
  timings.push(
    { stage: 'exact pre-pass', ms: Math.max(0, signingMs - signing.shingleMs - signing.signMs) },
    { stage: 'shingling', ms: signing.shingleMs },
    { stage: 'signing', ms: signing.signMs },
  );
  const core = await dedupSigned(corpus, options, async () => sets, reference, stage);
  return { ...core, ...corpus, lsh: options.lsh, missingKeepField, shingles, timings };
}

/** The exact pre-pass over the documents, signing the first of each group; row g and sets[g] are group g's. */
async function signCorpus(documents: readonly InMemoryDocument[], options: DedupDocumentsOptions, timings: PipelineTimings) {
  const prePass = new ExactPrePass(options.shingle.normalize, options.keep);
  function* firstOfEachGroup(): Generator<InMemoryDocument> {
    for (const doc of documents) if (prePass.add(doc.text, doc.record).isNew) yield doc;
  }
  const { rows, sets, shingles } = await signAll(firstOfEachGroup(), options, timings);
  return { corpus: { table: prePass.table, signatures: rows }, sets, missingKeepField: prePass.missingKeepField, shingles };
}

/** Every reference document signed (never deduplicated), with its shingle set for exact verification. */
async function signReference(documents: readonly InMemoryDocument[], options: DedupDocumentsOptions, timings: PipelineTimings): Promise<SignedReference> {
  const { rows, sets } = await signAll(documents, options, timings);
  return { ids: documents.map((d) => d.id), rows, sets };
}

async function signAll(documents: Iterable<InMemoryDocument>, options: DedupDocumentsOptions, timings: PipelineTimings) {
  const { k } = options.backend;
  const bands = isBBit(options.slotBits) ? options.lsh : undefined;
  const store = new RowStore(k, options.slotBits, bands);
  const sets: Uint32Array[] = [];
  let shingles = 0;
  for await (const batch of signDocuments(documents, options.backend, { shingle: options.shingle, shingler: options.shingler }, timings)) {
    store.append(toStoredRows(batch.signatures, k, options.slotBits, bands));
    sets.push(...batch.sets);
    shingles += batch.shingles;
  }
  return { rows: store.finish(), sets, shingles };
}
