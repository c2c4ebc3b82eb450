/**
 * The in-memory index (browser-safe: no `node:` import). Same face as the
 * on-disk one (DedupIndex); the caller hands it a first-pass signer (workers
 * or this thread) and destroys that signer itself.
 */
import type { FirstPassSigner } from '../firstPass/signedUnits.js';
import type { DedupIndex } from './types.js';
import type { IndexOptions } from './options.js';

export type { IndexOptions } from './options.js';

export interface MemoryIndexOptions extends IndexOptions {
  /** Who signs (e.g. `inlineSigner(new WasmSigner(...))` or Web Workers); its k must be the options' k. */
  readonly signer: FirstPassSigner;
}

export interface MemoryIndex extends DedupIndex {
  readonly parameters: Readonly<Record<string, unknown>>;
}

export function createMemoryIndex(_options: MemoryIndexOptions): MemoryIndex {
  throw new Error('not yet');
}
