/**
 * From marked windows to spans: the windows [p, p + length) marked in a
 * document are merged where they overlap or touch (as deduplicate-text-datasets'
 * `collect` merges them), never across a document's end; each span then gets
 * the first occurrence (in input order) of its first window.
 */
import { documentAt, type CorpusText } from './corpusText.js';
import { compareWindows } from './repeatGroups.js';
import { forEachWindow, windowHashAt } from './windowHash.js';
import { collectWindowsWasm, FILTER_BYTES, setFilterBit, windowKernelAvailable } from './windowKernel.js';

/** `--spans`' columns (CSV, JSONL or Parquet by the name; the tab's spans.csv): offsets in the text's UTF-8. */
export const SPAN_COLUMNS = [
  ['id', 'STRING'],
  ['start', 'INT64'],
  ['end', 'INT64'],
  ['first_id', 'STRING'],
  ['first_start', 'INT64'],
] as const;

/** Spans as columns, in corpus order; offsets are global (into corpus.bytes) until `spanRows`. */
export interface SpanColumns {
  readonly documents: Uint32Array;
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  /** Global position of the first occurrence of each span's first window. */
  firsts: Float64Array;
  readonly count: number;
}

export function mergeMarks(corpus: CorpusText, length: number, marks: Int32Array): SpanColumns {
  const documents: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let d = 0;
  let open = -1; // the span being extended: its index
  for (let w = 0; w < marks.length; w++) {
    let word = marks[w];
    while (word !== 0) {
      const bit = 31 - Math.clz32(word & -word);
      word &= word - 1;
      const p = w * 32 + bit;
      while (corpus.starts[d + 1] <= p) d++;
      if (open >= 0 && documents[open] === d && p <= ends[open]) ends[open] = p + length;
      else {
        open = documents.length;
        documents.push(d);
        starts.push(p);
        ends.push(p + length);
      }
    }
  }
  return {
    documents: Uint32Array.from(documents),
    starts: Float64Array.from(starts),
    ends: Float64Array.from(ends),
    firsts: new Float64Array(documents.length),
    count: documents.length,
  };
}

interface WindowClass {
  readonly lane: number;
  readonly position: number;
  readonly spans: number[];
  first: number;
}

/**
 * Sets each span's `firsts`: the earliest position whose window equals the
 * span's first window, found by one scan of the corpus in position order
 * (the first byte-equal window met is the earliest), by the WebAssembly
 * kernel where it loads (a filter of the spans' keys passes few windows on).
 */
export function findFirsts(
  corpus: CorpusText,
  length: number,
  spans: SpanColumns,
  useKernel = windowKernelAvailable(),
): void {
  const classes = new Map<number, WindowClass[]>();
  const filter = new Uint8Array(FILTER_BYTES);
  let unresolved = 0;
  for (let s = 0; s < spans.count; s++) {
    const position = spans.starts[s];
    const { key, lane } = windowHashAt(corpus.bytes, position, length);
    const list = classes.get(key) ?? [];
    const same = list.find((c) => c.lane === lane && compareWindows(corpus.bytes, c.position, position, length) === 0);
    if (same !== undefined) same.spans.push(s);
    else {
      list.push({ lane, position, spans: [s], first: -1 });
      unresolved++;
    }
    classes.set(key, list);
    setFilterBit(filter, key);
  }
  const visit = (key: number, lane: number, position: number): void => {
    for (const c of classes.get(key) ?? []) {
      if (c.first < 0 && c.lane === lane && compareWindows(corpus.bytes, c.position, position, length) === 0) {
        c.first = position;
        unresolved--;
      }
    }
  };
  const documentsToScan = spans.count === 0 ? 0 : spans.documents[spans.count - 1] + 1;
  if (useKernel) {
    const sink = (triples: Uint32Array, count: number): boolean => {
      for (let i = 0; i < count * 3; i += 3) visit(triples[i], triples[i + 1], triples[i + 2]);
      return unresolved === 0;
    };
    collectWindowsWasm(corpus, length, 0, 2 ** 32, 0, documentsToScan, { add: sink }, filter);
  } else {
    forEachWindow(corpus, length, 0, documentsToScan, (key, lane, position) => {
      if (unresolved > 0 && (filter[key >>> 11] & (1 << ((key >>> 8) & 7))) !== 0) visit(key, lane, position);
    });
  }
  for (const list of classes.values()) for (const c of list) for (const s of c.spans) spans.firsts[s] = c.first;
}

/** One span in its document's own offsets, with where its first window first occurs. */
export interface SpanRow {
  readonly document: number;
  readonly start: number;
  readonly end: number;
  readonly firstDocument: number;
  readonly firstStart: number;
}

export function spanRow(corpus: CorpusText, spans: SpanColumns, s: number): SpanRow {
  const document = spans.documents[s];
  const base = corpus.starts[document];
  const firstDocument = documentAt(corpus, spans.firsts[s]);
  return {
    document,
    start: spans.starts[s] - base,
    end: spans.ends[s] - base,
    firstDocument,
    firstStart: spans.firsts[s] - corpus.starts[firstDocument],
  };
}

export function spanRows(corpus: CorpusText, spans: SpanColumns): SpanRow[] {
  return Array.from({ length: spans.count }, (_, s) => spanRow(corpus, spans, s));
}
