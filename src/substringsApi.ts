/**
 * The library's exact-substring deduplication (Node), beside api.ts's near-duplicate functions: `substrings`
 * deduplicates spans of documents held in memory as `gpudedup substrings` does.
 */
import { availableParallelism } from 'node:os';
import { checkDocuments, checkOptions } from './arguments.js';
import { requireUniqueIdsInMemory } from './exact/uniqueIds.js';
import { defaultThreads, optionValue, type CutMode } from './options.js';
import type { InMemoryDocument } from './dedup/dedupDocuments.js';
import {
  substringDocuments,
  substringTokenDocuments,
  TOKEN_OPTIONS,
  type SubstringsResult,
} from './substrings/substringDocuments.js';
import { searchRepeatsInWorkers } from './substrings/repeatWorkers.js';

export interface SubstringsOptions {
  /** Shortest repeated span, in bytes of UTF-8 (default 100). */
  readonly minLength?: number;
  /** 'later' (default): cut every occurrence but the first; 'all': every occurrence. */
  readonly cut?: CutMode;
  /** A document with a cut and fewer bytes left is marked dropped (default 1: only those left empty). */
  readonly minRemaining?: number;
  /** Bytes for the search's tables (default 1 GiB); the texts are held besides. */
  readonly memoryLimitBytes?: number;
  /** Worker threads of the search (default: one per core; 1: this thread). The token search runs in one. */
  readonly threads?: number;
  /** Instead of minLength: shortest repeated span in normalized tokens (as `--min-tokens`); nfkc, stripPunctuation. */
  readonly minTokens?: number;
  readonly nfkc?: boolean;
  readonly stripPunctuation?: boolean;
}

const SUBSTRINGS_OPTIONS = ['minLength', 'cut', 'minRemaining', 'memoryLimitBytes', 'threads', ...TOKEN_OPTIONS];

/**
 * Exact-substring deduplication (as `gpudedup substrings`): every span of at
 * least minLength bytes occurring more than once, verified byte for byte, cut.
 */
export async function substrings(
  documents: readonly (string | InMemoryDocument)[],
  options: SubstringsOptions = {},
): Promise<SubstringsResult> {
  checkDocuments(documents, 'substrings', true);
  checkOptions(options, SUBSTRINGS_OPTIONS, 'substrings');
  const corpus = documents.map((d, i) => (typeof d === 'string' ? { id: String(i), text: d } : d));
  requireUniqueIdsInMemory(corpus); // the spans name documents by id: as the CLI refuses a repeated id
  if (options.minTokens !== undefined)
    return substringTokenDocuments(corpus, { ...options, minTokens: options.minTokens });
  if (options.nfkc || options.stripPunctuation)
    throw new RangeError('nfkc and stripPunctuation normalize tokens: give them with minTokens');
  const settings = {
    minLength: optionValue('minLength', options.minLength),
    cut: optionValue('cut', options.cut),
    minRemaining: optionValue('minRemaining', options.minRemaining),
    memoryLimitBytes: options.memoryLimitBytes ?? 2 ** 30,
  };
  // The texts' length stands for the input's bytes that the default thread count is sized to.
  const inputBytes = corpus.reduce((n, d) => n + d.text.length, 0);
  const threads = optionValue('threads', options.threads) ?? defaultThreads(availableParallelism(), inputBytes);
  if (threads === 1) return substringDocuments(corpus, settings);
  return substringDocuments(
    corpus,
    settings,
    (shared, search) => searchRepeatsInWorkers(shared, search, threads),
    true,
  );
}
