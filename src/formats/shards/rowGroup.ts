/**
 * One row group of a shard as ShardWriter buffers it (shardFile.ts): a typed array a column, of the row group's
 * capacity, kept from row group to row group (8.7 MB a row group at k = 128 was most of the shards' main-thread
 * garbage), and the ids as the `id` column's PLAIN bytes (each a 4-byte length, then its UTF-8), so that ids read as
 * bytes (the first pass's workers send them so) are never decoded into strings and encoded back.
 */
import type { LshParams } from '../../bands/lshParams.js';

const encoder = new TextEncoder();

export class ShardRowGroup {
  /** Rows buffered. */
  count = 0;
  /** The `id` column's PLAIN bytes for rows [0, count): `idBytes[0, idEnd)`. */
  idBytes = new Uint8Array(1 << 16);
  idEnd = 0;
  readonly position: Float64Array;
  /** 4 words a row: `exact_lo` as (lo, hi), then `exact_hi`; hasExact[row] is 0 for an empty document (nulls). */
  readonly exactWords: Uint32Array;
  readonly hasExact: Uint8Array;
  readonly length: Float64Array;
  /** Band j's and slot i's (lo, hi) words: bandWords[j][2·row], slotWords[i][2·row]. */
  readonly bandWords: Uint32Array[];
  readonly slotWords: Uint32Array[];
  /** Each row's shingle set, when the shard stores sets: (lo, hi) words, written as they are (listColumn.ts). */
  shingles: Uint32Array[] = [];
  /** Each row's keep score, when the shard stores one. */
  readonly score: Float64Array;
  /** Each row's text range, when the shard stores them: file index, first byte, bytes. */
  readonly textFile: Float64Array;
  readonly textStart: Float64Array;
  readonly textBytes: Float64Array;

  constructor(
    lsh: LshParams,
    k: number,
    readonly capacity: number,
  ) {
    const words = (): Uint32Array => new Uint32Array(2 * capacity);
    this.position = new Float64Array(capacity);
    this.exactWords = new Uint32Array(4 * capacity);
    this.hasExact = new Uint8Array(capacity);
    this.length = new Float64Array(capacity);
    this.bandWords = Array.from({ length: lsh.bands }, words);
    this.slotWords = Array.from({ length: k }, words);
    this.score = new Float64Array(capacity);
    this.textFile = new Float64Array(capacity);
    this.textStart = new Float64Array(capacity);
    this.textBytes = new Float64Array(capacity);
  }

  /** The next row's id, as a string. */
  addId(id: string): void {
    this.room(4 + 3 * id.length);
    const { written } = encoder.encodeInto(id, this.idBytes.subarray(this.idEnd + 4));
    this.lengthAt(this.idEnd, written);
    this.idEnd += 4 + written;
  }

  /** The next row's id, as the UTF-8 bytes `bytes[from, to)`. */
  addIdBytes(bytes: Uint8Array, from: number, to: number): void {
    const length = to - from;
    this.room(4 + length);
    this.lengthAt(this.idEnd, length);
    const at = this.idEnd + 4;
    if (length < 32) for (let i = 0; i < length; i++) this.idBytes[at + i] = bytes[from + i];
    else this.idBytes.set(bytes.subarray(from, to), at);
    this.idEnd = at + length;
  }

  /** Empties the row group for the next one. Every row overwrites its columns but the exact key, null by hasExact. */
  reset(): void {
    this.count = 0;
    this.idEnd = 0;
    this.shingles = [];
    this.hasExact.fill(0);
  }

  private lengthAt(at: number, length: number): void {
    const bytes = this.idBytes;
    bytes[at] = length & 0xff;
    bytes[at + 1] = (length >>> 8) & 0xff;
    bytes[at + 2] = (length >>> 16) & 0xff;
    bytes[at + 3] = length >>> 24;
  }

  private room(bytes: number): void {
    if (this.idEnd + bytes <= this.idBytes.length) return;
    const grown = new Uint8Array(Math.max(2 * this.idBytes.length, this.idEnd + bytes));
    grown.set(this.idBytes.subarray(0, this.idEnd));
    this.idBytes = grown;
  }
}
