/**
 * Streams documents through shingling and a signing backend, in batches.
 *
 * While the backend signs batch i (on the GPU, asynchronously), the CPU shingles
 * batch i + 1 (on worker threads with a ShinglePool): at most two batches are in
 * flight, and batches come out in input order. Wrap the backend in a
 * FallbackSigner to survive a failing GPU.
 */
import { INLINE_SHINGLER, type Shingler } from '../shingles/shingler.js';
import type { ShingleOptions } from '../shingles/shingles.js';
import type { SignerBackend } from './backend.js';
import { pack } from '../shingles/shingleBatch.js';
import { defaultOf } from '../options.js';

/** What signing needs of a document: its text (readers' InputDocument and the tab's documents both fit). */
export interface TextDocument {
  readonly text: string;
}

export interface SignedBatch<D extends TextDocument = TextDocument> {
  readonly documents: D[];
  /** documents·k·2 words: 64-bit slots as (lo, hi). */
  readonly signatures: Uint32Array;
  /** The documents' shingle sets, (lo, hi) pairs; an empty set is an empty document. */
  readonly sets: Uint32Array[];
  readonly shingles: number;
}

export interface PipelineOptions {
  readonly shingle: ShingleOptions;
  /** Most documents per batch. Default 2048. */
  readonly batchDocuments?: number;
  /** A batch is closed once its texts hold this many UTF-16 code units. Default 2^23 (8 Mi, ~1.4 M shingles of prose). */
  readonly batchCharacters?: number;
  /** Who shingles each batch: the calling thread unless given (Node passes a ShinglePool). */
  readonly shingler?: Shingler;
}

export interface PipelineTimings {
  /** Milliseconds spent waiting for a batch's shingles (on this thread or the pool's). */
  shingleMs: number;
  /** Milliseconds the CPU spent in the backend: submitting batches, then waiting for what did not overlap with shingling. */
  signMs: number;
}

export async function* signDocuments<D extends TextDocument>(
  documents: AsyncIterable<D> | Iterable<D>,
  backend: SignerBackend,
  options: PipelineOptions,
  timings: PipelineTimings = { shingleMs: 0, signMs: 0 },
): AsyncGenerator<SignedBatch<D>> {
  const maxDocuments = options.batchDocuments ?? defaultOf('batchSize');
  const maxCharacters = options.batchCharacters ?? 1 << 23;
  const shingler = options.shingler ?? INLINE_SHINGLER;
  let inFlight: Promise<SignedBatch<D>> | undefined;
  let pending: D[] = [];
  let pendingCharacters = 0;

  const submit = (batch: D[], sets: Uint32Array[]): Promise<SignedBatch<D>> => {
    const { shingles, offsets } = pack(sets);
    const started = performance.now();
    const signing = backend.sign({ shingles, offsets });
    timings.signMs += performance.now() - started;
    return signing.then((signatures) => ({
      documents: batch,
      signatures,
      sets,
      shingles: offsets[offsets.length - 1],
    }));
  };

  const awaitInFlight = async (): Promise<SignedBatch<D>> => {
    const started = performance.now();
    const done = await inFlight!;
    timings.signMs += performance.now() - started;
    return done;
  };

  async function* flush(): AsyncGenerator<SignedBatch<D>> {
    const batch = pending;
    pending = [];
    pendingCharacters = 0;
    // The batch in flight keeps the backend busy while this one is shingled.
    const started = performance.now();
    const sets = await shingler.shingleAll(batch.map((d) => d.text), options.shingle);
    timings.shingleMs += performance.now() - started;
    const next = submit(batch, sets);
    next.catch(() => undefined); // awaited below; this only stops an early rejection counting as unhandled
    if (inFlight) yield await awaitInFlight();
    inFlight = next;
  }

  for await (const document of documents) {
    pending.push(document);
    pendingCharacters += document.text.length;
    if (pending.length >= maxDocuments || pendingCharacters >= maxCharacters) yield* flush();
  }
  if (pending.length > 0) yield* flush();
  if (inFlight) yield await awaitInFlight();
}
