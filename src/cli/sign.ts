/** `gpudedup sign`: parses the command line, runs src/pipeline/sign/sign.ts, prints the summary. */
import type { Command } from 'commander';
import { sidecarPath } from '../formats/shards/signatureSidecar.js';
import { counted } from '../format.js';
import { namesOf } from '../pipeline/shared/report.js';
import { runSign, type SignConfig, type SignSummary } from '../pipeline/sign/sign.js';
import { isParquetOutput } from '../formats/parquet/parquetFile.js';
import {
  addInputOptions,
  addSignatureOptions,
  readOptionsFrom,
  signatureParamsFrom,
  idfIdentityFrom,
  tableOption,
  type InputCliOptions,
  type SignatureCliOptions,
} from './options.js';
import { addLshOptions, lshParamsFrom, type LshCliOptions } from './params.js';
import { stageBar } from './progress.js';
import { onInterrupt } from '../formats/files/temporaries.js';
import { signShardCommand, type ShardCliOptions } from './signShard.js';
import { addSimhashOptions } from './simhashOptions.js';
import type { VerifyMode } from '../options.js';
import type { KeepPolicy } from '../text/keepPolicy.js';

type SignCliOptions = InputCliOptions &
  SignatureCliOptions &
  LshCliOptions & {
    out: string;
    resume: boolean;
    batchSize: number;
    shard?: string;
    shardLists?: boolean;
    verify?: VerifyMode;
    keep?: KeepPolicy;
    maxHamming: number;
  };

export function registerSignCommand(program: Command): void {
  const command = program
    .command('sign')
    .description(
      'compute MinHash signatures of documents into a .npy file (plus a .npy.json sidecar) or a .parquet file',
    )
    .argument(
      '<inputs...>',
      'JSONL, Parquet or plain-text files, directories of them, or - for standard input (gzip and zstd are detected)',
    )
    .requiredOption(
      '-o, --out <file.npy>',
      'signatures to write: NumPy .npy (shape documents × k, --scheme simhash documents × 1 uint64 fingerprints, plus ' +
        'a .npy.json sidecar) or .parquet (id + one column per slot)',
    )
    .option('--resume', 'continue an interrupted run from its .partial files (same inputs and parameters)', false)
    .addOption(
      tableOption(
        'batchSize',
        '--batch-size <documents>',
        'documents per signing batch (memory and checkpoint granularity)',
      ),
    )
    .option(
      '--shard <I/N>',
      'sign the I-th of N parts of the input (its own files, row groups or byte ranges: N shards read it once) into a ' +
        'Parquet shard for `gpudedup cluster` (with the band options)',
    )
    .option(
      '--shard-lists',
      "with --shard: store each document's shingle list (about 1.1× the input's bytes), not where its text lies; " +
        'the Spark job, cluster --against and --audit need them (compressed, Parquet or standard input get them anyway)',
    )
    .addOption(
      tableOption(
        'verify',
        '--verify <mode>',
        'with --shard: the verification `cluster` will run (default hybrid): hybrid and exact store where each ' +
          "document's text lies (or its shingle list) and band as dedup does for them; estimate and none store neither",
        {
          withDefault: false,
        },
      ),
    )
    .addOption(
      tableOption(
        'keep',
        '--keep <policy>',
        "with --shard: field:NAME stores that field's numeric value for `cluster --keep field:NAME` (first and " +
          'longest need nothing)',
        { withDefault: false },
      ),
    );
  // The LSH options fix the band layout whose keys b-bit signatures (--slot-bits below 32) store.
  addSimhashOptions(
    addLshOptions(addSignatureOptions(addInputOptions(command))),
    "with --shard and --scheme simhash: the Hamming distance `cluster` will find pairs within (Manku's block tables)",
  ).action(runSignCommand);
}

async function runSignCommand(inputs: string[], options: SignCliOptions, cmd: Command): Promise<void> {
  if (options.shard !== undefined) {
    if (options.resume) throw new RangeError('--resume does not apply to --shard: rerun the shard');
    return signShardCommand(inputs, options as ShardCliOptions, cmd);
  }
  if (cmd.getOptionValueSource('maxHamming') === 'cli')
    throw new RangeError(
      '--max-hamming applies to sign --shard --scheme simhash only (the block tables of its shards)',
    );
  if (options.verify !== undefined)
    throw new RangeError('--verify applies to sign --shard only (the verification its shards are for)');
  if (options.shardLists === true) throw new RangeError('--shard-lists applies to sign --shard only');
  if (options.keep !== undefined)
    throw new RangeError('--keep applies to sign --shard only (the score its shards store)');
  const config = signConfigFrom(inputs, options, await idfIdentityFrom(inputs, options));
  const summary = await signWithProgress(config, options.quiet);
  if (!options.quiet) printSummary({ ...options, slotBits: config.params.slotBits }, summary);
}

/** `idf`: the identity of the run's idf table (idfIdentityFrom), with --weights idf. */
export function signConfigFrom(inputs: string[], options: SignCliOptions, idf?: string): SignConfig {
  const bandKeys = (options.slotBits ?? 64) < 32 ? lshParamsFrom(options, options.k) : undefined;
  return {
    inputs,
    read: readOptionsFrom(options, () => undefined),
    params: signatureParamsFrom(options, bandKeys, idf),
    backend: options.backend,
    threads: options.threads,
    out: options.out,
    resume: options.resume,
    batchSize: options.batchSize,
  };
}

/**
 * Runs the sign pipeline with notes and a progress bar on standard error; Ctrl-C leaves the .partial files for
 * --resume.
 */
async function signWithProgress(config: SignConfig, quiet: boolean): Promise<SignSummary> {
  let signed = 0;
  // The signal handler (temporaries.ts) exits with 130 or 143; the checkpoint (.partial) stays for --resume.
  const forget = onInterrupt(() =>
    process.stderr.write(`\ninterrupted after ${counted(signed, 'document')}; run again with --resume to continue\n`),
  );
  try {
    return await runSign(config, {
      note: (message) => {
        if (!quiet) process.stderr.write(`${message}\n`);
      },
      stage: (label, total, unit) => {
        const bar = stageBar(label, total, unit, quiet);
        return { update: (done, bytes) => bar.update((signed = done), bytes), stop: () => bar.stop() };
      },
    });
  } finally {
    forget();
  }
}

function printSummary(options: SignCliOptions, s: SignSummary): void {
  if (s.alreadyComplete) {
    process.stdout.write(
      `${options.out} is complete (${counted(s.documents, 'document')}, signed with these parameters): nothing to ` +
        `resume; run without --resume to sign again\n`,
    );
    return;
  }
  const int = (n: number): string => n.toLocaleString('en-US');
  // OPH: one per shingle, plus densification
  const simhash = options.scheme === 'simhash'; // one hash an element
  const packed = simhash && !isParquetOutput(options.out); // a .npy of one uint64 fingerprint a document (simhashNpy.ts)
  const evaluations = options.scheme === 'oph' || simhash ? s.shingles : s.shingles * options.k;
  const perSecond = (n: number): string =>
    (n / Math.max(s.seconds, 1e-9)).toLocaleString('en-US', { maximumFractionDigits: 0 });
  const dtype = packed
    ? 'uint64 fingerprints'
    : options.slotBits === 64
      ? 'uint64'
      : options.slotBits === 32
        ? 'uint32'
        : `uint32 words: band keys + ${options.slotBits}-bit slots`;
  const lines = [
    `signed ${counted(s.documents, 'document')}${s.resumed > 0 ? ` (${int(s.resumed)} of them by the interrupted run resumed)` : ''} → ${options.out} (${dtype}, ${int(s.documents)} × ${packed ? 1 : options.k})${isParquetOutput(options.out) ? '' : ` + ${sidecarPath(options.out)}`}`,
    `  empty      ${int(s.empty)} (all slots all-ones, never clustered)`,
    `  skipped    ${counted(s.invalidSkipped, 'invalid line')}` +
      (s.binarySkipped.length > 0
        ? `, ${counted(s.binarySkipped.length, 'binary file')} (${namesOf(s.binarySkipped)})`
        : ''),
    `  shingles   ${int(s.shingles)} (${options.shingle} ${options.ngram}-grams), ${int(evaluations)} hash evaluations`,
    `  backend    ${s.backend}`,
    `  time       ${s.seconds.toFixed(2)} s (shingling ${(s.timings.shingleMs / 1000).toFixed(2)} s, signing ` +
      `${(s.timings.signMs / 1000).toFixed(2)} s not overlapped)`,
    `  throughput ${perSecond(s.documents - s.resumed)} docs/s, ` +
      `${(s.textBytes / 1e6 / Math.max(s.seconds, 1e-9)).toFixed(2)} MB/s of text, ${perSecond(evaluations)} hash evaluations/s`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
