/**
 * n-gram decontamination on documents' text: the spans of `--min-tokens` or
 * more normalized tokens (the tokens of word shingles, src/text) that a corpus
 * document shares with a reference document, located in both texts as byte
 * offsets in their UTF-8 (from the first token's word to the last one's), and
 * the document with those spans cut. Pure and browser-safe: the pipeline
 * (src/pipeline/substrings) and the library call it alike.
 */
import { DEFAULT_NORMALIZE, type NormalizeOptions } from '../text/normalize.js';
import { tokenOffsets, type TokenOffsets } from '../text/tokenOffsets.js';
import { ReferenceNgrams } from './ngramOverlap.js';
import { cutRanges, droppedAfterCut } from './cuts.js';
import { checkKnownOptions, CONTAMINATION_MIN_TOKENS, optionValue, type ContaminationAction } from '../options.js';
import type { EditedDocument } from './substringDocuments.js';

const utf8 = new TextEncoder();

export interface ContaminatedSpan {
  /** The reference document's number, in the order they were added. */
  readonly reference: number;
  /** Byte range in the corpus text's UTF-8. */
  readonly start: number;
  readonly end: number;
  /** Byte range in the reference text's UTF-8. */
  readonly referenceStart: number;
  readonly referenceEnd: number;
  /** The corpus text of the span, as it is (not normalized). */
  readonly text: string;
  /** Its length in tokens (at least n). */
  readonly tokens: number;
}

type Located = Pick<TokenOffsets, 'starts' | 'ends'>;

export class NgramDecontaminator {
  private readonly ngrams: ReferenceNgrams;
  private readonly references: Located[] = [];

  constructor(
    readonly n: number,
    readonly normalize: NormalizeOptions = DEFAULT_NORMALIZE,
  ) {
    this.ngrams = new ReferenceNgrams(n);
  }

  /** Adds a reference document; returns its number. */
  addReference(text: string): number {
    const { tokens, starts, ends } = tokenOffsets(text, this.normalize);
    this.references.push({ starts, ends });
    return this.ngrams.add(tokens);
  }

  get referenceCount(): number {
    return this.references.length;
  }

  /** Every span the document shares with a reference, by corpus position (ngramOverlap.ts). */
  spansOf(text: string): ContaminatedSpan[] {
    const located = tokenOffsets(text, this.normalize);
    return this.ngrams.overlaps(located.tokens).map((span) => {
      const reference = this.references[span.reference];
      const from = located.from[span.start];
      const to = located.to[span.end - 1];
      return {
        reference: span.reference,
        start: located.starts[span.start],
        end: located.ends[span.end - 1],
        referenceStart: reference.starts[span.referenceStart],
        referenceEnd: reference.ends[span.referenceEnd - 1],
        text: text.slice(from, to),
        tokens: span.end - span.start,
      };
    });
  }
}

/** The text without the union of the spans' byte ranges (cuts.ts), and how many bytes went. */
export function cutSpans(
  text: string,
  spans: readonly Pick<ContaminatedSpan, 'start' | 'end'>[],
): { text: string; removed: number } {
  const sorted = spans.map((s) => [s.start, s.end] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return cutRanges(utf8.encode(text), merged);
}

export interface NgramOverlapOptions {
  /** The shortest shared span, in normalized tokens (default 13, as `--min-tokens` with `--against`). */
  readonly minTokens?: number;
  /** As the shingles normalize (default: lowercase only). */
  readonly normalize?: NormalizeOptions;
}

/** One shared span: the corpus document's and the reference's numbers (positions in the arrays given), and where. */
export interface NgramOverlap extends ContaminatedSpan {
  readonly document: number;
}

/**
 * The library's entry: every span of `minTokens` or more normalized tokens that a document shares with a
 * reference, by document, then corpus position. Options are checked as the command line checks its flags.
 */
export function ngramOverlaps(
  documents: readonly string[],
  references: readonly string[],
  options: NgramOverlapOptions = {},
): NgramOverlap[] {
  checkKnownOptions(options, ['minTokens', 'normalize'], 'ngramOverlaps');
  const decontaminator = referenceSet(references, options);
  return documents.flatMap((text, document) => decontaminator.spansOf(text).map((span) => ({ document, ...span })));
}

function referenceSet(references: readonly string[], options: NgramOverlapOptions): NgramDecontaminator {
  const minTokens = optionValue('minTokens', options.minTokens ?? CONTAMINATION_MIN_TOKENS);
  const decontaminator = new NgramDecontaminator(minTokens, options.normalize);
  for (const reference of references) decontaminator.addReference(reference);
  return decontaminator;
}

export interface DecontaminationOptions extends NgramOverlapOptions {
  /** What becomes of a document sharing a span: 'remove' (default: marked dropped), 'cut' or 'report'. */
  readonly action?: ContaminationAction;
  /** With 'cut': a document left with fewer bytes, or no token, is marked dropped (default 1: only those left empty). */
  readonly minRemaining?: number;
}

export interface DecontaminationResult {
  /** Every document in input order (id: its position), as `substrings()` gives them: dropped ones marked. */
  readonly documents: readonly EditedDocument[];
  readonly spans: readonly NgramOverlap[];
}

/** `gpudedup substrings --against` on documents in memory: the spans, and each document after the action. */
export function decontaminateDocuments(
  documents: readonly string[],
  references: readonly string[],
  options: DecontaminationOptions = {},
): DecontaminationResult {
  checkKnownOptions(options, ['minTokens', 'normalize', 'action', 'minRemaining'], 'decontaminateDocuments');
  const action = optionValue('action', options.action);
  const minRemaining = optionValue('minRemaining', options.minRemaining);
  const decontaminator = referenceSet(references, options);
  const spans: NgramOverlap[] = [];
  const edited = documents.map((text, document): EditedDocument => {
    const found = decontaminator.spansOf(text);
    for (const span of found) spans.push({ document, ...span });
    const id = String(document);
    if (found.length === 0 || action === 'report') return { id, text, bytesCut: 0, touched: false, dropped: false };
    if (action === 'remove') return { id, text, bytesCut: 0, touched: false, dropped: true };
    const cut = cutSpans(text, found);
    return {
      id,
      text: cut.text,
      bytesCut: cut.removed,
      touched: true,
      dropped: droppedAfterCut(cut.text, utf8.encode(text).length - cut.removed, minRemaining, options.normalize),
    };
  });
  return { documents: edited, spans };
}
