/**
 * What the writing pass needs of every document, recorded by the first pass
 * so that it neither parses nor even reads the corpus again except to copy
 * kept bytes: its id (UTF-8, packed: about the id's length plus 8 bytes a
 * document) and, for JSON Lines, its line's byte range in the decompressed
 * file. Documents are in input order, so a file is a run of them.
 */
import { MAX_POSTED_SHARED_BYTES, sharedMemoryAvailable } from '../bands/sharedMemory.js';
import type { OrderedUnit } from './firstPass.js';
import { grown } from '../typedArrays.js';

export class DocumentRecords {
  private idBytes = new Uint8Array(1 << 16);
  private idEnds = new Float64Array(1024);
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private count = 0;
  private used = 0;
  /** Each input path in order with its first document. */
  readonly files: { readonly path: string; readonly firstDocument: number }[] = [];
  private readonly decoder = new TextDecoder();

  get documents(): number {
    return this.count;
  }

  /** Bytes of its arrays (about the id's length plus 20 a document, allocated in doublings). */
  get bytes(): number {
    return this.idBytes.byteLength + this.idEnds.byteLength + this.starts.byteLength + this.lengths.byteLength;
  }

  addUnit(unit: Pick<OrderedUnit, 'path' | 'documents'>): void {
    const { documents } = unit;
    const { count } = documents;
    if (this.files.at(-1)?.path !== unit.path) this.files.push({ path: unit.path, firstDocument: this.count });
    while (this.count + count > this.idEnds.length) this.growDocuments();
    // The unit's ids lie end to end as the worker wrote them: copied at once, their ends moved past the ids before.
    const idLength = count === 0 ? 0 : documents.idEnds[count - 1];
    if (this.idBytes.length - this.used < idLength)
      this.idBytes = grown(this.idBytes, Math.max(this.idBytes.length * 2, this.used + idLength));
    this.idBytes.set(documents.idBytes.subarray(0, idLength), this.used);
    for (let i = 0; i < count; i++) {
      const start = documents.starts[i];
      this.idEnds[this.count + i] = this.used + documents.idEnds[i];
      this.starts[this.count + i] = start;
      this.lengths[this.count + i] = start < 0 ? 0 : documents.ends[i] - start;
    }
    this.used += idLength;
    this.count += count;
  }

  id(d: number): string {
    return this.decoder.decode(this.idBytes.subarray(d === 0 ? 0 : this.idEnds[d - 1], this.idEnds[d]));
  }

  /**
   * Every id, packed as recorded (document d's UTF-8 is bytes [ends[d − 1], ends[d])), copied into shared memory for
   * worker threads; undefined where they could not read it whole.
   */
  sharedIds(): { readonly bytes: Uint8Array; readonly ends: Float64Array } | undefined {
    if (!sharedMemoryAvailable() || Math.max(this.used, 8 * this.count) > MAX_POSTED_SHARED_BYTES) return undefined;
    const bytes = new Uint8Array(new SharedArrayBuffer(this.used));
    bytes.set(this.idBytes.subarray(0, this.used));
    const ends = new Float64Array(new SharedArrayBuffer(8 * this.count));
    ends.set(this.idEnds.subarray(0, this.count));
    return { bytes, ends };
  }

  /** The document's line in its decompressed file, its line end included; undefined for whole files and rows. */
  byteRange(d: number): [number, number] | undefined {
    const start = this.starts[d];
    return start < 0 ? undefined : [start, start + this.lengths[d]];
  }

  /**
   * The lines of the documents [first, end) flagged in `wanted`, as [start, end) byte pairs in the decompressed file,
   * lines that follow each other joined into one range; undefined when one of them has no recorded line.
   */
  lineRanges(first: number, end: number, wanted: Uint8Array): Float64Array | undefined {
    let count = 0;
    for (let d = first; d < end; d++) count += wanted[d];
    const ranges = new Float64Array(2 * count);
    let n = 0;
    for (let d = first; d < end; d++) {
      if (wanted[d] !== 1) continue;
      const start = this.starts[d];
      if (start < 0) return undefined;
      if (n > 0 && ranges[n - 1] === start) ranges[n - 1] = start + this.lengths[d];
      else {
        ranges[n++] = start;
        ranges[n++] = start + this.lengths[d];
      }
    }
    return ranges.subarray(0, n);
  }

  private growDocuments(): void {
    const n = this.idEnds.length * 2;
    this.idEnds = grown(this.idEnds, n);
    this.starts = grown(this.starts, n);
    this.lengths = grown(this.lengths, n);
  }
}
