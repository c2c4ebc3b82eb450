/**
 * `gpudedup sign` without its command line: documents in, a .npy of
 * signatures plus its sidecar out, resumable. The output is written as
 * `.partial` files, one batch at a time; on failure whatever was signed is kept
 * for `--resume` (or dropped when nothing was).
 */
import type { InputDocument, ReadOptions } from '../io/documents.js';
import { listInputFiles, readDocuments, totalInputBytes } from '../io/readDocuments.js';
import { openSignatureOutput, sidecarPath, type SignatureOutput } from '../formats/signatureFile.js';
import { checkOutputs } from './outputChecks.js';
import { requireUniqueIds } from '../firstPass/uniqueIds.js';
import { partialPath } from '../formats/atomicFile.js';
import { stat } from 'node:fs/promises';
import { shingleOptionsOf, type SignatureParams } from '../signatures/params.js';
import type { BackendChoice } from '../signatures/resolveBackend.js';
import { signDocuments, type PipelineTimings } from '../signatures/signDocuments.js';
import { skippedInputCounter, SILENT_HOOKS, withProgress, withRunSigner, type DedupHooks as RunHooks, type StageProgress, type RunSigner } from './config.js';

export interface SignConfig {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly params: SignatureParams;
  readonly backend: BackendChoice;
  /** Worker threads of the CPU backend; default one per core. */
  readonly cpuThreads?: number;
  /** The .npy to write; its sidecar is `out + '.json'`. */
  readonly out: string;
  /** Continue an interrupted run from its .partial files. */
  readonly resume: boolean;
  /** Documents per signing batch: memory and checkpoint granularity (default 2048). */
  readonly batchDocuments?: number;
}

export interface SignSummary {
  readonly documents: number;
  readonly empty: number;
  readonly invalidSkipped: number;
  /** Binary files skipped (never documents). */
  readonly binarySkipped: readonly string[];
  readonly shingles: number;
  readonly bytes: number;
  /** UTF-8 bytes of the documents' texts. */
  readonly textBytes: number;
  readonly seconds: number;
  readonly timings: PipelineTimings;
  readonly backend: string;
  readonly fellBack: boolean;
  /** Documents taken over from an interrupted run. */
  readonly resumed: number;
}

type Signer = RunSigner;

export async function runSign(config: SignConfig, hooks: RunHooks = SILENT_HOOKS): Promise<SignSummary> {
  const files = await listInputFiles(config.inputs);
  await checkOutputs([{ flag: '-o', path: config.out }, { flag: '-o (its sidecar)', path: sidecarPath(config.out) }], files);
  return withRunSigner(config, hooks, async (signer) => {
    if (!config.resume && (await exists(partialPath(config.out)))) {
      hooks.note(`warning: starting afresh over the checkpoint of an interrupted run (${partialPath(config.out)}); --resume would have continued it`);
    }
    const writer = await openSignatureOutput(config.out, config.params, config.read, config.resume);
    if (writer.documentCount > 0) hooks.note(`resuming after ${writer.documentCount} documents already signed`);
    return withProgress(hooks, 'signing', totalInputBytes(files), 'bytes', (progress) => signInto(writer, files, config, signer, hooks, progress));
  });
}

/** Signs every document not yet in `writer`, batch by batch, and commits. */
async function signInto(
  writer: SignatureOutput,
  files: Awaited<ReturnType<typeof listInputFiles>>,
  config: SignConfig,
  signer: Signer,
  hooks: RunHooks,
  progress: StageProgress,
): Promise<SignSummary> {
  const resumed = writer.documentCount;
  const invalid = skippedInputCounter(hooks, config.read);
  const timings: PipelineTimings = { shingleMs: 0, signMs: 0 };
  const started = performance.now();
  let bytes = 0;
  let shingles = 0;
  let textBytes = 0;
  try {
    const documents = skipResumed(requireUniqueIds(readDocuments(files, { ...config.read, onInvalid: invalid.onInvalid, onBinary: invalid.onBinary, onBytes: (n) => (bytes = n) })), writer.resumedIds);
    const pipeline = { shingle: shingleOptionsOf(config.params), batchDocuments: config.batchDocuments, shingler: signer.shingler };
    for await (const batch of signDocuments(documents, signer.signer, pipeline, timings)) {
      await writer.append(batch.documents.map((d) => d.id), batch.signatures, batch.sets.map((set) => set.length === 0));
      shingles += batch.shingles;
      for (const d of batch.documents) textBytes += Buffer.byteLength(d.text);
      progress.update(writer.documentCount, bytes);
    }
    await writer.commit({ backend: signer.signer.description });
  } catch (error) {
    // Keep what an interrupted run could resume from; drop a run that wrote nothing.
    if (writer.documentCount === 0) await writer.abort();
    else hooks.note(`partial output kept (${writer.documentCount} documents): fix the cause and rerun with --resume, or delete ${config.out}.partial`);
    throw error;
  }
  return {
    documents: writer.documentCount,
    empty: writer.emptyCount,
    invalidSkipped: invalid.skipped,
    binarySkipped: invalid.binaryFiles,
    shingles,
    bytes,
    textBytes,
    seconds: (performance.now() - started) / 1000,
    timings,
    backend: signer.signer.description,
    fellBack: signer.signer.fallbackReason !== undefined,
    resumed,
  };
}

/** Skips the documents an interrupted run already signed, checking they are the same ones. */
async function* skipResumed(documents: AsyncIterable<InputDocument>, resumedIds: readonly string[]): AsyncGenerator<InputDocument> {
  let seen = 0;
  for await (const document of documents) {
    if (seen < resumedIds.length) {
      if (document.id !== resumedIds[seen]) {
        throw new Error(
          `cannot resume: input document ${seen + 1} has id ${JSON.stringify(document.id)} but the interrupted run signed ` +
            `${JSON.stringify(resumedIds[seen])} there; the input changed (run without --resume to start over)`,
        );
      }
      seen++;
      continue;
    }
    yield document;
  }
  if (seen < resumedIds.length) {
    throw new Error(`cannot resume: the input has ${seen} documents, fewer than the ${resumedIds.length} the interrupted run signed`);
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
