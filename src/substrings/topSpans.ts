/**
 * The most repeated spans, for the report: spans are grouped by their first
 * occurrence and length (the same paragraph cut from a thousand documents is
 * one entry), counted, and the largest counts kept with a preview of the text.
 */
import type { CutMode } from '../options.js';
import { documentAt, type CorpusText } from './corpusText.js';
import type { SpanColumns } from './spans.js';

export interface TopSpan {
  /** Occurrences: the spans cut, plus the first where it was kept (--cut later). */
  readonly count: number;
  readonly bytes: number;
  /** Global position of the first occurrence. */
  readonly first: number;
  /** The span's text (whole characters), at most 200 characters of it. */
  readonly preview: string;
}

export function topSpans(corpus: CorpusText, spans: SpanColumns, cut: CutMode, top = 10): TopSpan[] {
  const counts = new Map<string, { count: number; first: number; bytes: number; at: number }>();
  for (let s = 0; s < spans.count; s++) {
    const bytes = spans.ends[s] - spans.starts[s];
    const key = `${spans.firsts[s]}:${bytes}`;
    const entry = counts.get(key);
    if (entry !== undefined) entry.count++;
    else counts.set(key, { count: cut === 'later' ? 2 : 1, first: spans.firsts[s], bytes, at: spans.starts[s] });
  }
  const decoder = new TextDecoder();
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || b.bytes - a.bytes || a.first - b.first)
    .slice(0, top)
    .map(({ count, bytes, first, at }) => {
      const text = decoder.decode(corpus.bytes.slice(at, at + bytes)).replace(/^\uFFFD+|\uFFFD+$/g, '');
      return { count, bytes, first, preview: text.length > 200 ? `${text.slice(0, 200)}…` : text };
    });
}

/** A top span with its first occurrence named: the document's id and the offset in its text's UTF-8. */
export interface NamedTopSpan extends TopSpan {
  readonly firstId: string;
  readonly firstStart: number;
}

export function namedTopSpans(
  corpus: CorpusText,
  spans: SpanColumns,
  cut: CutMode,
  ids: ArrayLike<string>,
): NamedTopSpan[] {
  return topSpans(corpus, spans, cut).map((t) => {
    const d = documentAt(corpus, t.first);
    return { ...t, firstId: ids[d], firstStart: t.first - corpus.starts[d] };
  });
}
