/**
 * Messages between the page (which only draws) and the dedup worker (which
 * reads, signs, clusters and answers the inspector's questions). Everything in
 * them is structured-cloneable; Files and Blobs travel by reference.
 */
import type { LshParams } from '../src/bands/lshParams.js';
import type { AssignmentCounts } from '../src/clusters/assignment.js';
import type { Segment } from '../src/shingles/sharedShingles.js';
import type { OptionValues } from '../src/options.js';
import type { SubstringsReport } from '../src/formats/reports/substringsReport.js';
import type { SignatureParams } from '../src/signatures/params.js';

/** 'auto' passes a software adapter over for the CPU, as the CLI does; 'webgpu' signs on whatever adapter there is. */
export type BackendChoice = 'auto' | 'cpu' | 'webgpu';

/** The form's options as the table types them (src/options.ts), with the banding chosen and the seed resolved. */
export interface RunSettings
  extends Pick<
    OptionValues,
    | 'threshold'
    | 'scheme'
    | 'weights'
    | 'maxHamming'
    | 'k'
    | 'shingle'
    | 'n'
    | 'nfkc'
    | 'stripPunctuation'
    | 'verify'
    | 'clusterCheck'
    | 'keep'
    | 'textField'
    | 'idField'
  > {
  readonly lsh: LshParams;
  /** Whether bands × rows were given by hand (else the optimizer's choice). */
  readonly manualLsh: boolean;
  /** The seed as given, decimal; the scheme's default (datasketch's 1, else 42) when the field was left at it. */
  readonly seed: string;
  /** The form offers auto and cpu. */
  readonly backend: BackendChoice;
  readonly skipInvalid: boolean;
}

/** The repeated-span search's settings (`gpudedup substrings`' flags), and how the files are read. */
export interface SpanSettings
  extends Pick<OptionValues, 'minLength' | 'cut' | 'minRemaining' | 'textField' | 'idField'> {
  readonly skipInvalid: boolean;
}

export interface SpanSummary {
  /** What `gpudedup substrings --report` writes for the same files and settings. */
  readonly report: SubstringsReport;
  readonly skippedFiles: string[];
  readonly invalidSkipped: number;
}

/** As `gpudedup substrings -o edited.jsonl --spans spans.csv --report report.json --report-html report.html`. */
export interface SpanDownloads {
  readonly edited: Blob;
  readonly spans: Blob;
  readonly report: Blob;
  readonly reportHtml: Blob;
}

export type ToWorker =
  | { readonly type: 'probe' }
  | { readonly type: 'substrings'; readonly files: File[]; readonly settings: SpanSettings }
  | { readonly type: 'run'; readonly files: File[]; readonly reference: File[]; readonly settings: RunSettings }
  | {
      readonly type: 'page';
      readonly id: number;
      readonly list: InspectorList;
      readonly offset: number;
      readonly count: number;
    }
  | { readonly type: 'cluster'; readonly id: number; readonly cluster: number }
  | { readonly type: 'compare'; readonly id: number; readonly kept: number; readonly removed: number }
  | { readonly type: 'parquet'; readonly id: number; readonly table: ParquetTable };

export type InspectorList = 'clusters' | 'contaminated';

/** What signing will use, found by the worker before any run. */
export interface BackendProbe {
  readonly webgpu: boolean;
  /** The adapter, or why WebGPU is not available. */
  readonly detail: string;
  /** A software adapter (SwiftShader, lavapipe, fallback), which 'auto' passes over for the CPU. */
  readonly software?: boolean;
}

export interface StageProgress {
  readonly stage: string;
  readonly done: number;
  readonly total: number;
  readonly unit: 'bytes' | 'bands' | 'pairs' | 'steps';
}

export interface RunSummary {
  readonly counts: AssignmentCounts;
  readonly params: SignatureParams;
  readonly settings: RunSettings;
  readonly lsh: LshParams;
  readonly distinctTexts: number;
  readonly shingles: number;
  readonly candidates: number;
  readonly verified: number;
  readonly largestBucket: number;
  readonly splitOff: number;
  readonly referenceDocuments: number;
  readonly missingKeepField: number;
  readonly invalidSkipped: number;
  readonly invalidExamples: string[];
  readonly skippedFiles: string[];
  readonly backend: string;
  readonly backendKind: 'webgpu' | 'cpu';
  readonly backendNote?: string;
  readonly timings: { readonly stage: string; readonly ms: number }[];
  /** The run's S-curve and the histogram of its verified pairs' similarities (exact when verified exactly), as SVG. */
  readonly plots: { readonly curve: string; readonly histogram: string };
  readonly inspector: {
    readonly clusters: number;
    readonly contaminated: number;
    readonly textsKept: number;
    readonly textsDropped: number;
  };
}

export interface Downloads {
  readonly kept: Blob;
  readonly clusters: Blob;
  readonly pairs: Blob;
  readonly report: Blob;
  /** The report as one self-contained HTML page (`--report-html`). */
  readonly reportHtml: Blob;
  /** Every document's signature, as `gpudedup sign` writes its .npy (signaturesNpy.ts). */
  readonly signatures: Blob;
  readonly contamination?: Blob;
}

/**
 * The tables the tab also gives as snappy Parquet (kept documents: id, text and the other scalar fields, typed), each
 * made when asked for.
 */
export type ParquetTable = 'kept' | 'clusters' | 'pairs' | 'contamination';

export interface ClusterRow {
  readonly cluster: number;
  readonly kind: 'near' | 'exact' | 'reference';
  readonly size: number;
  readonly keptId: string;
  /** The first removed ids (all for a reference match: the one document). */
  readonly removedIds: string[];
  readonly removed: number;
  readonly snippet: string;
  /** For a reference match: the reference document and the similarity. */
  readonly reference?: string;
  readonly similarity?: number;
}

export interface ClusterMember {
  readonly doc: number;
  readonly id: string;
  readonly kept: boolean;
  /** Same normalized text as the kept document. */
  readonly exactDuplicate: boolean;
  /** Signature agreement with the kept document. */
  readonly estimate: number;
  /** Exact Jaccard with the kept document, when the run verified exactly (and the texts were kept). */
  readonly exact?: number;
  readonly snippet: string;
}

export interface Comparison {
  readonly keptId: string;
  readonly removedId: string;
  readonly kept: Segment[];
  readonly removed: Segment[];
  readonly estimate: number;
  readonly exact: number;
  readonly sharedShingles: number;
  readonly keptShingles: number;
  readonly removedShingles: number;
}

export type FromWorker =
  | { readonly type: 'probe'; readonly probe: BackendProbe }
  | { readonly type: 'progress'; readonly progress: StageProgress }
  | { readonly type: 'result'; readonly summary: RunSummary; readonly downloads: Downloads }
  | { readonly type: 'substrings-result'; readonly summary: SpanSummary; readonly downloads: SpanDownloads }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'page'; readonly id: number; readonly rows: ClusterRow[]; readonly total: number }
  | { readonly type: 'cluster'; readonly id: number; readonly members: ClusterMember[] }
  | { readonly type: 'compare'; readonly id: number; readonly comparison: Comparison }
  | { readonly type: 'parquet'; readonly id: number; readonly blob: Blob }
  | { readonly type: 'reply-error'; readonly id: number; readonly message: string };
