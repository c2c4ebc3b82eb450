/** What a cluster engine (DuckDB in process, Spark as a job) gives back after running the plan of clusterSql.ts. */

export interface ClusterRow {
  readonly id: string;
  readonly cluster: number;
  readonly kept: boolean;
}

export interface EngineStats {
  readonly candidates: number;
  readonly verified: number;
  readonly largestBucket: number;
  /** Rounds of large-star + small-star until the components converged. */
  readonly rounds: number;
  /** Milliseconds per phase (setup, components, finish). */
  readonly timings: Record<string, number>;
}

export interface EngineRun {
  readonly stats: EngineStats;
  /** Every document's row, in input order (global position), a chunk at a time. */
  rows(): AsyncIterable<readonly ClusterRow[]>;
  /** Writes the rows as Parquet (id STRING, cluster BIGINT, kept BOOLEAN) to `path` (a temporary name: the caller renames). */
  writeParquet(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface EngineOptions {
  /** e.g. "256MB", "4GB": DuckDB's memory_limit, Spark's driver memory. */
  readonly memoryLimit?: string;
  /** Where DuckDB spills; Spark's local directory. */
  readonly tempDirectory?: string;
  readonly threads?: number;
  /** Most rounds of the components loop before giving up (default 200). */
  readonly maxRounds?: number;
  readonly onRound?: (round: number, remaining: number) => void;
}

export const DEFAULT_MAX_ROUNDS = 200;

export class EngineUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineUnavailableError';
  }
}
