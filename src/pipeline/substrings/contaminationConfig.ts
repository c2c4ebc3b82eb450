/** n-gram decontamination's settings, summary and reference set (decontaminate.ts, contaminationReport.ts). */
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';
import type { ReadOptions } from '../../io/documents.js';
import type { NgramDecontaminator } from '../../substrings/ngramDecontamination.js';
import type { NormalizeOptions } from '../../text/normalize.js';
import type { ContaminationAction } from '../../options.js';

export interface DecontaminateConfig {
  readonly inputs: readonly string[];
  /** The reference files (benchmarks), each counted on its own. */
  readonly against: readonly string[];
  readonly minTokens: number;
  readonly action: ContaminationAction;
  /** The corpus after the action (every document with `report`). */
  readonly out?: string;
  /** One row per shared span. */
  readonly contamination?: string;
  /** The summary as JSON. */
  readonly report?: string;
  /** With `cut`: a document left with fewer bytes than this is dropped. */
  readonly minRemaining: number;
  readonly read: ReadOptions;
  readonly normalize: NormalizeOptions;
  readonly parquetCompression?: ParquetCompression;
}

export interface DecontaminateSummary {
  /** Malformed lines skipped (--skip-invalid). */
  invalidSkipped: number;
  /** Binary files skipped. */
  binarySkipped: string[];
  documents: number;
  /** Documents sharing at least one span with a reference. */
  contaminated: number;
  /** Documents left out of -o: removed, or cut below --min-remaining. */
  removed: number;
  /** Documents written with spans cut. */
  cut: number;
  /** Bytes of UTF-8 cut from the documents written. */
  bytesCut: number;
  spans: number;
  referenceDocuments: number;
  readonly benchmarks: BenchmarkCount[];
  seconds: number;
}

/** The references in memory: document i's id and the file (benchmark) it came from. */
export interface ReferenceSet {
  readonly decontaminator: NgramDecontaminator;
  readonly ids: string[];
  readonly benchmarkOf: number[];
  readonly files: string[];
}

export interface BenchmarkCount {
  /** The reference file. */
  readonly file: string;
  /** Its reference documents. */
  readonly references: number;
  /** Corpus documents sharing a span with one of its references. */
  documents: number;
  spans: number;
  /** Its references found in the corpus. */
  readonly referencesFound: Set<number>;
}
