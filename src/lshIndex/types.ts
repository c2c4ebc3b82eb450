/**
 * The index's face, shared by the on-disk index (Node), the in-memory index
 * (browser-safe, no `node:` import) and the HTTP server (`gpudedup serve`).
 * Both indexes implement `DedupIndex`; the server only ever sees this type.
 */

/** A document to add or query; `id` is the caller's, unique within the index. */
export interface IndexDocument {
  readonly id: string;
  readonly text: string;
}

/** One indexed document at or above the threshold (or among the top K). */
export interface IndexMatch {
  readonly id: string;
  /** Estimated Jaccard from the signatures. */
  readonly similarity: number;
  /** Exact Jaccard of the shingle sets, where the index verified the pair. */
  readonly exact?: number;
  /** Containment queries: |Q ∩ X| / |Q| estimated from the signatures and the set sizes. */
  readonly containment?: number;
  /** Containment queries: |Q ∩ X| / |Q| of the shingle sets, where the index stores them. */
  readonly exactContainment?: number;
}

export interface QueryResult {
  readonly matches: readonly IndexMatch[];
}

export interface QueryOptions {
  /**
   * The K most similar indexed documents, threshold or not, found by the LSH
   * Forest (forest.ts): each at Jaccard ≥ 0.3 (and above the K-th found) is
   * missed with probability ≤ 0.05. With `containment`: the K most contained.
   */
  readonly top?: number;
  /** The indexed documents X with |Q ∩ X| / |Q| ≥ C (containment.ts), instead of those at the threshold. */
  readonly containment?: number;
  /** How top-K candidates are ranked: exact Jaccard of the stored sets (the default where stored) or the estimate. */
  readonly rerank?: 'exact' | 'estimate';
}

export interface AddOptions {
  /** Append every document and only report matches (`index add --all`). */
  readonly all?: boolean;
}

/** One document of an add, in input order: appended, or the match that kept it out. */
export interface AddDecision {
  readonly id: string;
  readonly added: boolean;
  /** The indexed (or same-batch) documents it matched; empty when new. */
  readonly matches: readonly IndexMatch[];
}

export interface AddResult {
  readonly decisions: readonly AddDecision[];
  readonly added: number;
  readonly matched: number;
}

export interface RemoveResult {
  /** Ids that were live and are now removed; unknown ids are not an error. */
  readonly removed: number;
}

export interface IndexStats {
  readonly documents: number;
  readonly removed: number;
  readonly segments: number;
  readonly bytesOnDisk: number;
  /** Every parameter the index was created with (threshold, k, scheme, n, bands, rows, verify…). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface DedupIndex {
  add(documents: readonly IndexDocument[], options?: AddOptions): Promise<AddResult>;
  query(texts: readonly string[], options?: QueryOptions): Promise<readonly QueryResult[]>;
  remove(ids: readonly string[]): Promise<RemoveResult>;
  stats(): Promise<IndexStats>;
  close(): Promise<void>;
}
