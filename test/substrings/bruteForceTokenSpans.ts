/**
 * `substrings --min-tokens` by definition, by brute force: each document's
 * White_Space-delimited words (found here by a regular expression) normalized
 * one by one into tokens; a window of n tokens inside a document is repeated
 * when its tokens (joined: a token never holds White_Space) occur at another
 * position; the marked windows (all, or all but the earliest of each content)
 * cover tokens; a span is a maximal run of covered tokens, located from its
 * first token's word's first byte to its last token's word's last byte (byte
 * offsets counted with Buffer.byteLength), spans sharing a word merged; its
 * first is the earliest occurrence of its first window.
 */
import type { SpanRow } from '../../src/substrings/spans.js';
import { tokenize, type NormalizeOptions } from '../../src/text/normalize.js';

interface Token {
  readonly token: string;
  readonly start: number;
  readonly end: number;
}

function tokensOf(text: string, normalize: NormalizeOptions | undefined): Token[] {
  const tokens: Token[] = [];
  for (const word of text.matchAll(/\P{White_Space}+/gu)) {
    const start = Buffer.byteLength(text.slice(0, word.index));
    const end = start + Buffer.byteLength(word[0]);
    for (const token of tokenize(word[0], normalize)) tokens.push({ token, start, end });
  }
  return tokens;
}

export function bruteForceTokenSpans(
  texts: readonly string[],
  n: number,
  cut: 'later' | 'all',
  normalize?: NormalizeOptions,
): SpanRow[] {
  const docs = texts.map((t) => tokensOf(t, normalize));
  // Each window's tokens joined (a token never holds White_Space, so the join is one to one).
  const keys = docs.map((tokens) =>
    Array.from({ length: Math.max(0, tokens.length - n + 1) }, (_, p) =>
      tokens
        .slice(p, p + n)
        .map((t) => t.token)
        .join(' '),
    ),
  );
  const key = (d: number, p: number): string => keys[d][p];
  const earliest = new Map<string, [number, number]>();
  const count = new Map<string, number>();
  keys.forEach((windows, d) => {
    windows.forEach((k, p) => {
      if (!earliest.has(k)) earliest.set(k, [d, p]);
      count.set(k, (count.get(k) ?? 0) + 1);
    });
  });
  const rows: SpanRow[] = [];
  docs.forEach((tokens, d) => {
    const covered = new Uint8Array(tokens.length);
    for (let p = 0; p + n <= tokens.length; p++) {
      const [fd, fp] = earliest.get(key(d, p))!;
      if (count.get(key(d, p))! > 1 && (cut === 'all' || fd !== d || fp !== p)) covered.fill(1, p, p + n);
    }
    for (let p = 0; p < tokens.length; p++) {
      if (!covered[p] || (p > 0 && covered[p - 1])) continue;
      let end = p;
      while (end < tokens.length && covered[end]) end++;
      const [firstDocument, firstToken] = earliest.get(key(d, p))!;
      const row = { document: d, start: tokens[p].start, end: tokens[end - 1].end, firstDocument };
      const last = rows.at(-1);
      if (last?.document === d && row.start < last.end) rows[rows.length - 1] = { ...last, end: row.end };
      else rows.push({ ...row, firstStart: docs[firstDocument][firstToken].start });
    }
  });
  return rows;
}
