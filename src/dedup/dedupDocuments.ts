/**
 * Dedup without files: the first pass (src/firstPass: the exact pre-pass,
 * shingling and signing of the distinct texts, in workers) over units of
 * input, then `dedupSigned`. The browser app hands it its files' units, the
 * library `dedup()` its documents as text units; `runDedup` (src/pipeline)
 * runs the same first pass over the CLI's files and shares `dedupSigned`, so
 * all three agree document for document.
 */
import { inlineSigner } from '../firstPass/signDocuments.js';
import { invalidIdReason } from '../text/wellFormed.js';
import type { LshParams } from '../bands/lshParams.js';
import { isBBit } from '../bands/bBitSlots.js';
import type { SignatureMatrix, SlotBits } from '../bands/signatureMatrix.js';
import type { DocumentRecords } from '../firstPass/documentRecords.js';
import type { InputUnit, ReadSetup, UnitReadOptions } from '../firstPass/protocol.js';
import { MemorySetSpool } from '../firstPass/setSpool.js';
import type { FirstPassSigner, SignedPassTimings } from '../firstPass/signedUnits.js';
import type { ShingleOptions } from '../shingles/shingles.js';
import type { SignerBackend } from '../signatures/backend.js';
import type { KeepPolicy } from '../text/keepPolicy.js';
import { usesShingleSets } from '../verify/verification.js';
import { exactPairsOn, type ExactRequest, type ExactResponse } from '../verify/exactWorkers.js';
import type { BandRequest, BandResponse } from '../bands/bandWorkers.js';
import { signCorpus, signReference, type RowShape } from './signPass.js';
import { StageTimer, type StageTime } from './stageTimer.js';
import {
  dedupSigned,
  type DedupSettings,
  type SignedCorpus,
  type SignedDedup,
  type StageRunner,
} from './dedupSigned.js';

export type { StageTime } from './stageTimer.js';

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
  /**
   * Workers for the stages after the first pass (the tab's, started by the caller, who ends them): banding on them;
   * with shared memory (a cross-origin isolated tab) the sets and rows lie there too, and exact Jaccard and the
   * decisions run on them as well. The same results as without.
   */
  readonly stageWorkers?: StageWorkerPool;
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
  /** Milliseconds per stage, in order (wall time: they add up to the run's). */
  readonly timings: readonly StageTime[];
  /**
   * Within 'read + sign': the workers' milliseconds shingling and signing, summed (they overlap reading, so not
   * stages).
   */
  readonly signing: SignedPassTimings;
}

/** Workers that answer banding's and exact Jaccard's requests (a tab's: web/stageWorker.ts). */
export interface StageWorkerPool {
  readonly size: number;
  request(
    worker: number,
    request: BandRequest | ExactRequest,
    transfer?: readonly ArrayBuffer[],
  ): Promise<BandResponse & ExactResponse>;
}

const MEMORY_READ: UnitReadOptions = { textField: 'text', idField: 'id', skipInvalid: false, strict: false };

/** The first pass over `units`, then every stage after signing. */
export async function dedupUnits(
  units: AsyncIterable<InputUnit> | Iterable<InputUnit>,
  options: DedupUnitsOptions,
): Promise<DedupDocumentsResult> {
  const timer = new StageTimer();
  const stage: StageRunner = async (name, work, total) => {
    await options.onStage?.(name);
    return timer.time(name, () =>
      work((done) => {
        if (total !== undefined) options.onProgress?.(name, done, total);
      }),
    );
  };
  const signing: SignedPassTimings = { shingleMs: 0, signMs: 0 };
  await options.onStage?.('signing');
  const started = performance.now();
  const setup: ReadSetup = { read: options.read ?? MEMORY_READ, shingle: options.shingle, keep: options.keep };
  const pool = options.stageWorkers;
  const sets = usesShingleSets(options.verify) ? new MemorySetSpool(pool !== undefined) : undefined;
  const rows = rowShape(options);
  const pass = await signCorpus(
    units,
    options.signer,
    { setup, rows, sets, onInvalid: options.onInvalid, onBinary: options.onBinary },
    signing,
  );
  // No spill port here: every row is in memory.
  const corpus = {
    table: pass.table,
    signatures: pass.signatures as SignatureMatrix,
    missingKeepField: pass.missingKeepField,
    shingles: pass.shingles,
    records: pass.records,
  };
  const reference =
    options.against !== undefined
      ? await signReference(options.against, options.signer, { setup, rows, keepSets: true }, signing)
      : undefined;
  const signingMs = performance.now() - started;
  timer.add('read + sign', signingMs);
  // Shingling and signing overlap reading in the workers: their summed milliseconds go apart (`signing`), as the
  // CLI's report keeps them (signingSeconds); as stages they were counted twice in the total.
  const shared = pool && sets?.share();
  const core = await dedupSigned(
    corpus,
    options,
    sets === undefined
      ? async () => []
      : { load: sets.load, fetch: sets.fetch, exact: shared && exactPairsOn(pool!, shared) },
    reference?.rows.count ? reference : undefined,
    stage,
    { banding: pool },
  );
  return { ...core, ...corpus, lsh: options.lsh, timings: timer.stages, signing };
}

/** The rows as the library and the tab store them: b-bit rows banded by the options' banding. */
function rowShape(options: DedupUnitsOptions): RowShape {
  return {
    k: options.signer.backend.k,
    slotBits: options.slotBits,
    bands: isBBit(options.slotBits) ? options.lsh : undefined,
  };
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
    const out: InputUnit = {
      kind: 'texts',
      texts,
      ids,
      first,
      records: records.some((r) => r !== undefined) ? records : undefined,
    };
    first += texts.length;
    texts = [];
    ids = [];
    records = [];
    characters = 0;
    return out;
  };
  for await (const doc of documents) {
    const invalid = typeof doc.id === 'string' ? invalidIdReason(doc.id) : undefined;
    if (invalid !== undefined) throw new RangeError(`document ${first + texts.length}: its id ${invalid}`);
    texts.push(doc.text);
    ids.push(doc.id);
    records.push(doc.record);
    characters += doc.text.length;
    if (characters >= TEXT_UNIT_CHARACTERS) yield unit();
  }
  if (texts.length > 0) yield unit();
}

export { inlineSigner };

export interface DedupDocumentsOptions extends Omit<DedupUnitsOptions, 'signer' | 'against'> {
  /**
   * Signs the distinct texts (on this thread's shingles) unless `signer` is given; its k is the signature length. The
   * caller destroys it.
   */
  readonly backend: SignerBackend;
  readonly signer?: FirstPassSigner;
  readonly against?: DocumentStream;
}

/** Dedup of documents in memory or streamed: ids must be unique (a repeat is refused, naming both). */
export async function dedupDocuments(
  documents: DocumentStream,
  options: DedupDocumentsOptions,
): Promise<DedupDocumentsResult> {
  const signer = options.signer ?? inlineSigner(options.backend);
  const against = options.against === undefined ? undefined : textUnits(options.against);
  return dedupUnits(textUnits(documents), { ...options, signer, against });
}

/** The same as dedupDocuments: documents from any (async) iterable are read once. */
export const dedupDocumentStream = dedupDocuments;
