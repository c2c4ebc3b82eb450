/** `gpudedup sign`: documents in, a .npy of signatures plus its sidecar out. */
import { Command } from 'commander';
import type { InputDocument } from '../io/documents.js';
import { listInputFiles, readDocuments, totalInputBytes } from '../io/readDocuments.js';
import { openSignatureOutput, sidecarPath, type SignatureOutput } from '../formats/signatureFile.js';
import { isParquetOutput } from '../formats/parquetFile.js';
import { hashFamilyOf, shingleOptionsOf } from '../signatures/params.js';
import { signDocuments, type PipelineTimings } from '../signatures/signDocuments.js';
import { openSigner } from '../signatures/resolveBackend.js';
import {
  addInputOptions,
  addSignatureOptions,
  positiveInteger,
  readOptionsFrom,
  signatureParamsFrom,
  type InputCliOptions,
  type SignatureCliOptions,
} from './options.js';
import { startProgress } from './progress.js';

type SignCliOptions = InputCliOptions & SignatureCliOptions & { out: string; resume: boolean; batchSize: number };

export interface SignSummary {
  readonly documents: number;
  readonly empty: number;
  readonly invalidSkipped: number;
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

export function registerSignCommand(program: Command): void {
  const command = program
    .command('sign')
    .description('compute MinHash signatures of documents into a .npy file (plus a .npy.json sidecar) or a .parquet file')
    .argument('<inputs...>', 'JSONL, Parquet or plain-text files, directories of them, or - for standard input (gzip and zstd are detected)')
    .requiredOption('-o, --out <file.npy>', 'signatures to write: NumPy .npy (shape documents × k, plus a .npy.json sidecar) or .parquet (id + one column per slot)')
    .option('--resume', 'continue an interrupted run from its .partial files (same inputs and parameters)', false)
    .option('--batch-size <documents>', 'documents per signing batch (memory and checkpoint granularity)', positiveInteger, 2048);
  addSignatureOptions(addInputOptions(command)).action(async (inputs: string[], options: SignCliOptions) => {
    const summary = await runSign(inputs, options);
    printSummary(options, summary);
  });
}

export async function runSign(inputs: string[], options: SignCliOptions): Promise<SignSummary> {
  const params = signatureParamsFrom(options);
  const family = hashFamilyOf(params);
  const files = await listInputFiles(inputs);
  const totalBytes = totalInputBytes(files);
  const note = (message: string): void => {
    if (!options.quiet) process.stderr.write(`${message}\n`);
  };

  const { signer: backend, shingler, notes } = await openSigner(options.backend, family, {
    cpuThreads: options.threads,
    onFallback: (error) => process.stderr.write(`warning: the GPU backend failed (${error.message}); finishing on the CPU\n`),
  });
  for (const line of notes) note(`backend ${line}`);

  let invalidSkipped = 0;
  let bytes = 0;
  const readOptions = {
    ...readOptionsFrom(options, (message: string) => {
      invalidSkipped++;
      note(`skipped ${message}`);
    }),
    onBytes: (n: number) => (bytes = n),
  };
  let writer: SignatureOutput;
  try {
    writer = await openSignatureOutput(options.out, params, options.resume);
  } catch (error) {
    backend.destroy(); // a live GPU device busy-waits a core until destroyed
    shingler.destroy();
    throw error;
  }
  const resumed = writer.documentCount;
  if (resumed > 0) note(`resuming after ${resumed} documents already signed`);
  const onInterrupt = (): void => {
    process.stderr.write(`\ninterrupted after ${writer.documentCount} documents; run again with --resume to continue\n`);
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  const progress = startProgress('signing', totalBytes, options.quiet);
  const timings: PipelineTimings = { shingleMs: 0, signMs: 0 };
  const started = performance.now();
  let shingles = 0;
  let textBytes = 0;
  try {
    const documents = skipResumed(readDocuments(files, readOptions), writer.resumedIds);
    const pipeline = { shingle: shingleOptionsOf(params), batchDocuments: options.batchSize, shingler };
    const batches = signDocuments(documents, backend, pipeline, timings);
    for await (const batch of batches) {
      await writer.append(batch.documents.map((d) => d.id), batch.signatures, batch.sets.map((set) => set.length === 0));
      shingles += batch.shingles;
      for (const d of batch.documents) textBytes += Buffer.byteLength(d.text);
      progress.update(writer.documentCount, bytes);
    }
    await writer.commit({ backend: backend.description });
  } catch (error) {
    // Keep what an interrupted run could resume from; drop a run that wrote nothing.
    if (writer.documentCount === 0) await writer.abort();
    else note(`partial output kept (${writer.documentCount} documents): fix the cause and rerun with --resume, or delete ${options.out}.partial`);
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
    progress.stop();
    backend.destroy();
    shingler.destroy();
  }
  return {
    documents: writer.documentCount,
    empty: writer.emptyCount,
    invalidSkipped,
    shingles,
    bytes,
    textBytes,
    seconds: (performance.now() - started) / 1000,
    timings,
    backend: backend.description,
    fellBack: backend.fallbackReason !== undefined,
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

function printSummary(options: SignCliOptions, s: SignSummary): void {
  const int = (n: number): string => n.toLocaleString('en-US');
  const evaluations = s.shingles * options.k;
  const perSecond = (n: number): string => (n / Math.max(s.seconds, 1e-9)).toLocaleString('en-US', { maximumFractionDigits: 0 });
  const dtype = options.slotBits === 64 ? 'uint64' : 'uint32';
  const lines = [
    `signed ${int(s.documents)} documents${s.resumed > 0 ? ` (${int(s.resumed)} of them by the interrupted run resumed)` : ''} → ${options.out} (${dtype}, ${int(s.documents)} × ${options.k})${isParquetOutput(options.out) ? '' : ` + ${sidecarPath(options.out)}`}`,
    `  empty      ${int(s.empty)} (all slots all-ones, never clustered)`,
    `  skipped    ${int(s.invalidSkipped)} invalid lines`,
    `  shingles   ${int(s.shingles)} (${options.shingle} ${options.ngram}-grams), ${int(evaluations)} hash evaluations`,
    `  backend    ${s.backend}`,
    `  time       ${s.seconds.toFixed(2)} s (shingling ${(s.timings.shingleMs / 1000).toFixed(2)} s, signing ${(s.timings.signMs / 1000).toFixed(2)} s not overlapped)`,
    `  throughput ${perSecond(s.documents - s.resumed)} docs/s, ${(s.textBytes / 1e6 / Math.max(s.seconds, 1e-9)).toFixed(2)} MB/s of text, ${perSecond(evaluations)} hash evaluations/s`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
