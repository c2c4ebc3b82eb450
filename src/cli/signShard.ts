/** `gpudedup sign --shard I/N -o shard.parquet`: the sign command's sharded mode, for `gpudedup cluster`. */
import { parseShardSlice, runSignShard, type SignShardConfig } from '../pipeline/signShard.js';
import { readOptionsFrom, signatureParamsFrom, type InputCliOptions, type SignatureCliOptions } from './options.js';
import { lshParamsFrom, type LshCliOptions } from './params.js';
import { counted } from '../format.js';
import { stageBar } from './progress.js';

export type ShardCliOptions = InputCliOptions & SignatureCliOptions & LshCliOptions & { out: string; shard: string; batchSize: number };

export async function signShardCommand(inputs: string[], options: ShardCliOptions): Promise<void> {
  if (!options.out.toLowerCase().endsWith('.parquet')) throw new RangeError(`--shard writes Parquet: name the output *.parquet, got ${options.out}`);
  const params = signatureParamsFrom(options);
  const config: SignShardConfig = {
    inputs,
    read: readOptionsFrom(options, () => undefined),
    params,
    threshold: options.threshold,
    // The shards' band keys serve `gpudedup cluster`, which verifies by the signature estimate: no recall target.
    lsh: lshParamsFrom(options, params.k, false),
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
  if (options.quiet) return;
  const int = (n: number): string => n.toLocaleString('en-US');
  process.stdout.write(
    [
      s.totalDocuments === s.documents ? `signed shard ${options.shard}: ${counted(s.documents, 'document')} → ${options.out}` : `signed shard ${options.shard}: ${int(s.documents)} of ${counted(s.totalDocuments, 'document')} → ${options.out}`,
      `  empty      ${int(s.empty)}`,
      `  read       ${int(s.bytesRead)} bytes${s.inputBytes ? ` of the input's ${int(s.inputBytes)} (${((100 * s.bytesRead) / s.inputBytes).toFixed(1)} %)` : ''}`,
      `  bands      ${counted(config.lsh.bands, 'band')} × ${counted(config.lsh.rows, 'row')} (threshold ${config.threshold}), k ${params.k}`,
      `  backend    ${s.backend}`,
      `  time       ${s.seconds.toFixed(2)} s`,
    ].join('\n') + '\n',
  );
}
