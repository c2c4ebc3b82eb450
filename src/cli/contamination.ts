/**
 * `gpudedup substrings CORPUS --against EVAL… [--min-tokens N] [--action remove|cut|report] [--contamination FILE]`:
 * n-gram decontamination's flags and run (src/pipeline/substrings/decontaminate.ts). The substrings command hands
 * over to it when --against is given.
 */
import type { Command } from 'commander';
import type { ParquetCompression } from '../formats/parquet/parquetFile.js';
import { CONTAMINATION_MIN_TOKENS, type ContaminationAction } from '../options.js';
import {
  decontaminate,
  decontaminatePreflight,
  type DecontaminateConfig,
} from '../pipeline/substrings/decontaminate.js';
import { contaminationLines } from '../pipeline/substrings/contaminationReport.js';
import { cliHooks, readFrom } from './indexOptions.js';
import { tableOption, type InputCliOptions } from './options.js';

export type ContaminationCliOptions = InputCliOptions & {
  against?: string[];
  minTokens?: number;
  action: ContaminationAction;
  contamination?: string;
  nfkc: boolean;
  stripPunctuation: boolean;
  out?: string;
  report?: string;
  minRemaining?: number;
  compression?: ParquetCompression;
  /** substrings' own span table: refused with --against. */
  spans?: string;
};

export function addContaminationOptions(command: Command): Command {
  return command
    .option(
      '--against <files...>',
      'n-gram decontamination: reference (benchmark) files, each counted on its own; documents sharing ' +
        'a span of --min-tokens tokens with one are removed, cut or reported',
    )
    .addOption(
      tableOption(
        'minTokens',
        '--min-tokens <n>',
        'the shortest span in normalized tokens: without --against, repeated in the corpus (instead of ' +
          `--min-length; one thread); with it, shared with a reference (default ${CONTAMINATION_MIN_TOKENS})`,
      ),
    )
    .addOption(
      tableOption(
        'action',
        '--action <what>',
        'with --against: remove the document, cut its shared spans, or only report them',
      ),
    )
    .option(
      '--contamination <file>',
      'with --against: one row per shared span (id, reference, benchmark, byte offsets in both texts, ' +
        'tokens, span); CSV, JSONL or Parquet by the name',
    )
    .addOption(tableOption('nfkc', '--nfkc', 'with --min-tokens or --against: apply Unicode NFKC before tokenizing'))
    .addOption(
      tableOption(
        'stripPunctuation',
        '--strip-punctuation',
        'with --min-tokens or --against: turn Unicode punctuation and symbols into spaces before tokenizing',
      ),
    );
}

export function contaminationConfigFrom(inputs: string[], options: ContaminationCliOptions): DecontaminateConfig {
  if (inputs.length === 0) throw new RangeError('no corpus to decontaminate: give files (or - for standard input)');
  if (options.spans !== undefined)
    throw new RangeError(
      '--spans is the table of repeated spans; with --against the shared spans go to --contamination FILE',
    );
  if ([options.out, options.contamination, options.report].every((p) => p === undefined)) {
    throw new RangeError('nothing to write: give -o, --contamination or --report');
  }
  return {
    inputs,
    against: options.against ?? [],
    minTokens: options.minTokens ?? CONTAMINATION_MIN_TOKENS,
    action: options.action,
    out: options.out,
    contamination: options.contamination,
    report: options.report,
    minRemaining: options.minRemaining ?? 1,
    read: readFrom(options),
    normalize: { nfkc: options.nfkc, stripPunctuation: options.stripPunctuation },
    parquetCompression: options.compression,
  };
}

/**
 * Runs decontamination for the command line; its summary goes to standard output, or standard error when an output
 * does.
 */
export async function runContaminationCommand(inputs: string[], options: ContaminationCliOptions): Promise<void> {
  const config = contaminationConfigFrom(inputs, options);
  const files = await decontaminatePreflight(config);
  const summary = await decontaminate(config, files, cliHooks(options.quiet));
  const toStdout = [options.out, options.contamination, options.report].includes('-');
  if (!options.quiet)
    (toStdout ? process.stderr : process.stdout).write(`${contaminationLines(summary, config).join('\n')}\n`);
}
