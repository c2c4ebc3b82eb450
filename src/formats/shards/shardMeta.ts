/** The metadata and buffered rows of a shard file (shardFile.ts: the format). */
import type { LshParams } from '../../bands/lshParams.js';
import type { SignatureParams } from '../../signatures/params.js';
import type { ShardRanges } from './shardRanges.js';

export interface ShardMeta {
  readonly format: string;
  readonly params: SignatureParams;
  readonly lsh: LshParams;
  /** The threshold the bands were chosen for; `cluster` verifies at it unless told otherwise. */
  readonly threshold: number;
  /**
   * Shard index (0-based) of count: documents with position ≡ index (mod count), or with `ranges`, the index-th run of
   * the input.
   */
  readonly shard: { readonly index: number; readonly count: number };
  /** Documents in this shard. */
  readonly documents: number;
  /**
   * Documents in the whole input when this shard read all of it (no `ranges`);
   * with `ranges`, this shard's own (checkShardSet returns the sum).
   */
  readonly totalDocuments: number;
  /** Bytes this shard read from disk (absent in shards written before it was counted). */
  readonly bytesRead?: number;
  /** Present when the shard read only its own pieces of the input (src/io/shardPlan.ts). */
  readonly ranges?: ShardRanges;
  /** Whether the `shingles` column is there (exact and hybrid verification in `cluster`); absent: no. */
  readonly sets?: boolean;
  /** Present when the text range columns are (v3): the files they point into, as signed. */
  readonly texts?: ShardTexts;
  /** The field whose value the `score` column holds (`--keep field:NAME`); absent: no such column. */
  readonly scoreField?: string;
  /**
   * How the input was read (the text field signs, the id field names, skipping counts): alike in every shard. Absent:
   * an older gpudedup.
   */
  readonly read?: ShardReading;
}

export type ShardReading = Readonly<
  Record<'textField' | 'idField', string> & Record<'skipInvalid' | 'strict', boolean>
>;

/**
 * The input files a shard's text ranges point into: each path made absolute when signed, with its size and
 * modification time then, which `cluster` checks before it reads (a changed file would give other texts).
 */
export interface ShardTexts {
  readonly files: readonly { readonly path: string; readonly size: number; readonly mtimeMs: number }[];
}

/** The optional columns of a shard. */
export interface ShardColumns {
  /** The `shingles` column. */
  readonly sets?: boolean;
  /** The `text_file`, `text_start`, `text_bytes` columns. */
  readonly texts?: boolean;
  /** The `score` column. */
  readonly score?: boolean;
}
