/**
 * `gpudedup sign` without its command line: documents in, a .npy of
 * signatures plus its sidecar out, resumable. The output is written as
 * `.partial` files, one batch at a time; on failure whatever was signed is kept
 * for `--resume` (or dropped when nothing was).
 */
import { unitId } from '../../firstPass/protocol.js';
import { counted } from '../../format.js';
import type { ReadOptions } from '../../io/documents.js';
import { inputUnits } from '../../firstPass/node/inputUnits.js';
import { listInputFiles, totalInputBytes } from '../../io/readDocuments.js';
import { signedUnits } from '../../firstPass/signedUnits.js';
import { unitSetup } from '../shared/corpusPass.js';
import {
  finishedSignatureDifferences,
  openSignatureOutput,
  type SignatureOutput,
} from '../../formats/shards/signatureFile.js';
import { sidecarPath } from '../../formats/shards/signatureSidecar.js';
import { isParquetOutput } from '../../formats/parquet/parquetFile.js';
import { checkOutputs, type NamedOutput } from '../shared/outputChecks.js';
import { UniqueIds } from '../../exact/uniqueIds.js';
import { partialPath } from '../../formats/files/atomicFile.js';
import { stat } from 'node:fs/promises';
import type { SignatureParams } from '../../signatures/params.js';
import type { BackendChoice } from '../../firstPass/node/resolveBackend.js';
import type { SignedPassTimings } from '../../firstPass/signedUnits.js';
import {
  refuseAllSkipped,
  skippedInputCounter,
  SILENT_HOOKS,
  withProgress,
  withRunSigner,
  type DedupHooks as RunHooks,
  type StageProgress,
  type RunSigner,
} from '../shared/config.js';
import { SignedBatch } from './signedBatch.js';

export interface SignConfig {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly params: SignatureParams;
  readonly backend: BackendChoice;
  /** Worker threads of the CPU backend; default one per core. */
  readonly threads?: number;
  /** The .npy to write; its sidecar is `out + '.json'`. */
  readonly out: string;
  /** Continue an interrupted run from its .partial files. */
  readonly resume: boolean;
  /** Documents per signing batch: memory and checkpoint granularity (default 2048). */
  readonly batchSize?: number;
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
  readonly timings: SignedPassTimings;
  readonly backend: string;
  readonly fellBack: boolean;
  /** Documents taken over from an interrupted run. */
  readonly resumed: number;
  /** `--resume` found the output complete, made with the same parameters: nothing was signed. */
  readonly alreadyComplete?: boolean;
}

type Signer = RunSigner;

export async function runSign(config: SignConfig, hooks: RunHooks = SILENT_HOOKS): Promise<SignSummary> {
  const files = await listInputFiles(config.inputs, hooks.note);
  await checkOutputs(signOutputs(config.out), files);
  if (config.resume) {
    const complete = await completeOutput(config);
    if (complete !== undefined) return complete;
  }
  return withRunSigner(config, hooks, totalInputBytes(files), async (signer) => {
    if (!config.resume && (await exists(partialPath(config.out)))) {
      hooks.note(
        `warning: starting afresh over the checkpoint of an interrupted run (${partialPath(config.out)}); --resume ` +
          `would have continued it`,
      );
    }
    const writer = await openSignatureOutput(config.out, config.params, config.read, config.resume);
    if (writer.documentCount > 0)
      hooks.note(`resuming after ${counted(writer.documentCount, 'document')} already signed`);
    return withProgress(hooks, 'signing', totalInputBytes(files), 'bytes', (progress) =>
      signInto(writer, files, config, signer, hooks, progress),
    );
  });
}

/**
 * What `sign` writes: the .npy and its sidecar, and their checkpoints (fixed
 * names, kept for --resume: an input of that name would be overwritten, so
 * it is refused like the outputs themselves); a Parquet file alone.
 */
function signOutputs(out: string): NamedOutput[] {
  if (out === '-')
    throw new RangeError('sign -o -: signatures are a .npy with a sidecar, or a Parquet file; give a file name');
  if (isParquetOutput(out)) return [{ flag: '-o', path: out }];
  const sidecar = sidecarPath(out);
  return [
    { flag: '-o', path: out },
    { flag: '-o (its sidecar)', path: sidecar },
    { flag: '-o (its checkpoint)', path: partialPath(out) },
    { flag: '-o (its sidecar checkpoint)', path: partialPath(sidecar) },
  ];
}

/**
 * `--resume` over a finished output (no checkpoint left): nothing to sign
 * when it was made with this run's parameters (the summary says so), refused
 * naming the differences otherwise, never silently signed again.
 */
async function completeOutput(config: SignConfig): Promise<SignSummary | undefined> {
  const { out } = config;
  if (isParquetOutput(out) || (await exists(partialPath(out))) || (await exists(partialPath(sidecarPath(out)))))
    return undefined;
  if (!(await exists(out)) || !(await exists(sidecarPath(out)))) return undefined;
  const { differences, rows } = await finishedSignatureDifferences(out, config.params, config.read);
  if (differences.length > 0) {
    throw new Error(
      `${out}: --resume, but it is complete and was signed with other parameters (file vs this run): ` +
        `${differences.join('; ')}; run without --resume to replace it`,
    );
  }
  const none = {
    empty: 0,
    invalidSkipped: 0,
    binarySkipped: [],
    shingles: 0,
    bytes: 0,
    textBytes: 0,
    seconds: 0,
    timings: { shingleMs: 0, signMs: 0 },
  };
  return {
    ...none,
    documents: rows,
    resumed: rows,
    backend: 'none (already complete)',
    fellBack: false,
    alreadyComplete: true,
  };
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
  const timings: SignedPassTimings = { shingleMs: 0, signMs: 0 };
  const started = performance.now();
  const counts = { bytes: 0, shingles: 0, textBytes: 0 };
  try {
    await appendSigned(writer, files, config, signer, invalid, timings, counts, progress);
    refuseAllSkipped(writer.documentCount, invalid);
    await writer.commit({ backend: signer.signer.description });
  } catch (error) {
    // Keep what an interrupted run could resume from; drop a run that wrote nothing.
    if (writer.documentCount === 0) await writer.abort();
    else
      hooks.note(
        `partial output kept (${counted(writer.documentCount, 'document')}): fix the cause and rerun with --resume, ` +
          `or delete ${config.out}.partial`,
      );
    throw error;
  }
  return {
    documents: writer.documentCount,
    empty: writer.emptyCount,
    invalidSkipped: invalid.skipped,
    binarySkipped: invalid.binaryFiles,
    ...counts,
    seconds: (performance.now() - started) / 1000,
    timings,
    backend: signer.signer.description,
    fellBack: signer.signer.fallbackReason !== undefined,
    resumed,
  };
}

/** The first pass's rows appended to `writer` a checkpoint at a time, past the documents an interrupted run signed. */
async function appendSigned(
  writer: SignatureOutput,
  files: Awaited<ReturnType<typeof listInputFiles>>,
  config: SignConfig,
  signer: Signer,
  invalid: ReturnType<typeof skippedInputCounter>,
  timings: SignedPassTimings,
  counts: { bytes: number; shingles: number; textBytes: number },
  progress: StageProgress,
): Promise<void> {
  const resumed = writer.documentCount;
  const checkpoint = config.batchSize ?? 2048;
  const units = signedUnits(
    inputUnits(files, (n) => (counts.bytes = n), { lines: checkpoint }),
    signer.firstPass,
    {
      setup: { ...unitSetup(config.params, config.read, { kind: 'first' }), exactKeys: false }, // every document is signed: no pre-pass keys
      ids: new UniqueIds(),
      onInvalid: invalid.onInvalid,
      onBinary: invalid.onBinary,
      keepSets: false,
      skip: resumeCheck(writer.resumedIds),
    },
    timings,
  );
  const batch = new SignedBatch(config.params.k, checkpoint);
  const width = 2 * config.params.k;
  let position = 0;
  for await (const unit of units) {
    let s = 0;
    for (let d = 0; d < unit.documents.count; d++, position++) {
      if (position < resumed) continue; // signed by the interrupted run (resumeCheck compared the ids)
      batch.add(
        unitId(unit.documents, d),
        unit.documents.empty[d] === 1 ? undefined : unit.signatures.subarray(s * width, ++s * width),
      );
      if (batch.size >= checkpoint) await batch.flushTo(writer);
    }
    counts.shingles += unit.result.shingleCount;
    counts.textBytes += unit.documents.textBytes;
    progress.update(writer.documentCount + batch.size, counts.bytes);
  }
  if (position < resumed)
    throw new Error(
      `cannot resume: the input has ${position} documents, fewer than the ${resumed} the interrupted run signed`,
    );
  await batch.flushTo(writer);
}

/** The documents an interrupted run already signed, in order: not signed again, and checked to be the same ones. */
function resumeCheck(resumedIds: readonly string[]): (position: number, id: string) => boolean {
  return (position, id) => {
    if (position >= resumedIds.length) return false;
    if (id !== resumedIds[position]) {
      throw new Error(
        `cannot resume: input document ${position + 1} has id ${JSON.stringify(id)} but the interrupted run signed ` +
          `${JSON.stringify(resumedIds[position])} there; the input changed (run without --resume to start over)`,
      );
    }
    return true;
  };
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
