/**
 * `gpudedup dedup CORPUS --against REF --containment C`: decontamination by containment
 * (pipeline/index/containmentAgainst.ts).
 */
import { counted } from '../format.js';
import type { ParquetCompression } from '../formats/parquet/parquetFile.js';
import { containmentAgainst, containmentPreflight } from '../pipeline/index/containmentAgainst.js';
import { schemeOf } from '../signatures/params.js';
import { cliHooks } from './indexOptions.js';
import { readOptionsFrom, signatureParamsFrom, type InputCliOptions, type SignatureCliOptions } from './options.js';

export type ContainmentCliOptions = InputCliOptions &
  SignatureCliOptions & {
    containment: number;
    against?: string[];
    out?: string;
    contamination?: string;
    compression: ParquetCompression;
  } & Record<string, unknown>;

/** The dedup flags that have no meaning for a containment run. */
const OTHER_OUTPUTS = [
  'clusters',
  'pairs',
  'report',
  'signatures',
  'clustersFrom',
  'plots',
  'audit',
  'auditFile',
  'reportHtml',
  'dryRun',
] as const;

export async function containmentCommand(inputs: string[], options: ContainmentCliOptions): Promise<void> {
  const given = OTHER_OUTPUTS.filter((name) => options[name] !== undefined && options[name] !== false);
  if (given.length > 0)
    throw new RangeError(
      `--containment writes -o and --contamination only (not ` +
        `--${given.map((n) => n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join(', --')})`,
    );
  if (options.weights !== 'none')
    throw new RangeError(
      `--containment measures shares of shingle sets: it takes no --weights (got ${options.weights})`,
    );
  const p = signatureParamsFrom(options);
  const config = {
    inputs,
    against: options.against ?? [],
    containment: options.containment,
    read: readOptionsFrom(options, () => undefined),
    signature: {
      scheme: schemeOf(p),
      seed: p.seed,
      k: p.k,
      shingle: p.shingle,
      n: p.n,
      nfkc: p.normalize.nfkc,
      stripPunctuation: p.normalize.stripPunctuation,
    },
    out: options.out,
    contamination: options.contamination,
    parquetCompression: options.compression,
  };
  const corpus = await containmentPreflight(config);
  const summary = await containmentAgainst(config, corpus, cliHooks(options.quiet));
  const removed = `removed ${summary.removed.toLocaleString('en-US')} of ${counted(summary.documents, 'document')}`;
  const lines = [
    `${removed}: each holds ≥ ${percentOf(config.containment)} of a reference document's shingles ` +
      `(${summary.seconds.toFixed(2)} s)`,
    ...summary.references.map(
      (r) =>
        `  ${r.file}: ${counted(r.documents, 'reference document')}, ${counted(r.removed, 'corpus document')} removed`,
    ),
  ];
  (options.out === '-' || options.contamination === '-' ? process.stderr : process.stdout).write(
    `${lines.join('\n')}\n`,
  );
}

/** A share as a percentage ("≥ 100 %", "≥ 87.5 %"): "≥ 1 of its shingles" read as one shingle. */
function percentOf(share: number): string {
  return `${Number((share * 100).toFixed(4))} %`;
}
