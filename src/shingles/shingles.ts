/**
 * Shingle sets, step 2 of the hash family: each shingle is FNV-1a 64 of its
 * UTF-8 bytes, mod P, held as a (lo, hi) pair of 32-bit words.
 *
 * - word: windows of n consecutive tokens, each token followed by one space
 *   byte; a document of 1 ≤ T < n tokens gives one shingle of all T tokens.
 * - char: the tokens joined by single spaces (whitespace runs collapsed, ends
 *   trimmed), windows of n consecutive code points, no trailing space; fewer
 *   than n code points give one shingle of all of them.
 * - auto: char shingles for a document of fewer than n tokens, or whose
 *   letters are mostly in scripts written without spaces (Han, Hiragana,
 *   Katakana, Thai, Lao, Khmer, Myanmar, Tibetan); word shingles otherwise.
 */
import { fnv1a64ModP } from './fnv1a.js';
import { PairIndex } from './pairIndex.js';
import { normalizeText, tokenize, type NormalizeOptions, DEFAULT_NORMALIZE } from '../text/normalize.js';
import { wasmDistinctHashes, wasmWindowHashes } from './wasm/shingleKernel.js';
import { defaultOf, type ShingleMode } from '../options.js';
import { charWindows, sha1WindowHashes, type ShingleHash } from './sha1Shingles.js';
import { countElements, type ShingleWeights } from './countWeights.js';
import { idfElements, type IdfTable } from './idfWeights.js';

export type { ShingleHash } from './sha1Shingles.js';

export type { ShingleMode } from '../options.js';

export interface ShingleOptions {
  readonly mode: ShingleMode;
  /** Window length: tokens in word mode, code points in char mode. */
  readonly n: number;
  readonly normalize: NormalizeOptions;
  /** The value of each shingle: FNV-1a 64 mod P when absent; SHA-1 for the datasketch schemes (sha1Shingles.ts). */
  readonly hash?: ShingleHash;
  /** counts: each occurrence of a shingle is its own element (countWeights.ts); absent or none: a set. */
  readonly weights?: ShingleWeights;
  /** With `weights: 'idf'`: the document-frequency table whose weights expand the set (idfWeights.ts). */
  readonly idf?: IdfTable;
}

export const DEFAULT_SHINGLE: ShingleOptions = {
  mode: defaultOf('shingle'),
  n: defaultOf('n'),
  normalize: DEFAULT_NORMALIZE,
};

const encoder = new TextEncoder();
// Letters only (the lookahead): these scripts' marks, digits and symbols are not counted.
const SPACELESS_LETTER =
  /(?=\p{L})[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/gu;
const LETTER = /\p{L}/gu;

/**
 * The deduplicated shingle set of one document (with `weights: 'counts'` or `'idf'`, its weighted elements instead), as (lo, hi) pairs in first-seen order.
 * Normalization stays in JavaScript; splitting and hashing run in the wasm kernel
 * (wasm/shingle.wat) when it loads, else in shingleDocumentReference: the same values.
 * With `options.hash` SHA-1 (the datasketch schemes) the kernel hashes each shingle string with SHA-1.
 */
export function shingleDocument(text: string, options: ShingleOptions = DEFAULT_SHINGLE): Uint32Array {
  return shingleNormalized(text, normalizeText(text, options.normalize), options);
}

/** shingleDocument for a caller that already holds `normalizeText(text, options.normalize)`. */
export function shingleNormalized(text: string, normalized: string, options: ShingleOptions): Uint32Array {
  // Letters are never White_Space, so the script test on the whole text is the one on its tokens.
  const mode = options.mode === 'auto' && mostlySpaceless(normalized) ? 'char' : options.mode;
  const hash = options.hash ?? 'fnv1a64';
  let result = wasmWindowHashes(normalized, mode === 'char' ? 'char' : 'word', options.n, hash);
  if (!result) return shingleDocumentReference(text, options);
  if (mode === 'auto' && result.tokens > 0 && result.tokens < options.n)
    result = wasmWindowHashes(normalized, 'char', options.n, hash)!;
  if (options.weights === 'counts') return countElements(result.hashes);
  // Copied off the kernel's memory: deduplicated there, or (where it cannot) here, or fewer than two windows as they are.
  const set = wasmDistinctHashes(result.hashes) ?? deduplicatePairs(result.hashes);
  if (options.weights === 'idf') return idfElements(set, idfOf(options));
  return set === result.hashes ? set.slice() : set;
}

function idfOf(options: ShingleOptions): IdfTable {
  if (options.idf === undefined) throw new RangeError('--weights idf needs its document-frequency table');
  return options.idf;
}

/** shingleDocument in TypeScript only: the reference for the wasm kernel, and its fallback. */
export function shingleDocumentReference(text: string, options: ShingleOptions = DEFAULT_SHINGLE): Uint32Array {
  if (options.hash === 'sha1-32' || options.hash === 'sha1-64') return sha1ShingleSet(text, options, options.hash);
  const tokens = tokenize(text, options.normalize);
  if (tokens.length === 0) return new Uint32Array(0);
  const mode = options.mode === 'auto' ? chooseMode(tokens, options.n) : options.mode;
  const raw = mode === 'word' ? wordShingles(tokens, options.n) : charShingles(tokens, options.n);
  if (options.weights === 'counts') return countElements(raw);
  return options.weights === 'idf' ? idfElements(deduplicatePairs(raw), idfOf(options)) : deduplicatePairs(raw);
}

/** The datasketch schemes' set in TypeScript: SHA-1 of each shingle string (sha1Shingles.ts). */
function sha1ShingleSet(text: string, options: ShingleOptions, hash: 'sha1-32' | 'sha1-64'): Uint32Array {
  const tokens = tokenize(text, options.normalize);
  const mode = options.mode === 'auto' ? chooseMode(tokens, options.n) : options.mode;
  return deduplicatePairs(sha1WindowHashes(tokens, { mode, n: options.n, hash }));
}

/** Which mode `auto` picks for these tokens. */
export function chooseMode(tokens: readonly string[], n: number): 'word' | 'char' {
  if (tokens.length < n) return 'char';
  return mostlySpaceless(tokens.join('')) ? 'char' : 'word';
}

/** Whether most letters of the text are in scripts written without spaces. */
function mostlySpaceless(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  const spaceless = text.match(SPACELESS_LETTER)?.length ?? 0;
  return letters > 0 && spaceless * 2 > letters;
}

export function wordShingles(tokens: readonly string[], n: number): Uint32Array {
  // "t1 t2 ... tT " : every token is followed by exactly one 0x20, so the
  // bytes of a window of tokens i..i+n−1 are contiguous: [start_i, start_{i+n}).
  // Tokens hold no White_Space, and UTF-8 never uses 0x20 inside a sequence.
  const bytes = encoder.encode(tokens.join(' ') + ' ');
  const starts = new Uint32Array(tokens.length + 1);
  let t = 1;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x20) starts[t++] = i + 1;
  const windows = Math.max(1, tokens.length - n + 1);
  const span = Math.min(n, tokens.length);
  const out = new Uint32Array(2 * windows);
  for (let w = 0; w < windows; w++) fnv1a64ModP(bytes, starts[w], starts[w + span], out, 2 * w);
  return out;
}

export function charShingles(tokens: readonly string[], n: number): Uint32Array {
  const { bytes, windows } = charWindows(tokens, n);
  const out = new Uint32Array(windows.length);
  for (let w = 0; w < windows.length; w += 2) fnv1a64ModP(bytes, windows[w], windows[w + 1], out, w);
  return out;
}

/** Removes repeated (lo, hi) pairs, keeping first occurrences in order. */
export function deduplicatePairs(pairs: Uint32Array): Uint32Array {
  const count = pairs.length / 2;
  if (count < 2) return pairs;
  const out = new Uint32Array(pairs.length);
  const seen = new PairIndex(out, count);
  let kept = 0;
  for (let i = 0; i < count; i++) {
    out[2 * kept] = pairs[2 * i];
    out[2 * kept + 1] = pairs[2 * i + 1];
    if (seen.add(kept) < 0) kept++; // a repeat is overwritten by the next pair
  }
  return kept === count ? out : out.slice(0, 2 * kept);
}
