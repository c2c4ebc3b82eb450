/**
 * `substrings --min-tokens N` (issue 32): every run of N or more tokens of the
 * normalized text that occurs more than once in the corpus, as spans in the
 * original text's UTF-8. Pure and browser-safe, one thread.
 *
 * Exact without hashing windows: every window of N tokens gets an exact
 * number by doubling. The tokens' dictionary numbers number the windows of
 * length 1; a window of length L2 (L < L2 ≤ 2L) is the pair (window of L at
 * p, window of L at p + L2 − L), and pairs are numbered by a hash table that
 * compares both numbers (pairNumbers.ts), so equal windows get equal numbers and
 * different ones different numbers — log2(N) passes, nothing to verify after.
 * A window holding a window that occurs once occurs once too: such positions
 * are dropped at each level, and so are those in no run of repeated windows
 * long enough to make up N tokens, so the tables shrink to the repeated text.
 *
 * The marked windows (all occurrences, or all but the first in input order)
 * are merged in tokens where they overlap or touch, never across a document's
 * end, then located in bytes: from the first byte of the first token's word to
 * the last byte of the last one's (spans whose words overlap — a word split
 * into several tokens by --strip-punctuation — merge). The spans are the byte
 * mode's SpanColumns, so the outputs, cuts and top spans are the same code.
 */
import type { CutMode } from '../options.js';
import { PairNumbers } from './pairNumbers.js';
import type { SearchStats } from './searchRepeats.js';
import type { SpanColumns } from './spans.js';
import type { TokenCorpus } from './tokenCorpus.js';

export interface TokenSearchOptions {
  readonly minTokens: number;
  readonly cut: CutMode;
}

/**
 * Windows of one length: each position's number (−1: no window there, or one that occurs once); per number, its
 * count and first position.
 */
export interface WindowNumbers {
  readonly numbers: Int32Array;
  readonly counts: Int32Array;
  readonly firsts: Int32Array;
  /** Doubling passes made. */
  readonly passes: number;
}

/** Counts and first positions of the numbers in `numbers` (−1 skipped). */
function tally(numbers: Int32Array, distinct: number): { counts: Int32Array; firsts: Int32Array } {
  const counts = new Int32Array(distinct);
  const firsts = new Int32Array(distinct).fill(-1);
  for (let p = 0; p < numbers.length; p++) {
    const id = numbers[p];
    if (id < 0) continue;
    if (counts[id]++ === 0) firsts[id] = p;
  }
  return { counts, firsts };
}

/**
 * Sets −1 where a window occurs once, and where a window lies in no run of `run` consecutive repeated windows of its
 * document: a repeated window of n tokens holds n − L + 1 consecutive repeated windows of L tokens (each of its own
 * occurrences does too, so no occurrence of it is dropped), and with run = n − L + 1 nothing else needs them.
 */
function keepRepeatedRuns(numbers: Int32Array, counts: Int32Array, documentStarts: Float64Array, run: number): void {
  for (let d = 0; d + 1 < documentStarts.length; d++) {
    const end = documentStarts[d + 1];
    let from = documentStarts[d]; // the current run of repeated windows: [from, p)
    for (let p = from; p <= end; p++) {
      if (p < end && numbers[p] >= 0 && counts[numbers[p]] >= 2) continue;
      if (p < end) numbers[p] = -1;
      if (p - from < run) numbers.fill(-1, from, p);
      from = p + 1;
    }
  }
}

/**
 * In place: windows of `have` tokens numbered in `numbers` become windows of `want` (have < want ≤ 2·have), the pair
 * of the windows at p and p + want − have; −1 where either is −1 or the window would cross its document's end.
 * Returns how many distinct windows.
 */
function doubleWindows(numbers: Int32Array, documentStarts: Float64Array, have: number, want: number): number {
  const shift = want - have;
  const pairs = new PairNumbers();
  for (let d = 0, p = 0; d + 1 < documentStarts.length; d++) {
    for (const end = documentStarts[d + 1]; p < end; p++) {
      // p + shift > p: its number is still the shorter window's when p's is overwritten.
      numbers[p] =
        p + want <= end && numbers[p] >= 0 && numbers[p + shift] >= 0
          ? pairs.number(numbers[p], numbers[p + shift])
          : -1;
    }
  }
  return pairs.size;
}

/** The exact number of every window of n tokens inside a document, with counts and first positions. */
export function numberWindows(
  tokens: TokenCorpus,
  n: number,
  onPass: (done: number) => void = () => undefined,
): WindowNumbers {
  const numbers = tokens.ids.slice();
  let distinct = tokens.vocabulary;
  let passes = 0;
  for (let have = 1; have < n; onPass(++passes)) {
    keepRepeatedRuns(numbers, tally(numbers, distinct).counts, tokens.documentStarts, n - have + 1);
    const want = Math.min(2 * have, n);
    distinct = doubleWindows(numbers, tokens.documentStarts, have, want);
    have = want;
  }
  return { numbers, ...tally(numbers, distinct), passes };
}

/** Spans being built: token ranges, then byte ranges (global), with the first occurrence of each first window. */
class SpanCollector {
  readonly documents: number[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly firsts: number[] = [];

  constructor(private readonly tokens: TokenCorpus) {}

  /** Adds document d's token span [from, to) whose first window first occurs at token `first`. */
  add(d: number, from: number, to: number, first: number): void {
    const start = this.tokens.starts[from];
    const end = this.tokens.ends[to - 1];
    const last = this.documents.length - 1;
    if (last >= 0 && this.documents[last] === d && start < this.ends[last]) {
      this.ends[last] = Math.max(this.ends[last], end); // the two spans share a word
      return;
    }
    this.documents.push(d);
    this.starts.push(start);
    this.ends.push(end);
    this.firsts.push(this.tokens.starts[first]);
  }

  columns(): SpanColumns {
    return {
      documents: Uint32Array.from(this.documents),
      starts: Float64Array.from(this.starts),
      ends: Float64Array.from(this.ends),
      firsts: Float64Array.from(this.firsts),
      count: this.documents.length,
    };
  }
}

/** The doubling passes for windows of n tokens (⌈log2 n⌉), for progress. */
export function doublingPasses(n: number): number {
  let passes = 0;
  for (let have = 1; have < n; have = Math.min(2 * have, n)) passes++;
  return passes;
}

/**
 * Every repeated span of at least minTokens tokens, in corpus order, as SpanColumns in CorpusText byte offsets;
 * `onPass` after each doubling pass.
 */
export function searchTokenRepeats(
  tokens: TokenCorpus,
  options: TokenSearchOptions,
  onPass?: (done: number) => void,
): { spans: SpanColumns; stats: SearchStats } {
  const n = options.minTokens;
  const { numbers, counts, firsts, passes } = numberWindows(tokens, n, onPass);
  const collector = new SpanCollector(tokens);
  const stats: SearchStats = { rounds: passes, threads: 1, windows: 0, groups: 0, repeatedWindows: 0, collisions: 0 };
  for (let id = 0; id < counts.length; id++) {
    if (counts[id] < 2) continue;
    stats.groups++;
    stats.repeatedWindows += counts[id];
  }
  const { documentStarts } = tokens;
  for (let d = 0; d + 1 < documentStarts.length; d++) {
    let from = -1; // the open span's tokens [from, to)
    let to = -1;
    let first = -1;
    for (let p = documentStarts[d]; p + n <= documentStarts[d + 1]; p++) {
      stats.windows++;
      const id = numbers[p];
      if (id < 0 || counts[id] < 2 || (options.cut === 'later' && firsts[id] === p)) continue;
      if (from >= 0 && p <= to) to = p + n;
      else {
        if (from >= 0) collector.add(d, from, to, first);
        [from, to, first] = [p, p + n, firsts[id]];
      }
    }
    if (from >= 0) collector.add(d, from, to, first);
  }
  return { spans: collector.columns(), stats };
}
