/**
 * The index check's table, compact: a row per match and one per document without any, for every document checked
 * (the table once showed the first 500 documents only). The worker fills it as it checks; the page draws one page of
 * rows at a time from it. A row is a few numbers in typed columns, and each distinct id is held once: 41,764
 * documents with a hundred matches each are 4 million rows, about 100 MB of columns rather than 4 million objects.
 * No DOM: the worker and Node's tests use it.
 */
import type { IndexMatch } from '../src/lshIndex/types.js';

/** What the worker hands the page (plain data and typed arrays: structured-cloned, the buffers transferred). */
export interface IndexRows {
  /** Every distinct id, the checked documents' and the matched indexed documents'. */
  readonly ids: string[];
  readonly length: number;
  /** The checked document's id, as an index into ids. */
  readonly documents: Uint32Array;
  /** The matched indexed document's id (an index into ids), or NO_MATCH. */
  readonly matches: Uint32Array;
  /** The estimate: Jaccard, or the containment for a containment check. */
  readonly estimates: Float64Array;
  /** The exact Jaccard or containment where the index verified the pair; NaN where not. */
  readonly exacts: Float64Array;
  /** 1 where the row is a containment (|Q ∩ X| / |Q|), 0 for a Jaccard similarity. */
  readonly containment: Uint8Array;
}

export const NO_MATCH = 0xffffffff;

/** A typed column that doubles as it fills. */
class Column<T extends Uint32Array | Float64Array | Uint8Array> {
  array: T;
  constructor(private readonly make: (n: number) => T) {
    this.array = make(1024);
  }
  set(at: number, value: number): void {
    if (at >= this.array.length) {
      const grown = this.make(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[at] = value;
  }
}

export class IndexRowsBuilder {
  private readonly ids: string[] = [];
  private readonly idNumbers = new Map<string, number>();
  private readonly documents = new Column((n) => new Uint32Array(n));
  private readonly matches = new Column((n) => new Uint32Array(n));
  private readonly estimates = new Column((n) => new Float64Array(n));
  private readonly exacts = new Column((n) => new Float64Array(n));
  private readonly containment = new Column((n) => new Uint8Array(n));
  private length = 0;

  private idNumber(id: string): number {
    let n = this.idNumbers.get(id);
    if (n === undefined) {
      n = this.ids.push(id) - 1;
      this.idNumbers.set(id, n);
    }
    return n;
  }

  /** A checked document's rows: one per match, or one saying it has none. */
  add(id: string, found: readonly IndexMatch[]): void {
    const document = this.idNumber(id);
    if (found.length === 0) this.row(document, NO_MATCH, Number.NaN, Number.NaN, 0);
    for (const match of found) {
      const containment = match.containment !== undefined;
      const estimate = containment ? match.containment! : match.similarity;
      const exact = containment ? match.exactContainment : match.exact;
      this.row(document, this.idNumber(match.id), estimate, exact ?? Number.NaN, containment ? 1 : 0);
    }
  }

  private row(document: number, match: number, estimate: number, exact: number, containment: number): void {
    const at = this.length++;
    this.documents.set(at, document);
    this.matches.set(at, match);
    this.estimates.set(at, estimate);
    this.exacts.set(at, exact);
    this.containment.set(at, containment);
  }

  /** The rows, in columns cut to their length (their buffers can be transferred). */
  finish(): IndexRows {
    const n = this.length;
    return {
      ids: this.ids,
      length: n,
      documents: this.documents.array.slice(0, n),
      matches: this.matches.array.slice(0, n),
      estimates: this.estimates.array.slice(0, n),
      exacts: this.exacts.array.slice(0, n),
      containment: this.containment.array.slice(0, n),
    };
  }
}

/** The buffers of `rows`, to transfer rather than copy. */
export function rowBuffers(rows: IndexRows): ArrayBuffer[] {
  return [rows.documents, rows.matches, rows.estimates, rows.exacts, rows.containment].map(
    (column) => column.buffer as ArrayBuffer,
  );
}

/** Row `at`'s cells, as the table shows them: the document, the matched document or "no match", the similarity. */
export function rowCells(rows: IndexRows, at: number): [string, string, string] {
  const document = rows.ids[rows.documents[at]];
  const match = rows.matches[at];
  if (match === NO_MATCH) return [document, 'no match', ''];
  const estimate = rows.estimates[at].toFixed(3);
  const exact = rows.exacts[at];
  const value = Number.isNaN(exact) ? estimate : `${exact.toFixed(3)} exact (estimate ${estimate})`;
  return [document, rows.ids[match], rows.containment[at] === 1 ? `containment ${value}` : value];
}

/** The rows of page `page` (0-based) of `perPage`: [first, end). */
export function pageRange(rows: IndexRows, page: number, perPage: number): [number, number] {
  const from = page * perPage;
  return [from, Math.min(from + perPage, rows.length)];
}
