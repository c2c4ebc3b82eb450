/**
 * The corpus as `substrings` searches it: every document's text as UTF-8, back
 * to back with no separator, and where each document starts. Windows never
 * cross a document's end (windows.ts), so no separator byte is needed: a span
 * is always inside one document's text, as its byte offsets say.
 */
export interface CorpusText {
  /** All texts' UTF-8, in input order (a SharedArrayBuffer's view when workers share it). */
  readonly bytes: Uint8Array;
  /** documents + 1 offsets into `bytes`: document d is bytes[starts[d], starts[d + 1]). */
  readonly starts: Float64Array;
}

/** Positions are 32-bit in the hash tables and marks: the most UTF-8 one run can search. */
export const MAX_CORPUS_BYTES = 2 ** 32 - 1;

/** Collects texts into chunks, then one buffer (shared, for workers) of the exact size. */
export class CorpusTextBuilder {
  private readonly chunks: Uint8Array[] = [];
  private current = new Uint8Array(0);
  private used = 0;
  private total = 0;
  private starts = new Float64Array(1024);
  private documents = 0;

  constructor(private readonly chunkBytes = 1 << 26) {}

  /** Appends one document's text (as UTF-8); returns its byte length. */
  add(text: string): number {
    const encoder = new TextEncoder();
    if (this.current.length - this.used < text.length * 3) this.newChunk(text.length * 3);
    const { written } = encoder.encodeInto(text, this.current.subarray(this.used));
    if (this.documents + 2 > this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.used += written;
    this.total += written;
    if (this.total > MAX_CORPUS_BYTES)
      throw new RangeError(
        `the corpus's text passes ${MAX_CORPUS_BYTES.toLocaleString('en-US')} bytes of UTF-8, the most one substrings ` +
          `run searches (32-bit positions): split it`,
      );
    this.starts[++this.documents] = this.total;
    return written;
  }

  get bytes(): number {
    return this.total;
  }

  /** The corpus; `shared`: its bytes in a SharedArrayBuffer, for worker threads. */
  finish(shared: boolean): CorpusText {
    this.flushChunk();
    const buffer = shared ? new SharedArrayBuffer(this.total) : new ArrayBuffer(this.total);
    const bytes = new Uint8Array(buffer);
    let at = 0;
    for (const chunk of this.chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    this.chunks.length = 0;
    const startsBytes = (this.documents + 1) * 8;
    const starts = new Float64Array(shared ? new SharedArrayBuffer(startsBytes) : new ArrayBuffer(startsBytes));
    starts.set(this.starts.subarray(0, this.documents + 1));
    return { bytes, starts };
  }

  private newChunk(atLeast: number): void {
    this.flushChunk();
    this.current = new Uint8Array(Math.max(this.chunkBytes, atLeast));
  }

  private flushChunk(): void {
    if (this.used > 0) this.chunks.push(this.current.subarray(0, this.used));
    this.current = new Uint8Array(0);
    this.used = 0;
  }
}

/** A corpus from texts in memory (the library, the tests). */
export function corpusOf(texts: Iterable<string>, shared = false): CorpusText {
  const builder = new CorpusTextBuilder(1 << 20);
  for (const text of texts) builder.add(text);
  return builder.finish(shared);
}

/** The number of windows of `length` bytes inside documents (a window never crosses a document's end). */
export function windowCount(corpus: CorpusText, length: number): number {
  let count = 0;
  for (let d = 0; d + 1 < corpus.starts.length; d++)
    count += Math.max(0, corpus.starts[d + 1] - corpus.starts[d] - length + 1);
  return count;
}

/** The document holding byte `position` (binary search over starts). */
export function documentAt(corpus: CorpusText, position: number): number {
  let lo = 0;
  let hi = corpus.starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (corpus.starts[mid] <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
