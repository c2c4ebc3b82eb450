/**
 * Exact-substring deduplication of documents in memory (the library's
 * `substrings`, and the tab's where it fits): every span of at least
 * minLength bytes of UTF-8 that occurs more than once is found, cut from
 * the later occurrences (or all), and documents left too short dropped.
 * Browser-safe: the search runs in this thread unless the caller gives
 * another (the library passes its worker threads).
 */
import { optionValue, type CutMode } from '../options.js';
import { corpusOf, CorpusTextBuilder, type CorpusText } from './corpusText.js';
import { cutRanges, droppedAfterCut } from './cuts.js';
import { searchRepeatsHere, type SearchOptions, type SearchStats } from './searchRepeats.js';
import { spanRows, type SpanColumns } from './spans.js';
import { TokenCorpusBuilder } from './tokenCorpus.js';
import type { NormalizeOptions } from '../text/normalize.js';
import { searchTokenRepeats } from './tokenRepeats.js';
import { namedTopSpans, type NamedTopSpan } from './topSpans.js';

export interface SubstringsSettings {
  readonly minLength: number;
  readonly cut: CutMode;
  readonly minRemaining: number;
  readonly memoryLimitBytes: number;
}

export interface EditedDocument {
  readonly id: string;
  /** The text with its spans cut (whole characters), or as it was. */
  readonly text: string;
  readonly bytesCut: number;
  /** Its text edited: a span cut from it (its line is rewritten, as `gpudedup substrings -o` rewrites it). */
  readonly touched: boolean;
  /** Left with fewer than minRemaining bytes, or no token, after a cut. */
  readonly dropped: boolean;
}

/** A span in its document's UTF-8 byte offsets, and where its first window first occurs. */
export interface SubstringSpan {
  readonly id: string;
  readonly start: number;
  readonly end: number;
  readonly firstId: string;
  readonly firstStart: number;
}

export interface SubstringsResult {
  /** Every document, in input order (dropped ones marked, not removed). */
  readonly documents: readonly EditedDocument[];
  readonly spans: readonly SubstringSpan[];
  readonly topSpans: readonly NamedTopSpan[];
  readonly search: SearchStats;
}

export type SearchRunner = (
  corpus: CorpusText,
  options: SearchOptions,
) => Promise<{ spans: SpanColumns; stats: SearchStats }>;

export async function substringDocuments(
  documents: ReadonlyArray<{ readonly id: string; readonly text: string }>,
  settings: SubstringsSettings,
  search: SearchRunner = searchRepeatsHere,
  shared = false,
): Promise<SubstringsResult> {
  const corpus = corpusOf(
    documents.map((d) => d.text),
    shared,
  );
  return editedDocuments(documents, corpus, await search(corpus, settings), settings);
}

/** The library's options of the token mode (minLength is refused with minTokens). */
export const TOKEN_OPTIONS = ['minTokens', 'nfkc', 'stripPunctuation'] as const;

export interface TokenSubstringsOptions {
  readonly minTokens: number;
  readonly cut?: CutMode;
  readonly minRemaining?: number;
  readonly nfkc?: boolean;
  readonly stripPunctuation?: boolean;
  /** The byte search's: refused here, as minLength is. */
  readonly minLength?: number;
  readonly memoryLimitBytes?: number;
  readonly threads?: number;
}

/**
 * `substrings --min-tokens` on documents in memory (the library's `substrings({ minTokens })`): the same outputs,
 * the spans being runs of at least minTokens normalized tokens (tokenRepeats.ts) located in the texts' UTF-8. One
 * thread. Options checked by the table, as the command line checks its flags.
 */
export function substringTokenDocuments(
  documents: ReadonlyArray<{ readonly id: string; readonly text: string }>,
  options: TokenSubstringsOptions,
): SubstringsResult {
  if (options.minLength !== undefined)
    throw new RangeError('minLength (bytes) and minTokens (tokens) both give the shortest span: give one');
  if (options.memoryLimitBytes !== undefined || options.threads !== undefined)
    throw new RangeError(
      "memoryLimitBytes and threads are the byte search's: minTokens searches in memory, in one thread",
    );
  const minTokens = optionValue('minTokens', options.minTokens);
  const settings = {
    cut: optionValue('cut', options.cut),
    minRemaining: optionValue('minRemaining', options.minRemaining),
  };
  const normalize = {
    nfkc: optionValue('nfkc', options.nfkc),
    stripPunctuation: optionValue('stripPunctuation', options.stripPunctuation),
  };
  const text = new CorpusTextBuilder(1 << 20);
  const tokens = new TokenCorpusBuilder(normalize);
  for (const d of documents) tokens.add(d.text, text);
  const corpus = text.finish(false);
  const found = searchTokenRepeats(tokens.finish(), { minTokens, ...settings });
  return editedDocuments(documents, corpus, found, settings, normalize);
}

/** Each document with its spans cut (or dropped), the spans by id, the top spans. */
function editedDocuments(
  documents: ReadonlyArray<{ readonly id: string; readonly text: string }>,
  corpus: CorpusText,
  found: { spans: SpanColumns; stats: SearchStats },
  settings: Pick<SubstringsSettings, 'cut' | 'minRemaining'>,
  normalize?: NormalizeOptions,
): SubstringsResult {
  const rows = spanRows(corpus, found.spans);
  const byDocument = new Map<number, Array<[number, number]>>();
  for (const row of rows) {
    const ranges = byDocument.get(row.document) ?? [];
    ranges.push([row.start, row.end]);
    byDocument.set(row.document, ranges);
  }
  const edited = documents.map(({ id, text }, d): EditedDocument => {
    const ranges = byDocument.get(d);
    if (ranges === undefined) return { id, text, bytesCut: 0, touched: false, dropped: false };
    const bytes = corpus.bytes.slice(corpus.starts[d], corpus.starts[d + 1]);
    const cut = cutRanges(bytes, ranges);
    const dropped = droppedAfterCut(cut.text, bytes.length - cut.removed, settings.minRemaining, normalize);
    return { id, text: cut.text, bytesCut: cut.removed, touched: true, dropped };
  });
  return {
    documents: edited,
    spans: rows.map((r) => ({
      id: documents[r.document].id,
      start: r.start,
      end: r.end,
      firstId: documents[r.firstDocument].id,
      firstStart: r.firstStart,
    })),
    topSpans: namedTopSpans(
      corpus,
      found.spans,
      settings.cut,
      documents.map((d) => d.id),
    ),
    search: found.stats,
  };
}
