/** `gpudedup sign --shard I/N -o shard.parquet`: the sign command's sharded mode, for `gpudedup cluster`. */
import {
  parseShardSlice,
  runSignShard,
  type SignShardConfig,
  type SignShardSummary,
} from '../pipeline/sign/signShard.js';
import {
  idfIdentityFrom,
  readOptionsFrom,
  signatureParamsFrom,
  type InputCliOptions,
  type SignatureCliOptions,
} from './options.js';
import type { Command } from 'commander';
import { lshParamsFrom, type LshCliOptions } from './params.js';
import { simhashRun } from './simhashOptions.js';
import { schemeOf } from '../signatures/params.js';
import { counted } from '../format.js';
import { stageBar } from './progress.js';
import { defaultOf, type VerifyMode } from '../options.js';
import { usesShingleSets } from '../verify/verification.js';
import type { KeepPolicy } from '../text/keepPolicy.js';

export type ShardCliOptions = InputCliOptions &
  SignatureCliOptions &
  LshCliOptions & {
    out: string;
    shard: string;
    shardLists?: boolean;
    batchSize: number;
    verify?: VerifyMode;
    keep?: KeepPolicy;
    maxHamming: number;
  };

const STORED = {
  lists: 'shingle lists stored (for --verify hybrid or exact)',
  texts: "text ranges stored (for --verify hybrid or exact: cluster reads the input's texts again)",
  none: 'none (for --verify estimate)',
} as const;

export async function signShardCommand(inputs: string[], options: ShardCliOptions, cmd: Command): Promise<void> {
  if (!options.out.toLowerCase().endsWith('.parquet'))
    throw new RangeError(`--shard writes Parquet: name the output *.parquet, got ${options.out}`);
  // Every shard counts the whole corpus (or reads --idf FILE): one table, so `cluster` takes their shards together.
  const params = signatureParamsFrom(options, undefined, await idfIdentityFrom(inputs, options));
  // The shard is for the verification `cluster` will run: dedup's bands for it, and the shingle sets exact Jaccard
  // needs.
  const verify = options.verify ?? defaultOf('verify');
  const exact = usesShingleSets(verify);
  // SimHash: Manku's block tables of --max-hamming and its threshold, as dedup takes them (simhashOptions.ts).
  const simhash = schemeOf(params) === 'simhash' ? simhashRun(options.maxHamming, cmd, verify) : undefined;
  if (simhash === undefined && cmd.getOptionValueSource('maxHamming') === 'cli')
    throw new RangeError('--max-hamming applies to --scheme simhash only (its block tables)');
  const config: SignShardConfig = {
    inputs,
    read: readOptionsFrom(options, () => undefined),
    params,
    threshold: simhash?.threshold ?? options.threshold,
    lsh: simhash?.lsh ?? lshParamsFrom(options, params.k, exact),
    storeSets: exact,
    lists: options.shardLists === true,
    // first and longest need nothing more than the shard's position and length columns.
    scoreField: options.keep?.kind === 'field' ? options.keep.field : undefined,
    shard: parseShardSlice(options.shard),
    backend: options.backend,
    threads: options.threads,
    out: options.out,
    batchSize: options.batchSize,
  };
  const s = await runSignShard(config, {
    note: (message) => {
      if (!options.quiet) process.stderr.write(`${message}\n`);
    },
    stage: (label, total, unit) => stageBar(label, total, unit, options.quiet),
  });
  if (!options.quiet) printSummary(s, config, options, simhash !== undefined);
}

function printSummary(s: SignShardSummary, config: SignShardConfig, options: ShardCliOptions, simhash: boolean): void {
  const { params } = config;
  const int = (n: number): string => n.toLocaleString('en-US');
  process.stdout.write(
    [
      s.totalDocuments === s.documents
        ? `signed shard ${options.shard}: ${counted(s.documents, 'document')} → ${options.out}`
        : `signed shard ${options.shard}: ${int(s.documents)} of ${counted(s.totalDocuments, 'document')} → ` +
          `${options.out}`,
      `  empty      ${int(s.empty)}`,
      `  read       ${int(s.bytesRead)} ` +
        `bytes${
          s.inputBytes
            ? ` of the input's ${int(s.inputBytes)} ` + `(${((100 * s.bytesRead) / s.inputBytes).toFixed(1)} %)`
            : ''
        }`,
      `  sets       ${STORED[s.stored]}`,
      !simhash
        ? `  bands      ${counted(config.lsh.bands, 'band')} × ${counted(config.lsh.rows, 'row')} (threshold ` +
          `${config.threshold}), k ${params.k}`
        : `  blocks     ${counted(config.lsh.bands, 'block table')} of ${counted(config.lsh.rows, 'bit')} ` +
          `(Hamming ≤ ${options.maxHamming}), 64-bit fingerprints`,
      `  backend    ${s.backend}`,
      `  time       ${s.seconds.toFixed(2)} s`,
    ].join('\n') + '\n',
  );
}
