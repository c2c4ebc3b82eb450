/**
 * The spans by definition, by brute force: a window of `length` bytes inside a
 * document is repeated when the same bytes start at another position; the
 * marked windows (all of them, or all but the earliest of each content) cover
 * bytes; the spans are the maximal runs of covered bytes in a document (the
 * windows merged where they overlap or touch); a span's first is the earliest
 * position of its first window's bytes.
 */
import type { SpanRow } from '../../src/substrings/spans.js';

export function bruteForceSpans(texts: readonly string[], length: number, cut: 'later' | 'all'): SpanRow[] {
  const docs = texts.map((t) => Buffer.from(t, 'utf8'));
  const earliest = new Map<string, [number, number]>();
  const count = new Map<string, number>();
  for (const [d, bytes] of docs.entries()) {
    for (let p = 0; p + length <= bytes.length; p++) {
      const key = bytes.subarray(p, p + length).toString('latin1');
      if (!earliest.has(key)) earliest.set(key, [d, p]);
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  const rows: SpanRow[] = [];
  for (const [d, bytes] of docs.entries()) {
    const covered = new Uint8Array(bytes.length);
    const firstOf = new Map<number, [number, number]>();
    for (let p = 0; p + length <= bytes.length; p++) {
      const key = bytes.subarray(p, p + length).toString('latin1');
      const [fd, fp] = earliest.get(key)!;
      const marked = count.get(key)! > 1 && (cut === 'all' || fd !== d || fp !== p);
      if (!marked) continue;
      covered.fill(1, p, p + length);
      firstOf.set(p, [fd, fp]);
    }
    for (let p = 0; p < bytes.length; p++) {
      if (!covered[p] || (p > 0 && covered[p - 1])) continue;
      let end = p;
      while (end < bytes.length && covered[end]) end++;
      const [firstDocument, firstStart] = firstOf.get(p)!;
      rows.push({ document: d, start: p, end, firstDocument, firstStart });
    }
  }
  return rows;
}
