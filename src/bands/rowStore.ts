/**
 * Signature rows appended batch by batch, joined once at the end (peak: twice
 * the rows, briefly). With a spill, rows past `limitBytes` go to its sink
 * instead (the Node pipeline's temporary file, src/pipeline/dedup/rowSpill.ts), and
 * the store ends as spilled signatures.
 */
import type { BandLayout } from './bBitSlots.js';
import { signatureMatrix, type SignatureMatrix, type SlotBits } from './signatureMatrix.js';
import type { CorpusSignatures, SpilledSignatures } from './spilledSignatures.js';
import { sharedWords } from './sharedMemory.js';

/** Where spilled rows go: appended in order, then read back. */
export interface RowSink {
  append(rows: Uint32Array): void;
  finish(): SpilledSignatures;
}

export interface RowSpill {
  /** Rows held in memory up to this many bytes; the first row past it opens the sink. */
  readonly limitBytes: number;
  open(): RowSink;
}

export class RowStore {
  private chunks: Uint32Array[] = [];
  private words = 0;
  private sink?: RowSink;

  constructor(
    readonly k: number,
    readonly slotBits: SlotBits,
    /** b-bit rows only: their stored band keys' layout. */
    readonly bands?: BandLayout,
    private readonly spill?: RowSpill,
  ) {}

  append(rows: Uint32Array): void {
    if (this.sink !== undefined) {
      this.sink.append(rows);
      return;
    }
    this.chunks.push(rows.slice());
    this.words += rows.length;
    if (this.spill !== undefined && this.words * 4 > this.spill.limitBytes) {
      this.sink = this.spill.open();
      for (const chunk of this.chunks) this.sink.append(chunk);
      this.chunks = [];
    }
  }

  finish(): CorpusSignatures {
    if (this.sink !== undefined) return this.sink.finish();
    return this.joined();
  }

  /** The rows in memory as one matrix (never spilled). */
  joined(): SignatureMatrix {
    if (this.sink !== undefined) throw new Error('these rows were spilled to disk');
    const all = sharedWords(this.words); // shared: the verification workers read the rows where they lie
    let at = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    this.chunks = [];
    return signatureMatrix(all, this.k, this.slotBits, this.bands);
  }
}
