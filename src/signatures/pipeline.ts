/**
 * Streams documents through shingling and a signing backend, in batches.
 *
 * While the backend signs batch i (on the GPU, asynchronously), the CPU shingles
 * batch i + 1: at most two batches are in flight, and batches come out in input
 * order. Wrap the backend in a FallbackSigner to survive a failing GPU.
 */
import type { InputDocument } from '../io/documents.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import type { SignerBackend } from './backend.js';

export interface SignedBatch {
  readonly documents: InputDocument[];
  /** documents·k·2 words: 64-bit slots as (lo, hi). */
  readonly signatures: Uint32Array;
  /** Documents with no shingles. */
  readonly empty: boolean[];
  readonly shingles: number;
}

export interface PipelineOptions {
  readonly shingle: ShingleOptions;
  /** Most documents per batch. Default 2048. */
  readonly batchDocuments?: number;
  /** A batch is closed once it holds this many shingles. Default 2^20. */
  readonly batchShingles?: number;
}

export interface PipelineTimings {
  /** Milliseconds spent shingling on the CPU. */
  shingleMs: number;
  /** Milliseconds the CPU spent in the backend: submitting batches, then waiting for what did not overlap with shingling. */
  signMs: number;
}

interface PendingBatch {
  readonly documents: InputDocument[];
  readonly sets: Uint32Array[];
}

export async function* signDocuments(
  documents: AsyncIterable<InputDocument>,
  backend: SignerBackend,
  options: PipelineOptions,
  timings: PipelineTimings = { shingleMs: 0, signMs: 0 },
): AsyncGenerator<SignedBatch> {
  const maxDocuments = options.batchDocuments ?? 2048;
  const maxShingles = options.batchShingles ?? 1 << 20;
  let inFlight: Promise<SignedBatch> | undefined;
  let pending: PendingBatch = { documents: [], sets: [] };
  let pendingShingles = 0;

  const submit = (batch: PendingBatch): Promise<SignedBatch> => {
    const { shingles, offsets } = pack(batch.sets);
    const started = performance.now();
    const signing = backend.sign({ shingles, offsets });
    timings.signMs += performance.now() - started;
    return signing.then((signatures) => ({
      documents: batch.documents,
      signatures,
      empty: batch.sets.map((set) => set.length === 0),
      shingles: offsets[offsets.length - 1],
    }));
  };

  const awaitInFlight = async (): Promise<SignedBatch> => {
    const started = performance.now();
    const done = await inFlight!;
    timings.signMs += performance.now() - started;
    return done;
  };

  async function* flush(): AsyncGenerator<SignedBatch> {
    const next = submit(pending);
    next.catch(() => undefined); // awaited below; this only stops an early rejection counting as unhandled
    pending = { documents: [], sets: [] };
    pendingShingles = 0;
    if (inFlight) yield await awaitInFlight();
    inFlight = next;
  }

  for await (const document of documents) {
    const started = performance.now();
    const set = shingleDocument(document.text, options.shingle);
    timings.shingleMs += performance.now() - started;
    pending.documents.push(document);
    pending.sets.push(set);
    pendingShingles += set.length / 2;
    if (pending.documents.length >= maxDocuments || pendingShingles >= maxShingles) yield* flush();
  }
  if (pending.documents.length > 0) yield* flush();
  if (inFlight) yield await awaitInFlight();
}

/** Packs shingle sets end to end (CSR): offsets count shingles, not words. */
export function pack(sets: readonly Uint32Array[]): { shingles: Uint32Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(sets.length + 1);
  for (let i = 0; i < sets.length; i++) offsets[i + 1] = offsets[i] + sets[i].length / 2;
  const shingles = new Uint32Array(offsets[sets.length] * 2);
  for (let i = 0; i < sets.length; i++) shingles.set(sets[i], offsets[i] * 2);
  return { shingles, offsets };
}
