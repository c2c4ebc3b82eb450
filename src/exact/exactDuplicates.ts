/**
 * The exact pre-pass: documents whose normalized texts are identical (same
 * tokens after the shingling normalization, so whitespace and, by default,
 * case do not matter) have identical shingle sets and signatures. They are
 * grouped by a 128-bit hash (MurmurHash3_x86_128 of its UTF-8, pure
 * TypeScript, so the same code runs in a browser tab) before signing, and only
 * the first of each group is signed.
 *
 * The keys lie in order of first appearance, 16 bytes each, and the hash
 * table holds per slot its group and the key's second word, a tag, so that a
 * new key (most of them) costs one probe of one array: the key itself is read
 * only where the tag matches. The tag also chooses the slot, so that growing
 * places the groups again from the slots alone, read straight through, and
 * writes them near where they lay (placed from their keys in group order, at
 * random, the growing took a third of the table's time at 1 M keys). Typed
 * arrays (no strings): a million distinct texts take about 32 MB at the
 * table's maximum load.
 */
import { murmur3x86_128 } from '../math/murmur3.js';

export class ExactDuplicateIndex {
  private capacity = 1024;
  /** Per slot: its group + 1 (0: empty), then its key's second word. */
  private slots = new Uint32Array(2 * this.capacity);
  /** Per group: its 128-bit key (room for the capacity's half, the most groups before the table grows). */
  private keys = new Uint32Array(2 * this.capacity);
  private groups = 0;
  private readonly encoder = new TextEncoder();
  private utf8 = new Uint8Array(1024);
  private readonly digest = new Uint32Array(4);

  /** Bytes of its table and keys. */
  get bytes(): number {
    return this.slots.byteLength + this.keys.byteLength;
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
    const mask = this.capacity - 1;
    const { slots } = this;
    let slot = h1 & mask;
    for (; slots[2 * slot] !== 0; slot = (slot + 1) & mask) {
      if (slots[2 * slot + 1] !== h1) continue;
      const found = slots[2 * slot] - 1;
      const k = 4 * found;
      if (this.keys[k] === h0 && this.keys[k + 2] === h2 && this.keys[k + 3] === h3)
        return { group: found, isNew: false };
    }
    const group = this.groups++;
    slots[2 * slot] = group + 1;
    slots[2 * slot + 1] = h1;
    const k = 4 * group;
    this.keys[k] = h0;
    this.keys[k + 1] = h1;
    this.keys[k + 2] = h2;
    this.keys[k + 3] = h3;
    return { group, isNew: true };
  }

  /**
   * Reads, for `count` keys (4 words each from word 0 of `keys`), the slot where each would start and, where its tag
   * matches, the key it holds; adds nothing. Misses on a large table cost the most (two of 1 M keys at 1 M
   * documents): read here in a loop with nothing else to wait on, they overlap one another, and the addKey calls that
   * follow find their lines in the cache (about half the time of the id check and the pre-pass at 1 M). Returns what
   * it read, combined: nothing to use.
   */
  touch(keys: Uint32Array, count: number): number {
    const mask = this.capacity - 1;
    const { slots } = this;
    let read = 0;
    for (let i = 0, at = 0; i < count; i++, at += 4) {
      const slot = 2 * (keys[at + 1] & mask);
      const group = slots[slot];
      read ^= group !== 0 && slots[slot + 1] === keys[at + 1] ? this.keys[4 * (group - 1)] : group;
    }
    return read;
  }

  /** UTF-8 (lone surrogates as U+FFFD, as TextEncoder writes them) into a reused buffer, then hashed. */
  private hashText(text: string): Uint32Array {
    // At most 3 bytes per UTF-16 code unit.
    if (this.utf8.length < text.length * 3) this.utf8 = new Uint8Array(text.length * 3);
    const { written } = this.encoder.encodeInto(text, this.utf8);
    return murmur3x86_128(this.utf8, written, this.digest);
  }

  /** Twice the slots: each group placed again from its tag, the slots read in order (nothing else is read). */
  private grow(): void {
    const old = this.slots;
    this.capacity *= 2;
    const mask = this.capacity - 1;
    const slots = new Uint32Array(2 * this.capacity);
    const keys = new Uint32Array(2 * this.capacity);
    keys.set(this.keys);
    for (let s = 0; s < old.length; s += 2) {
      const entry = old[s];
      if (entry === 0) continue;
      const tag = old[s + 1];
      let slot = tag & mask;
      while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = entry;
      slots[2 * slot + 1] = tag;
    }
    this.slots = slots;
    this.keys = keys;
  }
}
