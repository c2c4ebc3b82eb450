/**
 * The bucket table of one band: documents grouped by band key. Open addressing
 * on typed arrays, reused band after band, so banding holds one band's table at
 * a time, whatever the number of bands: 16 bytes per slot for 2–4 slots per
 * document, plus 4 bytes per document (36–68 bytes per document).
 *
 * Each bucket is a linked list of documents in ascending index order, so the
 * first member of a bucket is always its earliest document.
 */
import { grown } from '../typedArrays.js';

export type BucketVisitor = (members: Uint32Array, size: number) => void;

export class BucketTable {
  private readonly mask: number;
  /**
   * Per slot, side by side (four words, 16 bytes: a probe reads one cache line, not one per array): its key's low and
   * high words, its bucket's first and last document (first −1: an empty slot).
   */
  private readonly slots: Int32Array;
  /** Per document, the next in its bucket, −1 after the last. */
  private readonly next: Int32Array;
  private scratch: Uint32Array = new Uint32Array(16);

  constructor(readonly documents: number) {
    let capacity = 16;
    while (capacity < documents * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(4 * capacity);
    this.next = new Int32Array(Math.max(1, documents));
  }

  /**
   * Buckets the documents whose `include` flag is set (all when absent) by
   * their key in one band (document d's (lo, hi) at keys[2d], keys[2d + 1]),
   * then calls `visit` once per bucket of two or more. `members` is a scratch
   * array, valid only during the call.
   */
  forEachBucket(keys: Uint32Array, count: number, include: Uint8Array | undefined, visit: BucketVisitor): void {
    if (count > this.documents)
      throw new RangeError(`bucket table sized for ${this.documents} documents, got ${count}`);
    const { slots, next, mask } = this;
    slots.fill(-1);
    for (let doc = 0; doc < count; doc++) {
      if (include !== undefined && include[doc] === 0) continue;
      const lo = keys[2 * doc];
      const hi = keys[2 * doc + 1];
      let at = 4 * ((lo ^ Math.imul(hi, 0x9e3779b1)) & mask);
      next[doc] = -1;
      for (;;) {
        if (slots[at + 2] < 0) {
          slots[at] = lo;
          slots[at + 1] = hi;
          slots[at + 2] = doc;
          slots[at + 3] = doc;
          break;
        }
        if (slots[at] === (lo | 0) && slots[at + 1] === (hi | 0)) {
          next[slots[at + 3]] = doc;
          slots[at + 3] = doc;
          break;
        }
        at = (at + 4) & (4 * mask + 3);
      }
    }
    for (let at = 0; at < slots.length; at += 4) {
      const first = slots[at + 2];
      if (first < 0 || next[first] < 0) continue;
      let n = 0;
      for (let doc = first; doc >= 0; doc = next[doc]) {
        if (n === this.scratch.length) this.scratch = grown(this.scratch, 2 * this.scratch.length);
        this.scratch[n++] = doc;
      }
      visit(this.scratch, n);
    }
  }
}
