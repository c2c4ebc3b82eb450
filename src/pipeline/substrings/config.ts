/** What a `substrings` run is given, and what it reports. */
import type { ReadOptions } from '../../io/documents.js';
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';
import type { CutMode } from '../../options.js';
import type { NormalizeOptions } from '../../text/normalize.js';

export interface SubstringsConfig {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly minLength: number;
  /** Given: spans of at least this many normalized tokens instead of minLength bytes (tokenRepeats.ts). */
  readonly minTokens?: number;
  /** How --min-tokens normalizes (as --against and the shingles do). */
  readonly normalize?: NormalizeOptions;
  readonly cut: CutMode;
  readonly minRemaining: number;
  /** Bytes for the search's tables; the corpus's text is held in memory besides. */
  readonly memoryLimitBytes: number;
  /** Worker threads for the search (default: one per core). */
  readonly threads?: number;
  /** The edited documents (JSONL or Parquet by the name, as dedup -o). */
  readonly out?: string;
  /** id, start, end, first_id, first_start per span (CSV, JSONL or Parquet by the name). */
  readonly spans?: string;
  /** The summary as JSON. */
  readonly report?: string;
  /** The summary and the most repeated spans as one self-contained HTML page. */
  readonly reportHtml?: string;
  readonly compression?: ParquetCompression;
  /** Where standard input or a pipe is copied when -o reads the corpus again (default: the system's). */
  readonly tempDirectory?: string;
  /** Continue an interrupted search from its checkpoint (checkpoint.ts). */
  readonly resume?: boolean;
  /** Seconds between checkpoints (default 30; the tests use 0). */
  readonly checkpointSeconds?: number;
  /** false: no checkpoint (`dedup --substrings` searches a temporary that no later run could resume from). */
  readonly checkpoint?: boolean;
}

/** The report's fields live beside its page (formats/reports), which the tab builds too. */
export type { SubstringsReport } from '../../formats/reports/substringsReport.js';
