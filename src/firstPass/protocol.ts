/**
 * The first pass's messages between the thread that orders documents and the
 * workers that read, parse, shingle and sign them. No Node imports: Node's
 * worker threads and the tab's Web Workers carry the same messages.
 *
 * A document's work happens in two requests, so that an exact duplicate is
 * never shingled or signed and the pre-pass stays in input order:
 *   1. `read` a unit (a chunk of JSON Lines cut at line ends, a whole text
 *      file, a Parquet row group, or texts from memory): per document its id,
 *      exact-duplicate key, keep score and byte range; the worker keeps the texts.
 *   2. `finish` it: shingle (and on the CPU sign) the documents the ordering
 *      thread selected — the first of each new exact group — and drop the rest.
 */
import type { KeepPolicy } from '../text/keepPolicy.js';
import type { ShingleOptions } from '../shingles/shingles.js';
import type { CpuKernelName, SigningFamily } from '../signatures/cpuKernel.js';

/** Read options a worker needs (the callbacks stay with the ordering thread). */
export interface UnitReadOptions {
  readonly textField: string;
  readonly idField: string;
  readonly skipInvalid: boolean;
  readonly strict: boolean;
}

/** What every `read` of a run shares. */
export interface ReadSetup {
  readonly read: UnitReadOptions;
  readonly shingle: ShingleOptions;
  readonly keep: KeepPolicy;
  /**
   * false: no exact-duplicate keys (all zero), for a pass without the exact
   * pre-pass (`sign` signs every document): a text's emptiness is still found.
   */
  readonly exactKeys?: boolean;
}

/**
 * A source a worker opens itself: a local path (Node) or a File (the tab).
 * `FirstPassSources` (ports.ts) says how.
 */
export type SourceHandle = string | Blob;

/** The file and first byte of a piece that starts mid-file (InputUnit's `midFile`). */
export interface MidFile {
  readonly path: string;
  readonly start: number;
}

/** One piece of the input, cut by the ordering thread. */
export type InputUnit =
  /**
   * JSON Lines: whole lines; `firstLine` is the 1-based number of its first line, `offset` its first byte in the
   * (decompressed) file.
   */
  | {
      readonly kind: 'lines';
      readonly path: string;
      readonly bytes: Uint8Array;
      readonly firstLine: number;
      readonly offset: number;
      readonly qualifyIds: boolean;
      readonly stripBom: boolean;
      /**
       * Where the unit's piece starts mid-file (a shard's piece, src/pipeline/sign/shardSources.ts): its lines are
       * counted from there, so a document without an id is refused rather than named by its line number.
       */
      readonly midFile?: MidFile;
    }
  /**
   * JSON Lines by position: bytes [start, end) of an uncompressed file of `size` bytes, which the worker reads itself
   * (FirstPassSources.readAt) — the lines that start there, the last read through its end — so that no byte passes
   * through the ordering thread. The worker first `load`s it and says how many lines it holds; the `read` that follows
   * carries `firstLine`, known once the units before it are counted.
   */
  | {
      readonly kind: 'range';
      readonly path: string;
      readonly source: SourceHandle;
      readonly start: number;
      readonly end: number;
      readonly size: number;
      readonly qualifyIds: boolean;
      readonly firstLine?: number;
      /**
       * Where the unit's piece starts mid-file (a shard's piece, src/pipeline/sign/shardSources.ts): its lines are
       * counted from there, so a document without an id is refused rather than named by its line number.
       */
      readonly midFile?: MidFile;
    }
  /** A `.json` file holding one JSON array of objects, whole. */
  | { readonly kind: 'json-array'; readonly path: string; readonly bytes: Uint8Array; readonly qualifyIds: boolean }
  /** A plain-text file: one document whose id is its path. */
  | { readonly kind: 'text-file'; readonly path: string; readonly source: SourceHandle }
  /** One row group of a Parquet file; `firstRow` is its 0-based first row. */
  | {
      readonly kind: 'parquet-group';
      readonly path: string;
      readonly source: SourceHandle;
      readonly group: number;
      readonly qualifyIds: boolean;
    }
  /**
   * Documents from memory (the library); `first` is the 1-based position of its first, which messages name
   * (`documents:N`).
   */
  | {
      readonly kind: 'texts';
      readonly texts: readonly string[];
      readonly ids: readonly string[];
      readonly first: number;
      readonly records?: readonly (Record<string, unknown> | undefined)[];
    };

/** Per document of a unit, in order: what the ordering thread needs, never the text. */
export interface UnitDocuments {
  readonly count: number;
  /** The ids' UTF-8, back to back (unitId reads one): no string per document crosses between threads. */
  readonly idBytes: Uint8Array;
  /** Per document: the end of its id in idBytes. */
  readonly idEnds: Uint32Array;
  /** Ids that UTF-8 cannot carry (a lone surrogate), by document index; their idBytes hold U+FFFD. */
  readonly oddIds?: Readonly<Record<number, string>>;
  /** 4 words per document: MurmurHash3_x86_128 of the id (the unique-id check). */
  readonly idKeys: Uint32Array;
  /** 4 words per document: the exact pre-pass key of the normalized text (all zero when empty). */
  readonly exactKeys: Uint32Array;
  /** 1 where the document has no tokens. */
  readonly empty: Uint8Array;
  readonly scores: Float64Array;
  /** Documents whose keep field was missing or not a number (field:NAME only). */
  readonly missingKeep: number;
  /** Line (JSON Lines), row (Parquet) or 0 (whole file): for messages. */
  readonly lines: Int32Array;
  /** Byte range of each JSON line in its decompressed file, its line end included; −1 for other units. */
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  /** UTF-8 bytes of the texts. */
  readonly textBytes: number;
  /** Lines skipped under skipInvalid, with their messages. */
  readonly invalid: string[];
  /** The first malformed line when not skipping: thrown once the documents before it are ordered. */
  readonly error?: string;
  /** A binary text file (never a document). */
  readonly binary?: boolean;
}

/** How `finish` returns the selected documents. */
export type FinishMode =
  /**
   * Signed here on the CPU kernel; sets too when `keepSets`, in a SharedArrayBuffer of their own with `sharedSets`
   * (where there is shared memory): the ordering thread then keeps them where they lie, copying nothing.
   */
  | {
      readonly sign: true;
      readonly family: SigningFamily;
      readonly kernel: CpuKernelName;
      readonly keepSets: boolean;
      readonly sharedSets?: boolean;
    }
  /** Shingles only, for a GPU signer on the ordering thread. */
  | { readonly sign: false };

export interface SelectedDocuments {
  /** selected·k·2 words of 64-bit slots as (lo, hi); absent without signing. */
  readonly signatures?: Uint32Array;
  /** The selected documents' shingle sets packed end to end (CSR, counted in shingles); absent when not asked for. */
  readonly shingles?: Uint32Array;
  readonly offsets?: Uint32Array;
  /** Shingles of the selected documents. */
  readonly shingleCount: number;
  /** The worker's milliseconds shingling and signing them. */
  readonly shingleMs: number;
  readonly signMs: number;
}

export type FirstPassRequest =
  | { readonly type: 'load'; readonly unit: number; readonly range: Extract<InputUnit, { kind: 'range' }> }
  | { readonly type: 'read'; readonly unit: number; readonly input: InputUnit; readonly setup: ReadSetup }
  | { readonly type: 'finish'; readonly unit: number; readonly select: Uint32Array; readonly mode: FinishMode }
  | { readonly type: 'drop'; readonly unit: number };

export type FirstPassResponse =
  /** A range loaded: the lines it holds (as countLines counts them). */
  | { readonly lines: number }
  | { readonly documents: UnitDocuments }
  | { readonly selected: SelectedDocuments }
  | { readonly dropped: true };

// An id may start with U+FEFF: keep it.
const idDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Document i's id. */
export function unitId(documents: UnitDocuments, i: number): string {
  const odd = documents.oddIds?.[i];
  if (odd !== undefined) return odd;
  return idDecoder.decode(documents.idBytes.subarray(i === 0 ? 0 : documents.idEnds[i - 1], documents.idEnds[i]));
}
