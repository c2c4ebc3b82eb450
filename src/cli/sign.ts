/** `gpudedup sign`: documents in, a .npy of signatures plus its sidecar out. */
import { Command } from 'commander';
import { listInputFiles, readDocuments } from '../io/readDocuments.js';
import { SignatureWriter, sidecarPath } from '../output/signatureFile.js';
import { FallbackSigner } from '../signatures/fallbackSigner.js';
import { hashFamilyOf, shingleOptionsOf } from '../signatures/params.js';
import { signDocuments, type PipelineTimings } from '../signatures/pipeline.js';
import { resolveBackend } from '../signatures/resolveBackend.js';
import {
  addInputOptions,
  addSignatureOptions,
  readOptionsFrom,
  signatureParamsFrom,
  type InputCliOptions,
  type SignatureCliOptions,
} from './options.js';
import { startProgress } from './progress.js';

type SignCliOptions = InputCliOptions & SignatureCliOptions & { out: string };

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
}

export function registerSignCommand(program: Command): void {
  const command = program
    .command('sign')
    .description('compute MinHash signatures of documents into a .npy file (plus a .npy.json sidecar)')
    .argument('<inputs...>', 'JSONL files, plain-text files, directories of them, or - for standard input (gzip is detected)')
    .requiredOption('-o, --out <file.npy>', 'signatures to write (NumPy .npy, shape documents × k)');
  addSignatureOptions(addInputOptions(command)).action(async (inputs: string[], options: SignCliOptions) => {
    const summary = await runSign(inputs, options);
    printSummary(options, summary);
  });
}

export async function runSign(inputs: string[], options: SignCliOptions): Promise<SignSummary> {
  const params = signatureParamsFrom(options);
  const family = hashFamilyOf(params);
  const files = await listInputFiles(inputs);
  const knownSizes = files.every((f) => f.size !== undefined);
  const totalBytes = knownSizes ? files.reduce((sum, f) => sum + (f.size ?? 0), 0) : undefined;
  const note = (message: string): void => {
    if (!options.quiet) process.stderr.write(`${message}\n`);
  };

  const resolved = await resolveBackend(options.backend, family);
  for (const line of resolved.notes) note(`backend ${line}`);
  const backend = new FallbackSigner(resolved.backend, family, (error) =>
    process.stderr.write(`warning: ${resolved.backend.kind} backend failed (${error.message}); finishing on the CPU\n`),
  );

  let invalidSkipped = 0;
  let bytes = 0;
  const readOptions = {
    ...readOptionsFrom(options, (message: string) => {
      invalidSkipped++;
      note(`skipped ${message}`);
    }),
    onBytes: (n: number) => (bytes = n),
  };
  const writer = await SignatureWriter.create(options.out, params);
  const progress = startProgress('signing', totalBytes, options.quiet);
  const timings: PipelineTimings = { shingleMs: 0, signMs: 0 };
  const started = performance.now();
  let shingles = 0;
  let textBytes = 0;
  try {
    const batches = signDocuments(readDocuments(files, readOptions), backend, { shingle: shingleOptionsOf(params) }, timings);
    for await (const batch of batches) {
      await writer.append(batch.documents.map((d) => d.id), batch.signatures, batch.empty);
      shingles += batch.shingles;
      for (const d of batch.documents) textBytes += Buffer.byteLength(d.text);
      progress.update(writer.documentCount, bytes);
    }
    await writer.commit({ backend: backend.description });
  } catch (error) {
    await writer.abort();
    throw error;
  } finally {
    progress.stop();
    backend.destroy();
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
  };
}

function printSummary(options: SignCliOptions, s: SignSummary): void {
  const int = (n: number): string => n.toLocaleString('en-US');
  const evaluations = s.shingles * options.k;
  const perSecond = (n: number): string => (n / Math.max(s.seconds, 1e-9)).toLocaleString('en-US', { maximumFractionDigits: 0 });
  const dtype = options.slotBits === 64 ? 'uint64' : 'uint32';
  const lines = [
    `signed ${int(s.documents)} documents → ${options.out} (${dtype}, ${int(s.documents)} × ${options.k}) + ${sidecarPath(options.out)}`,
    `  empty      ${int(s.empty)} (all slots all-ones, never clustered)`,
    `  skipped    ${int(s.invalidSkipped)} invalid lines`,
    `  shingles   ${int(s.shingles)} (${options.shingle} ${options.ngram}-grams), ${int(evaluations)} hash evaluations`,
    `  backend    ${s.backend}`,
    `  time       ${s.seconds.toFixed(2)} s (shingling ${(s.timings.shingleMs / 1000).toFixed(2)} s, signing ${(s.timings.signMs / 1000).toFixed(2)} s not overlapped)`,
    `  throughput ${perSecond(s.documents)} docs/s, ${(s.textBytes / 1e6 / Math.max(s.seconds, 1e-9)).toFixed(2)} MB/s of text, ${perSecond(evaluations)} hash evaluations/s`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
