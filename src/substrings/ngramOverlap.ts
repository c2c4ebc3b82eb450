/**
 * n-gram decontamination's core (issue 32, item 4): which spans of n or more
 * normalized tokens a corpus document shares with reference (benchmark)
 * documents. Pure and browser-safe.
 *
 * Tokens are interned to numbers over the references' vocabulary (a corpus
 * token outside it cannot be in a shared window); each reference window of n
 * tokens is keyed by a 64-bit hash of its numbers, every occurrence chained to
 * its key. A corpus window whose key is found is compared number for number —
 * the same as token for token, the interning being one to one — with each
 * chained occurrence, so a hash collision never reports a span, and an equal
 * window always has an equal key, so none is missed.
 *
 * A reported span is a maximal run of matching windows on one alignment (the
 * same reference, the same offset between corpus and reference positions):
 * the longest common token sequences of at least n tokens, one per place in
 * the reference where it occurs.
 */
import { PairIndex } from '../shingles/pairIndex.js';

export interface NgramSpan {
  /** The reference document's number, in the order they were added. */
  readonly reference: number;
  /** Token range in the corpus document. */
  readonly start: number;
  readonly end: number;
  /** Token range in the reference document. */
  readonly referenceStart: number;
  readonly referenceEnd: number;
}

/** The two 32-bit halves of a window's key: multiplicative hashes of the token numbers, mixed at the end. */
export function windowKey(ids: Int32Array, from: number, n: number, out: Uint32Array, at: number): void {
  let lo = 0x811c9dc5 ^ n;
  let hi = 0x01000193;
  for (let k = from; k < from + n; k++) {
    const id = ids[k];
    lo = Math.imul(lo ^ id, 0x01000193);
    hi = Math.imul(hi + id, 0x9e3779b1) ^ (hi >>> 13);
  }
  lo ^= hi >>> 16;
  hi = Math.imul(hi ^ (lo >>> 15), 0x85ebca6b);
  out[at] = lo >>> 0;
  out[at + 1] = hi >>> 0;
}

export class ReferenceNgrams {
  private readonly vocabulary = new Map<string, number>();
  private readonly documents: Int32Array[] = [];
  private index: PairIndex | undefined;
  private keys = new Uint32Array(0);
  /** Per key: its last occurrence; per occurrence: the one before it with the same key (−1 ends the chain). */
  private heads = new Int32Array(0);
  private previous = new Int32Array(0);
  private occurrenceDocument = new Int32Array(0);
  private occurrencePosition = new Int32Array(0);
  private readonly scratch = new Uint32Array(2);
  /** The window's key (tests replace it by one that collides, to show that a collision is never reported). */
  protected windowKey: typeof windowKey = windowKey;

  constructor(readonly n: number) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  }

  get size(): number {
    return this.documents.length;
  }

  /** Adds a reference document's tokens; returns its number. */
  add(tokens: readonly string[]): number {
    if (this.index) throw new Error('ReferenceNgrams: add after the first scan');
    const ids = new Int32Array(tokens.length);
    tokens.forEach((token, i) => {
      let id = this.vocabulary.get(token);
      if (id === undefined) {
        id = this.vocabulary.size;
        this.vocabulary.set(token, id);
      }
      ids[i] = id;
    });
    this.documents.push(ids);
    return this.documents.length - 1;
  }

  /** The reference's tokens as numbers (tests compare through them). */
  tokenNumbers(reference: number): Int32Array {
    return this.documents[reference];
  }

  private build(): PairIndex {
    const n = this.n;
    const total = this.documents.reduce((sum, ids) => sum + Math.max(0, ids.length - n + 1), 0);
    this.keys = new Uint32Array(2 * total + 2);
    this.heads = new Int32Array(total);
    this.previous = new Int32Array(total);
    this.occurrenceDocument = new Int32Array(total);
    this.occurrencePosition = new Int32Array(total);
    const index = new PairIndex(this.keys, total);
    let distinct = 0;
    let occurrence = 0;
    this.documents.forEach((ids, document) => {
      for (let from = 0; from + n <= ids.length; from++, occurrence++) {
        this.occurrenceDocument[occurrence] = document;
        this.occurrencePosition[occurrence] = from;
        this.windowKey(ids, from, n, this.keys, 2 * distinct);
        const found = index.add(distinct);
        const key = found < 0 ? distinct++ : found;
        this.previous[occurrence] = found < 0 ? -1 : this.heads[key];
        this.heads[key] = occurrence;
      }
    });
    return index;
  }

  /** The corpus tokens as reference numbers, −1 for a token no reference has. */
  private numbersOf(tokens: readonly string[]): Int32Array {
    const ids = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) ids[i] = this.vocabulary.get(tokens[i]) ?? -1;
    return ids;
  }

  /** Every maximal shared span of at least n tokens, ordered by corpus start, reference, reference start. */
  overlaps(tokens: readonly string[]): NgramSpan[] {
    this.index ??= this.build();
    const index = this.index;
    const n = this.n;
    const ids = this.numbersOf(tokens);
    const runs: { reference: number; start: number; last: number; referenceStart: number }[] = [];
    const byAlignment = new Map<number, number>();
    let known = 0;
    for (let i = 0; i < ids.length; i++) {
      known = ids[i] < 0 ? 0 : known + 1;
      if (known < n) continue;
      const from = i - n + 1;
      this.windowKey(ids, from, n, this.scratch, 0);
      const key = index.find(this.scratch[0], this.scratch[1]);
      if (key < 0) continue;
      for (let o = this.heads[key]; o >= 0; o = this.previous[o]) {
        const reference = this.occurrenceDocument[o];
        const at = this.occurrencePosition[o];
        if (!sameWindow(ids, from, this.documents[reference], at, n)) continue;
        const alignment = reference * 4294967296 + (at - from + 2147483648);
        const run = byAlignment.get(alignment);
        if (run !== undefined && runs[run].last === from - 1) runs[run].last = from;
        else byAlignment.set(alignment, runs.push({ reference, start: from, last: from, referenceStart: at }) - 1);
      }
    }
    return runs
      .map((r) => ({
        reference: r.reference,
        start: r.start,
        end: r.last + n,
        referenceStart: r.referenceStart,
        referenceEnd: r.referenceStart + r.last - r.start + n,
      }))
      .sort((a, b) => a.start - b.start || a.reference - b.reference || a.referenceStart - b.referenceStart);
  }
}

function sameWindow(a: Int32Array, from: number, b: Int32Array, at: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (a[from + k] !== b[at + k]) return false;
  return true;
}
