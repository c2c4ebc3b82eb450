/** What a cluster engine (DuckDB in process, Spark as a job) gives back after running the plan of clusterSql.ts. */
import { totalmem } from 'node:os';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import type { PlanCheck } from './clusterSql.js';
import type { StepCost, StepLog } from './stepPeak.js';
import type { TextPairDecider } from './textPairs.js';
import { SIZE_UNITS } from '../optionChecks.js';
import { grown } from '../typedArrays.js';

export interface ClusterRow {
  readonly id: string;
  readonly cluster: number;
  readonly kept: boolean;
}

export interface EngineStats {
  readonly candidates: number;
  readonly verified: number;
  readonly largestBucket: number;
  /** Candidate pairs whose exact Jaccard was computed (inside hybrid's margin; all with exact). */
  readonly exactPairs: number;
  /** Corpus exact groups matched by the reference set (`--against`), removed. */
  readonly contaminatedGroups: number;
  /** Rounds of large-star + small-star until the components converged. */
  readonly rounds: number;
  /** Rounds of the representative check (0 without it). */
  readonly checkRounds: number;
  /** Milliseconds per phase (setup, components, finish). */
  readonly timings: Record<string, number>;
  /**
   * Peak resident bytes per phase, where the system says (Linux): DuckDB's the whole process's, Spark's its driver
   * JVM's (in local mode the executors too).
   */
  readonly peaks?: Record<string, number>;
  /** Each step's seconds, CPU and peak, by phase (DuckDB; Spark gives none). */
  readonly steps?: readonly StepCost[];
}

/** A row of an inspection query (inspectSql.ts): BIGINT as number (positions stay below 2^53), ids as strings. */
export type InspectRow = Readonly<Record<string, number | string | null>>;
/** Each inspection query's rows, by the query's name. */
export type Inspected = Readonly<Record<string, readonly InspectRow[]>>;

export interface EngineRun {
  readonly stats: EngineStats;
  /** The rows of the plan's inspection queries (absent when the plan has none). */
  readonly inspected?: Inspected;
  /** Every document's row, in input order (global position), a chunk at a time. */
  rows(): AsyncIterable<readonly ClusterRow[]>;
  /**
   * Writes the rows as Parquet (id STRING, cluster BIGINT, kept BOOLEAN) to `path` (a temporary name: the caller
   * renames).
   */
  writeParquet(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface EngineOptions {
  /** e.g. "256MB", "4GB": DuckDB's memory_limit, Spark's driver memory (bufferLimit); default defaultMemoryLimit(). */
  readonly memoryLimit?: string;
  /** Where DuckDB spills; Spark's local directory. */
  readonly tempDirectory?: string;
  readonly threads?: number;
  /** Most rounds of the components loop before giving up (default 200). */
  readonly maxRounds?: number;
  /**
   * After each round of a loop: `components` (remaining: edges to non-roots), `check` (groups still to check),
   * `pieces`.
   */
  readonly onRound?: (round: number, remaining: number, loop: string) => void;
  /** Reference shards (`--against`), registered as the relation `reference`. */
  readonly reference?: readonly string[];
  /** A line for the user (e.g. texts --corpus lacks); not printed by the engine itself. */
  readonly onNote?: (message: string) => void;
  /** Spark: write every statement's physical plan (EXPLAIN) to this JSON file, { name, plan }[]. */
  readonly explain?: string;
  /** DuckDB, shards with text ranges (the plan's host steps): decides their pairs from the texts (textPairs.ts). */
  readonly decideByText?: TextPairDecider;
  /**
   * Bytes the host may hold beside the engine (the exact pass's shingle sets: hostSetBytes): while it makes them,
   * DuckDB's memory_limit is its share of `memoryLimit` less these, and after, less `hostHeld()`.
   */
  readonly hostBytes?: number;
  /** Bytes of sets the host holds now (within `hostBytes`). */
  readonly hostHeld?: () => number;
  /** Where each step's cost is logged (DuckDB; the decider's parts too, named inside its host step). */
  readonly steps?: StepLog;
}

export const DEFAULT_MAX_ROUNDS = 200;

/** A plan check that found something (e.g. an id in two shards): one line naming it. */
export function checkFailed(check: PlanCheck, n: number, example: unknown): RangeError {
  return new RangeError(`${check.message}: ${JSON.stringify(example)}${n > 1 ? ` (and ${n - 1} more)` : ''}`);
}

export class EngineUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineUnavailableError';
  }
}

/**
 * Cluster numbers from labels: the engines label a cluster by its first
 * document's position, and number labels 0, 1, … here, reading the rows in
 * position order (a label is first met at its own position). So the labels
 * met are in increasing order, and a label's number is its index among them,
 * found by bisection: a Map of 1 M's 780 k labels cost 0.5 s of the main
 * thread and most of its 1.2 s of garbage collection (it grows in old space).
 */
export function numberClusters(): (position: number, label: number) => number {
  let labels = new Float64Array(1 << 12);
  let next = 0;
  let last = -1;
  return (position, label) => {
    if (position <= last) throw new Error(`internal: rows out of order at position ${position}`);
    last = position;
    if (label === position) {
      if (next === labels.length) labels = grown(labels, 2 * labels.length);
      labels[next] = label;
      return next++;
    }
    let [low, high] = [0, next - 1];
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (labels[middle] <= label) low = middle;
      else high = middle - 1;
    }
    if (next === 0 || labels[low] !== label)
      throw new Error(`internal: cluster label ${label} at position ${position} was not met first`);
    return low;
  };
}

/** The rows as Parquet (id STRING, cluster INT64, kept BOOLEAN), what --clusters x.parquet holds. */
export async function writeRowsParquet(path: string, rows: AsyncIterable<readonly ClusterRow[]>): Promise<void> {
  const writer = new ParquetWriter({
    writer: fileWriter(path),
    schema: [
      { name: 'root', num_children: 3 },
      { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'cluster', type: 'INT64', repetition_type: 'REQUIRED' },
      { name: 'kept', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
    ],
    createdBy: 'gpudedup',
  });
  for await (const chunk of rows) {
    if (chunk.length === 0) continue;
    await writer.write({
      columnData: [
        { name: 'id', data: chunk.map((r) => r.id), nullable: false },
        { name: 'cluster', data: BigInt64Array.from(chunk, (r) => BigInt(r.cluster)), nullable: false },
        { name: 'kept', data: chunk.map((r) => r.kept), nullable: false },
      ],
      rowGroupSize: chunk.length,
    });
  }
  await writer.finish();
}

/**
 * The share of `--memory-limit` the engine's own limit gets (DuckDB's memory_limit, Spark's driver heap): the rest
 * is for what that limit does not count (DuckDB's untracked allocations and Node; the JVM's code, metaspace and
 * buffers off the heap).
 */
export const BUFFER_SHARE = 0.7;
/** Below this (or the whole limit, if less) the engine gets no less: DuckDB's joins failed to pin a block at 179 MB. */
export const BUFFER_FLOOR = 256e6;
/** A size such as 3GB or 512MiB in bytes; undefined where it cannot be read. */
export function limitBytes(limit: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)?\s*$/i.exec(limit);
  return match === null ? undefined : Number(match[1]) * SIZE_UNITS[(match[2] ?? 'b').toLowerCase()];
}

/**
 * The engine's own limit for a process peak of `limit` (e.g. 3GB, 512MiB): BUFFER_SHARE of it, less `hostBytes` that
 * the host holds beside it, but not less than BUFFER_FLOOR (nor more than `limit`), in whole MB (at 1 M
 * with 3GB given to DuckDB as is, the process peaked at 3.6 GiB). A size it cannot read is passed on for the engine
 * to judge.
 */
export function bufferLimit(limit: string, hostBytes = 0): string {
  const bytes = limitBytes(limit);
  if (bytes === undefined) return limit;
  return `${Math.round(Math.max(bytes * BUFFER_SHARE - hostBytes, Math.min(bytes, BUFFER_FLOOR)) / 1e6)}MB`;
}

/**
 * With the exact pass on the host (shards with text ranges), the part of BUFFER_SHARE its shingle sets may hold in
 * memory (past it they go to files: textWorkers.ts); DuckDB gets the rest. Not counted, they took 1.2 GB at 1 M and
 * held the process at 1.9 GiB under --memory-limit 1500MB.
 */
export const HOST_SETS_SHARE = 0.5;

/** The bytes of shingle sets the host may hold under `limit` (HOST_SETS_SHARE of the engine's share), in whole MB. */
export function hostSetBytes(limit: string): number | undefined {
  const bytes = limitBytes(limit);
  return bytes === undefined ? undefined : Math.round((bytes * BUFFER_SHARE * HOST_SETS_SHARE) / 1e6) * 1e6;
}

/** The memory the process may have: the machine's, or its control group's limit where that is lower (Linux). */
export function availableMemory(): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  return constrained > 0 && constrained < totalmem() ? constrained : totalmem();
}

/**
 * The default `--memory-limit`: half the memory available, in whole MB. Without one DuckDB takes 80 % of the machine
 * (a 10 M join peaked at 20.6 GiB of 24) and Spark's driver its own default; half leaves the rest to the page cache
 * (the exact pass reads the texts) and whatever else runs, and holds a 1 M join (2.4 GiB) without spilling.
 */
export function defaultMemoryLimit(available = availableMemory()): string {
  return `${Math.floor(available / 2 / 1e6)}MB`;
}

/** The `--memory-limit` a run works under: the one given, else defaultMemoryLimit(). */
export function memoryLimitOf(options: { readonly memoryLimit?: string }): string {
  return options.memoryLimit ?? defaultMemoryLimit();
}
