/**
 * The bucket table of one band: documents grouped by band key. Open addressing
 * on typed arrays, reused band after band, so banding holds one band's table at
 * a time, whatever the number of bands: 20 bytes per slot for 2–4 slots per
 * document, plus 4 bytes per document (44–84 bytes per document).
 *
 * Each bucket is a linked list of documents in ascending index order, so the
 * first member of a bucket is always its earliest document.
 */

export type BucketVisitor = (members: Uint32Array, size: number) => void;

export class BucketTable {
  private readonly mask: number;
  private readonly keyLo: Uint32Array;
  private readonly keyHi: Uint32Array;
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly size: Int32Array;
  private readonly next: Int32Array;
  private scratch = new Uint32Array(16);

  constructor(readonly documents: number) {
    let capacity = 16;
    while (capacity < documents * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.keyLo = new Uint32Array(capacity);
    this.keyHi = new Uint32Array(capacity);
    this.head = new Int32Array(capacity);
    this.tail = new Int32Array(capacity);
    this.size = new Int32Array(capacity);
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
    const { keyLo, keyHi, head, tail, size, next, mask } = this;
    head.fill(-1);
    for (let doc = 0; doc < count; doc++) {
      if (include !== undefined && include[doc] === 0) continue;
      const lo = keys[2 * doc];
      const hi = keys[2 * doc + 1];
      let slot = (lo ^ Math.imul(hi, 0x9e3779b1)) & mask;
      for (;;) {
        const first = head[slot];
        if (first < 0) {
          keyLo[slot] = lo;
          keyHi[slot] = hi;
          head[slot] = doc;
          tail[slot] = doc;
          size[slot] = 1;
          break;
        }
        if (keyLo[slot] === lo && keyHi[slot] === hi) {
          next[tail[slot]] = doc;
          tail[slot] = doc;
          size[slot]++;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    for (let slot = 0; slot <= mask; slot++) {
      const n = size[slot];
      if (head[slot] < 0 || n < 2) continue;
      if (this.scratch.length < n) this.scratch = new Uint32Array(Math.max(n, this.scratch.length * 2));
      const members = this.scratch;
      let doc = head[slot];
      for (let i = 0; i < n; i++) {
        members[i] = doc;
        doc = next[doc];
      }
      visit(members, n);
    }
  }
}
