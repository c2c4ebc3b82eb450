/**
 * The persistent index (Node): a directory of immutable segments and a
 * manifest replaced by atomic rename (README: "A persistent index: on-disk format").
 */
import type { DedupIndex } from './types.js';
import type { IndexOptions, OpenOptions } from './options.js';

export type { IndexOptions, OpenOptions } from './options.js';
export { IndexLockedError } from './lock.js';
export { CorruptIndexError, IndexParameterError } from './errors.js';

export interface DiskIndex extends DedupIndex {
  readonly dir: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Readers: pick up the newest manifest (a writer's commit). */
  refresh(): Promise<void>;
  /** Merges the live segments into one and drops removed documents. */
  compact(): Promise<{ segments: number; documents: number; removed: number }>;
}

/** Creates an index in `dir` (missing or empty); refuses an existing index. */
export async function createIndex(_dir: string, _options: IndexOptions & OpenOptions = {}): Promise<DiskIndex> {
  throw new Error('not yet');
}

/** Opens an existing index; `readOnly` takes no writer lock. */
export async function openIndex(_dir: string, _options: OpenOptions = {}): Promise<DiskIndex> {
  throw new Error('not yet');
}
