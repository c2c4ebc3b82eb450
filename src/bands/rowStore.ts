/**
 * Signature rows appended batch by batch, joined once at the end (peak: twice
 * the rows, briefly). With a spill, rows are copied into one shared buffer of
 * the limit's size instead (nothing to join), and rows past `limitBytes` go to
 * its sink (the Node pipeline's temporary file, src/pipeline/dedup/rowSpill.ts),
 * and the store ends as spilled signatures.
 */
import type { BandLayout } from './bBitSlots.js';
import { signatureMatrix, type SignatureMatrix, type SlotBits } from './signatureMatrix.js';
import type { CorpusSignatures, SpilledSignatures } from './spilledSignatures.js';
import { sharedWords } from './sharedMemory.js';
import { freeNow } from '../typedArrays.js';

/** Where spilled rows go: appended in order, then read back. */
export interface RowSink {
  /** Rows nobody changes after (the sink may write them from where they lie); `given`: it frees their buffer after. */
  append(rows: Uint32Array, given?: boolean): void;
  /** Undefined, or a promise that settles when the rows written behind leave room for more (WordFile.room). */
  room?(): Promise<void> | undefined;
  finish(): SpilledSignatures;
}

export interface RowSpill {
  /** Rows held in memory up to this many bytes; the first row past it opens the sink. */
  readonly limitBytes: number;
  open(): RowSink;
}

export class RowStore {
  private chunks: Uint32Array[] = [];
  /**
   * With a spill: the rows held in one shared buffer of the limit's size, made on the first append (only the pages
   * written take memory), so each row is copied once and the rows are never joined.
   */
  private held: Uint32Array | undefined;
  private words = 0;
  private sink?: RowSink;

  constructor(
    readonly k: number,
    readonly slotBits: SlotBits,
    /** b-bit rows only: their stored band keys' layout. */
    readonly bands?: BandLayout,
    private readonly spill?: RowSpill,
  ) {}

  /**
   * `given`: nobody reads the rows' buffer again (a unit's rows, made for the store): freed (freeNow) once they are
   * copied, or by the sink once written.
   */
  append(rows: Uint32Array, given = false): void {
    if (this.sink !== undefined) {
      this.sink.append(rows, given);
      return;
    }
    if (this.spill !== undefined && (this.words + rows.length) * 4 > this.spill.limitBytes) {
      // Past the limit: every row so far, and these, go to the sink in order.
      this.sink = this.spill.open();
      if (this.held !== undefined) this.sink.append(this.held.subarray(0, this.words));
      for (const chunk of this.chunks) this.sink.append(chunk);
      this.sink.append(rows, given);
      this.held = undefined;
      this.chunks = [];
      return;
    }
    if (this.spill !== undefined && this.words === 0) this.held = sharedWordsIfAny(this.spill.limitBytes / 4);
    if (this.held !== undefined) this.held.set(rows, this.words);
    else this.chunks.push(rows.slice());
    this.words += rows.length;
    if (given) freeNow(rows.buffer);
  }

  /** Undefined, or a promise to await before the next append so that spilled rows are written behind, not here. */
  room(): Promise<void> | undefined {
    return this.sink?.room?.();
  }

  finish(): CorpusSignatures {
    if (this.sink !== undefined) return this.sink.finish();
    return this.joined();
  }

  /** The rows in memory as one matrix (never spilled). */
  joined(): SignatureMatrix {
    if (this.sink !== undefined) throw new Error('these rows were spilled to disk');
    if (this.held !== undefined)
      return signatureMatrix(this.held.subarray(0, this.words), this.k, this.slotBits, this.bands);
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

/** `length` shared words, or none where the platform will not give that many (a limit past the machine's memory). */
function sharedWordsIfAny(length: number): Uint32Array | undefined {
  try {
    return sharedWords(Math.floor(length));
  } catch {
    return undefined; // the rows are then held in chunks and joined at the end, as without a spill
  }
}
