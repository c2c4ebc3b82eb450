/** The options that define an index and how it is opened (the contract's IndexOptions/OpenOptions). */
import type { LshParams } from '../bands/lshParams.js';
import type { VerifyMode } from '../options.js';
import type { BackendChoice } from '../signatures/selectBackend.js';
import type { SchemeName } from '../signatures/params.js';
import type { ShingleMode } from '../shingles/shingles.js';

/** The dedup options that define an index, names from src/options.ts. */
export interface IndexOptions {
  readonly scheme?: SchemeName;
  readonly seed?: string | number;
  readonly k?: number;
  readonly shingle?: ShingleMode;
  readonly n?: number;
  readonly nfkc?: boolean;
  readonly stripPunctuation?: boolean;
  readonly slotBits?: 32 | 64;
  readonly threshold?: number;
  readonly lsh?: LshParams;
  readonly verify?: VerifyMode;
  readonly estimateError?: number;
  readonly maxBucketPairs?: number;
  /** Keep shingle sets for exact verification; default: true when verify is exact|hybrid. */
  readonly storeSets?: boolean;
}

export interface OpenOptions {
  readonly backend?: BackendChoice;
  readonly threads?: number;
  /** No writer lock: add/remove/compact refused. */
  readonly readOnly?: boolean;
}
