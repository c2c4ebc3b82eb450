/**
 * `sign --shard`'s exact pre-pass (the first pass's OrderingPrePass, over dedup's ExactDuplicateIndex): an exact
 * duplicate within the shard is not shingled nor signed but takes its group's first row, as dedup's pre-pass does
 * (same normalized text, same signature). The shard still holds a row per document (`cluster` and `--against` read
 * them by position), so the rows of the most recent `capacity` groups are held here, in a ring; a duplicate of an
 * older group is signed again. The decision is made in input order, as the workers' documents are ordered, and the
 * rows are filled in the same order: a group's slot is taken again only by a group `capacity` later.
 */
import { ExactDuplicateIndex } from '../../exact/exactDuplicates.js';
import type { OrderingPrePass } from '../../firstPass/firstPass.js';
import type { SignedUnit } from '../../firstPass/signedUnits.js';
import { EMPTY_SLOT_WORD } from '../../signatures/backend.js';

/** Rows a chunk of the ring holds. */
const CHUNK_ROWS = 4096;

export class RecentGroupRows implements OrderingPrePass {
  private readonly index = new ExactDuplicateIndex();
  /** The ring's rows in chunks of CHUNK_ROWS, allocated as it fills (never copied). */
  private readonly held: Uint32Array[] = [];
  /** Groups whose first row was taken in (they are numbered in order of first appearance). */
  private stored = 0;
  /** rowsOf's rows, every word written by each call. */
  private scratch = new Uint32Array(0);
  /** Duplicates signed again, their group's row no longer held. */
  signedAgain = 0;
  missingKeepField = 0;

  /** `width`: words a row; `capacity`: groups held at most. */
  constructor(
    private readonly width: number,
    private readonly capacity: number,
  ) {
    if (!(Number.isSafeInteger(capacity) && capacity >= 1)) throw new RangeError(`internal: capacity ${capacity}`);
  }

  addKeyed(keys: Uint32Array, at: number, empty: boolean): { group: number; isNew: boolean } {
    if (empty) return { group: -1, isNew: false };
    const { group, isNew } = this.index.addKey(keys, at);
    // Slot group mod capacity is taken again by group + capacity: past that, this duplicate is signed.
    if (!isNew && this.index.size - group > this.capacity) {
      this.signedAgain++;
      return { group, isNew: true };
    }
    return { group, isNew };
  }

  /**
   * Every document's row of a unit (in input order, each unit once): signed, its group's, or all-ones when empty. A
   * view of scratch kept from call to call, valid until the next: the writer copies the rows at once, and a fresh
   * array a unit (1 KiB a document at k = 128) made the main thread collect its old generation 71 times a 1 M shard.
   */
  rowsOf(unit: SignedUnit): Uint32Array {
    const { width } = this;
    const { count } = unit.documents;
    if (this.scratch.length < count * width) this.scratch = new Uint32Array(count * width);
    const rows = this.scratch.subarray(0, count * width);
    let s = 0;
    for (let d = 0; d < count; d++) {
      const group = unit.groups[d];
      const to = d * width;
      if (group < 0) rows.fill(EMPTY_SLOT_WORD, to, to + width);
      else if (s < unit.selected.length && unit.selected[s] === d) {
        const row = unit.signatures.subarray(s * width, (s + 1) * width);
        s++;
        rows.set(row, to);
        if (group === this.stored) this.keep(row);
      } else rows.set(this.rowOf(group % this.capacity), to);
    }
    return rows;
  }

  private keep(row: Uint32Array): void {
    const slot = this.stored++ % this.capacity;
    if (slot % CHUNK_ROWS === 0 && this.held.length === slot / CHUNK_ROWS)
      this.held.push(new Uint32Array(Math.min(CHUNK_ROWS, this.capacity - slot) * this.width));
    this.rowOf(slot).set(row);
  }

  private rowOf(slot: number): Uint32Array {
    const at = (slot % CHUNK_ROWS) * this.width;
    return this.held[Math.floor(slot / CHUNK_ROWS)].subarray(at, at + this.width);
  }
}
