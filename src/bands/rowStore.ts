/** Signature rows appended batch by batch, joined once at the end (peak: twice the rows, briefly). */
import type { BandLayout } from './bBitSlots.js';
import { signatureMatrix, type SignatureMatrix, type SlotBits } from './signatureMatrix.js';

export class RowStore {
  private chunks: Uint32Array[] = [];
  private words = 0;

  constructor(
    readonly k: number,
    readonly slotBits: SlotBits,
    /** b-bit rows only: their stored band keys' layout. */
    readonly bands?: BandLayout,
  ) {}

  append(rows: Uint32Array): void {
    this.chunks.push(rows.slice());
    this.words += rows.length;
  }

  finish(): SignatureMatrix {
    const all = new Uint32Array(this.words);
    let at = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    this.chunks = [];
    return signatureMatrix(all, this.k, this.slotBits, this.bands);
  }
}
