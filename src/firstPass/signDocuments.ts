/**
 * Documents signed in batches by the first pass (signedUnits.ts): each batch
 * goes to the workers as one unit of texts and comes back, in input order,
 * with every document's signature (an empty document's all-ones) and, when
 * asked, its shingle set. `sign --shard` signs its documents so, on the run's
 * workers; the library's `signDocuments` is this, on this thread when given a
 * bare backend. Browser-safe.
 */
import { defaultOf } from '../options.js';
import type { ShingleOptions } from '../shingles/shingles.js';
import type { SignerBackend } from '../signatures/backend.js';
import { firstPassHandler } from './handler.js';
import { InlineWorkers, type FirstPassSources } from './ports.js';
import type { InputUnit, ReadSetup } from './protocol.js';
import {
  rowsOfEveryDocument,
  selectedSet,
  signedUnits,
  type FirstPassSigner,
  type SignedPassTimings,
  type SignedUnit,
} from './signedUnits.js';

/** What signing needs of a document: its text (readers' InputDocument and the tab's documents both fit). */
export interface TextDocument {
  readonly text: string;
}

export interface SignedBatch<D extends TextDocument = TextDocument> {
  readonly documents: D[];
  /** documents·k·2 words: 64-bit slots as (lo, hi). */
  readonly signatures: Uint32Array;
  /** The documents' shingle sets, (lo, hi) pairs (an empty document's is empty); none without `keepSets`. */
  readonly sets: Uint32Array[];
  /** Shingles in the batch. */
  readonly shingles: number;
  /**
   * With `exactKeys`: 4 words a document, the exact pre-pass key of its normalized text (MurmurHash3_x86_128, as the
   * workers compute it for dedup), all zero when empty.
   */
  readonly exactKeys?: Uint32Array;
  /** 1 for an empty document (no token), 0 otherwise. */
  readonly empty: Uint8Array;
}

export interface PipelineOptions {
  readonly shingle: ShingleOptions;
  /** Most documents per batch. Default 2048. */
  readonly batchDocuments?: number;
  /**
   * A batch is closed once its texts hold this many UTF-16 code units. Default 2^23 (8 Mi, ~1.4 M shingles of prose).
   */
  readonly batchCharacters?: number;
  /** Each batch with its documents' shingle sets (default true). */
  readonly keepSets?: boolean;
  /** Each batch with its documents' exact-duplicate keys, computed by the workers (default false). */
  readonly exactKeys?: boolean;
}

/** The library's name for SignedPassTimings, kept: one type. */
export type PipelineTimings = SignedPassTimings;

const MEMORY_READ = { textField: 'text', idField: 'id', skipInvalid: false, strict: false } as const;

/** `signer`: the run's first-pass signer (its workers), or a backend signing what this thread shingles. */
export async function* signDocuments<D extends TextDocument>(
  documents: AsyncIterable<D> | Iterable<D>,
  signer: SignerBackend | FirstPassSigner,
  options: PipelineOptions,
  timings: PipelineTimings = { shingleMs: 0, signMs: 0 },
): AsyncGenerator<SignedBatch<D>> {
  const firstPass = 'workers' in signer ? signer : inlineSigner(signer);
  const keepSets = options.keepSets ?? true;
  // Every document is signed: no exact pre-pass; its keys only when asked (sign --shard stores them).
  const exactKeys = options.exactKeys === true;
  const setup: ReadSetup = { read: MEMORY_READ, shingle: options.shingle, keep: { kind: 'first' }, exactKeys };
  const batches: D[][] = [];
  for await (const unit of signedUnits(
    textBatches(documents, options, batches),
    firstPass,
    { setup, keepSets },
    timings,
  )) {
    const rows = rowsOfEveryDocument(unit, firstPass.backend.k);
    // Rows and sets may be views of an inline worker's buffers, which its next unit overwrites: copied.
    const signatures = rows === unit.signatures ? rows.slice() : rows;
    yield {
      documents: batches.shift()!,
      signatures,
      sets: keepSets ? setsOfEveryDocument(unit) : [],
      shingles: unit.result.shingleCount,
      exactKeys: exactKeys ? unit.documents.exactKeys.slice(0, 4 * unit.documents.count) : undefined,
      empty: unit.documents.empty.slice(0, unit.documents.count),
    };
  }
}

/** The documents in units of texts, each batch's documents queued on `batches` as its unit goes out. */
async function* textBatches<D extends TextDocument>(
  documents: AsyncIterable<D> | Iterable<D>,
  options: PipelineOptions,
  batches: D[][],
): AsyncGenerator<InputUnit> {
  const maxDocuments = options.batchDocuments ?? defaultOf('batchSize');
  const maxCharacters = options.batchCharacters ?? 1 << 23;
  let batch: D[] = [];
  let characters = 0;
  let first = 1;
  const unit = (): InputUnit => {
    batches.push(batch);
    const texts = batch.map((d) => d.text);
    const out: InputUnit = { kind: 'texts', texts, ids: texts.map((_, i) => String(first + i)), first };
    first += batch.length;
    batch = [];
    characters = 0;
    return out;
  };
  for await (const document of documents) {
    batch.push(document);
    characters += document.text.length;
    if (batch.length >= maxDocuments || characters >= maxCharacters) yield unit();
  }
  if (batch.length > 0) yield unit();
}

/** Every document's set: the selected (non-empty) ones' from the unit, copied; an empty one's empty. */
export function setsOfEveryDocument(unit: SignedUnit): Uint32Array[] {
  const sets: Uint32Array[] = [];
  const none = new Uint32Array(0);
  let s = 0;
  for (let d = 0; d < unit.documents.count; d++)
    sets.push(unit.documents.empty[d] === 1 ? none : selectedSet(unit, s++)!.slice());
  return sets;
}

const NO_FILES: FirstPassSources = {
  readWhole: () => Promise.reject(new Error('no files here: documents come from memory')),
  openParquet: () => Promise.reject(new Error('no files here: documents come from memory')),
};

/** A signer on this thread alone: `backend` signs what the inline "worker" shingles. */
export function inlineSigner(backend: SignerBackend): FirstPassSigner {
  return { backend, workers: new InlineWorkers(firstPassHandler(NO_FILES)) };
}
