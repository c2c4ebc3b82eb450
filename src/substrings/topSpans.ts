/**
 * The most repeated spans, for the report: spans are grouped by their first
 * occurrence, those overlapping there being one (the same paragraph cut from a
 * thousand documents is one entry), counted, and the largest counts kept with
 * a preview of the text.
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
  const decoder = new TextDecoder();
  return repeatGroups(spans, cut)
    .sort((a, b) => b.count - a.count || b.bytes - a.bytes || a.first - b.first)
    .slice(0, top)
    .map(({ count, bytes, first, at }) => {
      const text = decoder.decode(corpus.bytes.slice(at, at + bytes)).replace(/^\uFFFD+|\uFFFD+$/g, '');
      return { count, bytes, first, preview: text.length > 200 ? `${text.slice(0, 200)}…` : text };
    });
}

interface RepeatGroup {
  count: number;
  /** The longest span's bytes and position, shown for the group. */
  bytes: number;
  at: number;
  /** Where the group's first occurrence begins (the earliest of its spans'). */
  first: number;
  /** Where its first occurrence ends (the last byte any of its spans covers there, exclusive). */
  end: number;
}

/**
 * The spans grouped by their first occurrence: spans whose first occurrences overlap are one repeated block (a
 * paragraph cut from four documents is one entry ×4, though the whitespace around it, and so each span's extent,
 * differs from one to the next).
 */
function repeatGroups(spans: SpanColumns, cut: CutMode): RepeatGroup[] {
  const order = Array.from({ length: spans.count }, (_, s) => s).sort((a, b) => spans.firsts[a] - spans.firsts[b]);
  const groups: RepeatGroup[] = [];
  for (const s of order) {
    const bytes = spans.ends[s] - spans.starts[s];
    const first = spans.firsts[s];
    const last = groups.at(-1);
    if (last !== undefined && first < last.end) {
      last.count++;
      last.end = Math.max(last.end, first + bytes);
      if (bytes > last.bytes) Object.assign(last, { bytes, at: spans.starts[s] });
    } else groups.push({ count: cut === 'later' ? 2 : 1, bytes, at: spans.starts[s], first, end: first + bytes });
  }
  return groups;
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
