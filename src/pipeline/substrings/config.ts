/** What a `substrings` run is given, and what it reports. */
import type { ReadOptions } from '../../io/documents.js';
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';
import type { CutMode } from '../../options.js';
import type { TopSpan } from '../../substrings/topSpans.js';
import type { SearchStats } from '../../substrings/searchRepeats.js';
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
  readonly compression?: ParquetCompression;
  /** Continue an interrupted search from its checkpoint (checkpoint.ts). */
  readonly resume?: boolean;
  /** Seconds between checkpoints (default 30; the tests use 0). */
  readonly checkpointSeconds?: number;
  /** false: no checkpoint (`dedup --substrings` searches a temporary that no later run could resume from). */
  readonly checkpoint?: boolean;
}

export interface SubstringsReport {
  readonly format: 'gpudedup-substrings-report-1';
  readonly inputs: readonly string[];
  /** The shortest span: minLength bytes, or minTokens tokens (then minLength is absent). */
  readonly minLength?: number;
  readonly minTokens?: number;
  readonly cut: CutMode;
  readonly minRemaining: number;
  readonly documents: number;
  readonly textBytes: number;
  /** Documents with at least one span. */
  readonly documentsTouched: number;
  /** Documents dropped: left empty or under minRemaining. */
  readonly documentsDropped: number;
  readonly spans: number;
  /** Bytes of the spans (as found) and bytes removed (whole characters inside them). */
  readonly spanBytes: number;
  readonly bytesCut: number;
  readonly search: SearchStats & { readonly resumedRounds: number };
  readonly topSpans: ReadonlyArray<TopSpan & { firstId: string; firstStart: number }>;
  readonly seconds: number;
  readonly timings: Record<string, number>;
}
