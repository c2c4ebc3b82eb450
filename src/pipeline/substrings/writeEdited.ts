/**
 * The second pass of `substrings`: the corpus read again, each document
 * written as it was (a JSON line verbatim), with its spans cut (only its text
 * field replaced: every other byte of the line, every other column of the row,
 * as read), or not at all when too little of it, or no token, is left.
 */
import { readDocuments, type InputFile } from '../../io/readDocuments.js';
import type { ReadOptions } from '../../io/documents.js';
import { withText } from '../../io/jsonField.js';
import { writeAsRead, type KeptDocuments } from '../../formats/keptDocuments.js';
import { cutRanges, droppedAfterCut } from '../../substrings/cuts.js';
import type { NormalizeOptions } from '../../text/normalize.js';
import type { CorpusText } from '../../substrings/corpusText.js';
import type { SpanColumns } from '../../substrings/spans.js';
import type { StageProgress } from '../shared/config.js';

export interface EditCounts {
  documentsTouched: number;
  documentsDropped: number;
  bytesCut: number;
}

/** A document's spans: [first, end) of the span columns, the bytes its cut removes, and whether it is dropped. */
export interface DocumentCut {
  readonly first: number;
  readonly end: number;
  readonly removed: number;
  readonly dropped: boolean;
}

/** Each touched document's cut, and the counts of the summary; `normalize`: --min-tokens' (what a token is). */
export function planCuts(
  corpus: CorpusText,
  spans: SpanColumns,
  minRemaining: number,
  normalize?: NormalizeOptions,
): { cuts: Map<number, DocumentCut>; counts: EditCounts } {
  const cuts = new Map<number, DocumentCut>();
  const counts: EditCounts = { documentsTouched: 0, documentsDropped: 0, bytesCut: 0 };
  for (let s = 0; s < spans.count; ) {
    const d = spans.documents[s];
    const first = s;
    while (s < spans.count && spans.documents[s] === d) s++;
    const { text, removed } = cutRanges(documentBytes(corpus, d), rangesOf(corpus, spans, d, first, s));
    const dropped = droppedAfterCut(text, corpus.starts[d + 1] - corpus.starts[d] - removed, minRemaining, normalize);
    cuts.set(d, { first, end: s, removed, dropped });
    counts.documentsTouched++;
    counts.bytesCut += removed;
    if (dropped) counts.documentsDropped++;
  }
  return { cuts, counts };
}

function documentBytes(corpus: CorpusText, d: number): Uint8Array {
  return corpus.bytes.subarray(corpus.starts[d], corpus.starts[d + 1]);
}

/** Spans [first, end) of document d, in its own offsets. */
export function rangesOf(
  corpus: CorpusText,
  spans: SpanColumns,
  d: number,
  first: number,
  end: number,
): Array<[number, number]> {
  const base = corpus.starts[d];
  const ranges: Array<[number, number]> = [];
  for (let s = first; s < end; s++) ranges.push([spans.starts[s] - base, spans.ends[s] - base]);
  return ranges;
}

export async function writeEdited(
  files: readonly InputFile[],
  read: ReadOptions,
  corpus: CorpusText,
  spans: SpanColumns,
  cuts: ReadonlyMap<number, DocumentCut>,
  out: KeptDocuments,
  progress: StageProgress,
): Promise<void> {
  let d = 0;
  let bytes = 0;
  for await (const document of readDocuments(files, {
    ...read,
    onInvalid: undefined,
    onBinary: undefined,
    onBytes: (n) => (bytes = n),
    lineBytes: true, // a line is copied as it came in, its cut one with only its text's value replaced
  })) {
    if (d >= corpus.starts.length - 1)
      throw new Error(`${document.source.path}: the input changed between passes (more documents than before)`);
    const cut = cuts.get(d);
    if (cut === undefined) await writeAsRead(out, document);
    else if (!cut.dropped) {
      const { text } = cutRanges(documentBytes(corpus, d).slice(), rangesOf(corpus, spans, d, cut.first, cut.end));
      await writeAsRead(out, withText(document, text, read.textField));
    }
    if ((++d & 1023) === 0) progress.update(d, bytes);
  }
  if (d !== corpus.starts.length - 1) throw new Error('the input changed between passes (fewer documents than before)');
}
