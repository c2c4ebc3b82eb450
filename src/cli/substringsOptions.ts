/** The flags of the exact-substring search that `substrings` and `dedup --substrings` share: one name, flag to field. */
import type { Command } from 'commander';
import type { CutMode } from '../options.js';
import type { ParquetCompression } from '../formats/parquet/parquetFile.js';
import type { KeptSubstrings } from '../pipeline/dedupSubstrings/dedupSubstrings.js';
import { tableOption } from './options.js';

export interface SpanCliOptions {
  spans?: string;
  minLength: number;
  cut: CutMode;
  minRemaining: number;
}

/** The search's tables by default: 1 GiB (the corpus's text is held besides). */
export const DEFAULT_SUBSTRINGS_MEMORY = 1 << 30;

/** Each shared option's flag, by its field (for `dedup`'s refusals of them without --substrings). */
export const SPAN_FLAGS: Readonly<Record<keyof SpanCliOptions, string>> = {
  spans: '--spans',
  minLength: '--min-length',
  cut: '--cut',
  minRemaining: '--min-remaining',
};

/** --spans, --min-length, --cut and --min-remaining; `condition` begins each description (dedup's "with --substrings: "). */
export function addSpanOptions(command: Command, condition = ''): Command {
  return command
    .option(
      '--spans <file>',
      `${condition}write id, start, end, first_id, first_start per span: byte offsets in the text's UTF-8 (CSV; ` +
        'JSONL or Parquet by the name)',
    )
    .addOption(
      tableOption(
        'minLength',
        '--min-length <bytes>',
        `${condition}shortest repeated span, in bytes of the text's UTF-8`,
      ),
    )
    .addOption(
      tableOption(
        'cut',
        '--cut <which>',
        `${condition}later: every occurrence but the first (input order); all: every occurrence`,
      ),
    )
    .addOption(
      tableOption(
        'minRemaining',
        '--min-remaining <bytes>',
        `${condition}a document with a cut and fewer bytes left, or no token, is dropped (1: only those left empty or blank)`,
      ),
    );
}

/** The search's settings from the flags: `substrings`' and `dedup --substrings`' (their --memory-limit, --threads). */
export function spanSearchFrom(
  options: SpanCliOptions & { memoryLimit?: number; threads?: number; compression?: ParquetCompression },
): KeptSubstrings {
  return {
    minLength: options.minLength,
    cut: options.cut,
    minRemaining: options.minRemaining,
    memoryLimitBytes: options.memoryLimit ?? DEFAULT_SUBSTRINGS_MEMORY,
    threads: options.threads,
    spans: options.spans,
    compression: options.compression,
  };
}
