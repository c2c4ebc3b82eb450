/** The rows `sign` gathers between checkpoints of its output. */
import type { SignatureOutput } from '../../formats/shards/signatureFile.js';
import { EMPTY_SLOT_WORD } from '../../signatures/backend.js';

/**
 * Rows gathered for the output, appended a checkpoint (--batch-size documents) at a time: copied once, into
 * the checkpoint's buffer (a new one each time: the Parquet writer holds on to what it is given).
 */
export class SignedBatch {
  private ids: string[] = [];
  private empty: boolean[] = [];
  private words: Uint32Array;
  private readonly width: number;

  constructor(k: number, rows: number) {
    this.width = 2 * k;
    this.words = new Uint32Array(rows * this.width);
  }

  get size(): number {
    return this.ids.length;
  }

  /** `row` undefined: an empty document, all ones. */
  add(id: string, row: Uint32Array | undefined): void {
    const at = this.ids.length * this.width;
    if (at === this.words.length) {
      const grown = new Uint32Array(2 * this.words.length + this.width);
      grown.set(this.words);
      this.words = grown;
    }
    if (row === undefined) this.words.fill(EMPTY_SLOT_WORD, at, at + this.width);
    else this.words.set(row, at);
    this.ids.push(id);
    this.empty.push(row === undefined);
  }

  async flushTo(writer: SignatureOutput): Promise<void> {
    if (this.ids.length === 0) return;
    const rows = this.ids.length;
    await writer.append(this.ids, this.words.subarray(0, rows * this.width), this.empty);
    this.words = new Uint32Array(this.words.length);
    this.ids = [];
    this.empty = [];
  }
}
