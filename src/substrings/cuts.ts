/**
 * Cutting spans out of one document's text. Spans are byte ranges of its
 * UTF-8, as the suffix array finds them, so one may begin or end inside a
 * character (a window that starts on a continuation byte): the cut keeps
 * such a character whole, removing only the characters entirely inside the
 * span, and the text stays valid.
 */
import { hasToken, normalizeText, type NormalizeOptions } from '../text/normalize.js';

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;

/** [start, end) shrunk to whole characters of `bytes`. */
export function wholeCharacters(bytes: Uint8Array, start: number, end: number): [number, number] {
  let s = start;
  while (s < end && s < bytes.length && isContinuation(bytes[s])) s++;
  let e = end;
  while (e > s && e < bytes.length && isContinuation(bytes[e])) e--;
  return [s, e];
}

/** How many bytes cutRanges removes. */
export function bytesRemoved(bytes: Uint8Array, ranges: ReadonlyArray<readonly [number, number]>): number {
  let removed = 0;
  for (const [start, end] of ranges) {
    const [s, e] = wholeCharacters(bytes, start, end);
    removed += Math.max(0, e - s);
  }
  return removed;
}

/** The text of `bytes` with the ranges (sorted, disjoint, document offsets) removed, and how many bytes went. */
export function cutRanges(
  bytes: Uint8Array,
  ranges: ReadonlyArray<readonly [number, number]>,
): { text: string; removed: number } {
  const decoder = new TextDecoder();
  let text = '';
  let from = 0;
  let removed = 0;
  for (const [start, end] of ranges) {
    const [s, e] = wholeCharacters(bytes, start, end);
    if (s >= e) continue;
    text += decoder.decode(bytes.subarray(from, s));
    removed += e - s;
    from = e;
  }
  return { text: text + decoder.decode(bytes.subarray(from)), removed };
}

/**
 * Whether a document with a cut is dropped: fewer than minRemaining bytes left, or no token (only whitespace; with
 * `normalize`, as the token search normalizes): the whitespace around a cut span is never part of it, and would
 * otherwise be kept as a document of its own.
 */
export function droppedAfterCut(
  text: string,
  bytesLeft: number,
  minRemaining: number,
  normalize?: NormalizeOptions,
): boolean {
  return bytesLeft < minRemaining || !hasToken(normalize === undefined ? text : normalizeText(text, normalize));
}
