/** The checks of `gpudedup dedup`'s options against each other and its inputs, before any work. */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { stat } from 'node:fs/promises';
import { readsOnce } from '../io/readDocuments.js';
import { describeKeepPolicy } from '../text/keepPolicy.js';
import { usesShingleSets, type VerifyMode } from '../verify/verification.js';
import type { DedupCliOptions } from './dedupOptions.js';
import { SPAN_FLAGS } from './substringsOptions.js';

/** Without corpus inputs (clustering from --signatures alone): what needs the texts is refused. */
export function checkWithoutCorpus(options: DedupCliOptions, verify: VerifyMode): void {
  const keep = options.keep;
  if (options.signatures === undefined)
    throw new RangeError('no input: give corpus files (or - for standard input), or --signatures');
  if (options.out !== undefined)
    throw new RangeError('-o needs the corpus as input: the kept documents are copied from it');
  if (usesShingleSets(verify))
    throw new RangeError(`--verify ${verify} needs the corpus as input: shingle sets are recomputed from the text`);
  if (keep.kind !== 'first') throw new RangeError(`--keep ${describeKeepPolicy(keep)} needs the corpus as input`);
}

/** At least one output, or --dry-run. */
export function checkSomethingToWrite(options: DedupCliOptions): void {
  if (
    !options.dryRun &&
    [
      options.out,
      options.clusters,
      options.pairs,
      options.contamination,
      options.report,
      options.plots,
      options.auditFile,
      options.reportHtml,
    ].every((p) => p === undefined)
  ) {
    throw new RangeError(
      'nothing to write: give -o, --clusters, --pairs, --contamination, --report, --plots, --audit-file or ' +
        '--report-html (or --dry-run)',
    );
  }
}

/**
 * Whether dedup reads its corpus more than once: to write -o or the tables, for the audit or the page, or for the
 * shingle sets of --verify exact or hybrid (the default). A stream is then copied to a file first (spool.ts).
 */
export function readsCorpusTwice(options: DedupCliOptions): boolean {
  const writes =
    !options.dryRun &&
    [options.out, options.clusters, options.pairs, options.contamination].some((p) => p !== undefined);
  // --weights idf counts document frequencies in a pass of its own, unless it reads an earlier run's table.
  const countsIdf = options.weights === 'idf' && (options.idf === undefined || !existsSync(options.idf));
  return (
    writes ||
    usesShingleSets(options.verify) ||
    options.audit !== undefined ||
    options.reportHtml !== undefined ||
    countsIdf
  );
}

/** Standard input or a pipe is refused where the corpus is read more than once (unless it was copied to a file). */
export function checkReadOnce(inputs: string[], options: DedupCliOptions, verify: VerifyMode): void {
  // Standard input can be read once: enough for the signing pass, not for the writing pass or --verify exact's shingle
  // pass.
  const writes =
    !options.dryRun &&
    [options.out, options.clusters, options.pairs, options.contamination].some((p) => p !== undefined);
  const once = inputs.find(readsOnce);
  if (once !== undefined && (writes || usesShingleSets(verify))) {
    throw new RangeError(
      `${readOnceName(once)} can be read only once, but dedup reads the corpus again to write -o, --clusters, --pairs or ` +
        `--contamination and for --verify exact or hybrid: save it to a file, or run \`gpudedup sign ` +
        `${once === '-' ? '-' : 'FILE'} -o sigs.npy\` and then \`gpudedup dedup --signatures sigs.npy\``,
    );
  }
}

/** The audit measures exact Jaccard on texts: it needs the corpus, readable again; its file needs it asked for. */
export function checkAuditOptions(inputs: string[], options: DedupCliOptions): void {
  if (options.auditFile !== undefined && options.audit === undefined)
    throw new RangeError('--audit-file needs --audit N (the sample size)');
  if (options.auditSeed !== undefined && options.audit === undefined)
    throw new RangeError('--audit-seed needs --audit N (the sample size)');
  if (options.audit === undefined && options.reportHtml === undefined) return;
  const flag = options.audit !== undefined ? '--audit' : '--report-html';
  if (inputs.length === 0) throw new RangeError(`${flag} needs the corpus as input: it reads the texts again`);
  const once = inputs.find(readsOnce);
  if (once !== undefined)
    throw new RangeError(
      `${flag} reads the corpus again, and ${readOnceName(once)} can be read only once: save it to a file`,
    );
}

/** Standard input or a pipe, in a message. */
const readOnceName = (path: string): string => (path === '-' ? 'standard input (-)' : `${path} (a pipe)`);

/** --plots names a directory, created when missing: a file there is refused before any work. */
export async function checkPlotsDirectory(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info !== undefined && !info.isDirectory())
    throw new RangeError(`--plots ${path}: is a file; give a directory (it is created if missing)`);
}

/**
 * --verify, where hybrid (the default) falls back to estimate when the corpus
 * cannot be read again for shingle sets: no corpus input (clustering from a
 * signature file alone) or standard input, with a note. Given explicitly, it is refused later.
 */
export function verifyModeFrom(inputs: string[], options: DedupCliOptions, cmd: Command): VerifyMode {
  const once = inputs.find(readsOnce);
  const rereadable = inputs.length > 0 && once === undefined;
  if (!rereadable && cmd.getOptionValueSource('verify') !== 'cli' && options.verify === 'hybrid') {
    const why = once === undefined ? 'without the corpus' : `${readOnceName(once)} is read once, so`;
    if (!options.quiet)
      process.stderr.write(
        `note: ${why} shingle sets cannot be read for exact Jaccard: pairs are decided by the signature estimate ` +
          `(--verify estimate)\n`,
      );
    return 'estimate';
  }
  return options.verify;
}

/** `--compression` sets the codec of Parquet outputs: given with none, it would do nothing, so it is refused. */
export function checkCompression(options: DedupCliOptions, cmd: Command): void {
  if (cmd.getOptionValueSource('compression') !== 'cli') return;
  const outputs = [options.out, options.clusters, options.pairs, options.contamination, options.spans].filter(
    (p): p is string => p !== undefined,
  );
  if (outputs.some((p) => p.toLowerCase().endsWith('.parquet'))) return;
  const named =
    outputs.length === 0
      ? 'there is no output'
      : `${outputs.join(', ')} ${outputs.length === 1 ? 'is' : 'are'} not Parquet`;
  throw new RangeError(
    `--compression ${options.compression} applies to Parquet outputs (.parquet), but ${named}: JSON Lines and CSV are ` +
      `compressed by their name (.jsonl.zst, .csv.gz)`,
  );
}

/** `--substrings` needs -o and follows the near-duplicate pass alone; the flags of its search are refused without it. */
export function checkSubstringsOptions(options: DedupCliOptions, cmd: Command): void {
  if (!options.substrings) {
    const fields = Object.keys(SPAN_FLAGS) as Array<keyof typeof SPAN_FLAGS>;
    const given = fields.find((field) => cmd.getOptionValueSource(field) === 'cli');
    if (given !== undefined)
      throw new RangeError(
        `${SPAN_FLAGS[given]} applies to the exact-substring search on the kept documents: give --substrings too`,
      );
    return;
  }
  const run = 'run `gpudedup substrings` on its -o instead';
  if (options.out === undefined)
    throw new RangeError('--substrings writes the kept documents with their repeated spans cut to -o: give -o FILE');
  if (options.dryRun) throw new RangeError('--substrings writes -o: it cannot run with --dry-run');
  if (options.clustersFrom !== undefined)
    throw new RangeError(`--substrings follows the near-duplicate pass, not --clusters-from: ${run}`);
  if (options.containment !== undefined)
    throw new RangeError(`--substrings follows the near-duplicate pass, not --containment: ${run}`);
}
