/**
 * The exact pre-pass: documents whose normalized texts are identical (same
 * tokens after the shingling normalization, so whitespace and, by default,
 * case do not matter) have identical shingle sets and signatures. They are
 * grouped by a 128-bit hash (MurmurHash3_x86_128 of its UTF-8, pure
 * TypeScript, so the same code runs in a browser tab) before signing, and only
 * the first of each group is signed.
 *
 * The table holds 20 bytes per distinct text in typed arrays (no strings), so a
 * million distinct texts take about 40 MB at its maximum load.
 */
import { murmur3x86_128 } from '../math/murmur3.js';

export class ExactDuplicateIndex {
  private capacity = 1024;
  private words = new Uint32Array(this.capacity * 4);
  private group = new Int32Array(this.capacity).fill(-1);
  private groups = 0;
  private readonly encoder = new TextEncoder();
  private utf8 = new Uint8Array(1024);
  private readonly digest = new Uint32Array(4);

  /** Bytes of its table (20 a slot). */
  get bytes(): number {
    return this.words.byteLength + this.group.byteLength;
  }

  /** Number of distinct texts seen. */
  get size(): number {
    return this.groups;
  }

  /**
   * The group of this normalized text (or of these bytes, e.g. a signature row
   * when only signatures are at hand): groups are numbered 0, 1, … in order of
   * first appearance. `isNew` is true for the first document of a group.
   */
  add(normalized: string | Uint8Array): { group: number; isNew: boolean } {
    const digest =
      typeof normalized === 'string'
        ? this.hashText(normalized)
        : murmur3x86_128(normalized, normalized.length, this.digest);
    return this.addKey(digest, 0);
  }

  /** The same for a text hashed elsewhere (a first-pass worker): its 128-bit key at words [at, at + 4). */
  addKey(keys: Uint32Array, at: number): { group: number; isNew: boolean } {
    const h0 = keys[at];
    const h1 = keys[at + 1];
    const h2 = keys[at + 2];
    const h3 = keys[at + 3];
    if ((this.groups + 1) * 2 > this.capacity) this.grow();
    const found = this.lookup(h0, h1, h2, h3);
    if (found >= 0) return { group: found, isNew: false };
    const group = this.groups++;
    this.place(h0, h1, h2, h3, group);
    return { group, isNew: true };
  }

  /** UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them) into a reused buffer, then hashed. */
  private hashText(text: string): Uint32Array {
    // At most 3 bytes per UTF-16 code unit.
    if (this.utf8.length < text.length * 3) this.utf8 = new Uint8Array(text.length * 3);
    const { written } = this.encoder.encodeInto(text, this.utf8);
    return murmur3x86_128(this.utf8, written, this.digest);
  }

  private lookup(h0: number, h1: number, h2: number, h3: number): number {
    const mask = this.capacity - 1;
    const { words, group } = this;
    for (let slot = h0 & mask; ; slot = (slot + 1) & mask) {
      if (group[slot] < 0) return -1;
      const w = slot * 4;
      if (words[w] === h0 && words[w + 1] === h1 && words[w + 2] === h2 && words[w + 3] === h3) return group[slot];
    }
  }

  private place(h0: number, h1: number, h2: number, h3: number, id: number): void {
    const mask = this.capacity - 1;
    let slot = h0 & mask;
    while (this.group[slot] >= 0) slot = (slot + 1) & mask;
    const w = slot * 4;
    this.words[w] = h0;
    this.words[w + 1] = h1;
    this.words[w + 2] = h2;
    this.words[w + 3] = h3;
    this.group[slot] = id;
  }

  private grow(): void {
    const oldWords = this.words;
    const oldGroup = this.group;
    this.capacity *= 2;
    this.words = new Uint32Array(this.capacity * 4);
    this.group = new Int32Array(this.capacity).fill(-1);
    for (let slot = 0; slot < oldGroup.length; slot++) {
      if (oldGroup[slot] < 0) continue;
      const w = slot * 4;
      this.place(oldWords[w], oldWords[w + 1], oldWords[w + 2], oldWords[w + 3], oldGroup[slot]);
    }
  }
}
