/**
 * What dedup remembers about every input document while streaming: its exact
 * group (the signed document standing for its normalized text, −1 when empty)
 * and its keep score. 12 bytes per document; the texts themselves are not kept.
 */
import { sharedWords } from '../bands/sharedMemory.js';
import { isPreferred } from '../text/keepPolicy.js';

export class DocumentTable {
  private groupOf = new Int32Array(1024);
  private scores = new Float64Array(1024);
  private docs = 0;
  private signed = 0;
  /** The first document's score, and whether another differs from it. */
  private firstScore = Number.NaN;
  private mixedScores = false;

  get documents(): number {
    return this.docs;
  }

  /** Bytes of its arrays (12 a document, allocated in doublings): they count against --memory-limit. */
  get bytes(): number {
    return this.groupOf.byteLength + this.scores.byteLength;
  }

  /** Number of exact groups, i.e. of signed documents. */
  get groups(): number {
    return this.signed;
  }

  /** Records the next document: `group` is its exact group (−1 for an empty document). */
  add(group: number, score: number): void {
    if (this.docs === this.groupOf.length) {
      this.groupOf = grow(this.groupOf, new Int32Array(this.docs * 2));
      this.scores = grow(this.scores, new Float64Array(this.docs * 2));
    }
    if (group > this.signed) throw new RangeError(`exact group ${group} skips ahead of ${this.signed}`);
    if (group === this.signed) this.signed++;
    this.groupOf[this.docs] = group;
    this.scores[this.docs] = score;
    if (this.docs === 0) this.firstScore = score;
    else if (score !== this.firstScore) this.mixedScores = true;
    this.docs++;
  }

  group(doc: number): number {
    return this.groupOf[doc];
  }

  score(doc: number): number {
    return this.scores[doc];
  }

  /**
   * Whether every document has the same score (a number): then the keep policy prefers the earlier document, and a
   * group's first document is its preferred one (`--keep first`, and any policy on a corpus that ties throughout).
   */
  get uniformScores(): boolean {
    return !this.mixedScores && !Number.isNaN(this.firstScore);
  }

  /** Every document's group and score, as views of the table's arrays (read them, never write). */
  columns(): { readonly group: Int32Array; readonly score: Float64Array } {
    return { group: this.groupOf.subarray(0, this.docs), score: this.scores.subarray(0, this.docs) };
  }

  /** For each group, its first document (groups are numbered in that order), in shared memory where there is some. */
  firstDocuments(): Int32Array {
    const first = new Int32Array(sharedWords(this.signed).buffer);
    for (let d = 0, next = 0; d < this.docs && next < this.signed; d++) if (this.groupOf[d] === next) first[next++] = d;
    return first;
  }

  /** For each group, the document the keep policy prefers among its members. */
  preferredMembers(): Int32Array {
    const best = new Int32Array(this.signed).fill(-1);
    for (let d = 0; d < this.docs; d++) {
      const g = this.groupOf[d];
      if (g < 0) continue;
      const b = best[g];
      if (b < 0 || isPreferred(this.scores[d], d, this.scores[b], b)) best[g] = d;
    }
    return best;
  }

  /** A total order on groups: by their preferred members' scores, then input order. */
  groupComparator(preferred?: Int32Array): (a: number, b: number) => number {
    // Scores all tie: the preferred members are the first documents, in the groups' order.
    if (preferred === undefined && this.uniformScores) return (a, b) => a - b;
    const best = preferred ?? this.preferredMembers();
    return (a, b) => {
      if (a === b) return 0;
      const da = best[a];
      const db = best[b];
      return isPreferred(this.scores[da], da, this.scores[db], db) ? -1 : 1;
    };
  }
}

function grow<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
