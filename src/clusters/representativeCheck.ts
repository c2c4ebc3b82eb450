/**
 * The representative check (clustering.ts) in rounds. Each round compares
 * every open group's representative with its members at once, so a round's
 * comparisons can be decided anywhere (here, or in batches on workers) before
 * `settle` takes their answers. A member belongs to one group at a time and
 * its attempts are its own, so rounds give what checking one group after
 * another gives: the same representatives, splits and counts.
 */
import type { PairList } from '../bands/pairSet.js';

/** A round's comparisons: pair i compares representative a[i] with member b[i]. */
export type Comparisons = PairList;

export class RepresentativeCheck {
  exhausted = 0;
  comparisons = 0;
  /** Members whose representative is final (the progress of the check). */
  settled = 0;
  private readonly start: Uint32Array;
  private readonly neighbours: Uint32Array;
  private readonly attempts: Uint32Array;
  /** Piece label of each member of the failed set being split (−1: not in it). */
  private readonly piece: Int32Array;
  /** Groups to compare in the next round, each in preference order. */
  private open: number[][] = [];
  /** The round in flight: each compared member, and where each group's compared members end. */
  private compared: Uint32Array = new Uint32Array(0);
  private groupEnds: number[] = [];
  private inFlight: number[][] = [];

  constructor(
    count: number,
    pairs: PairList,
    private readonly representative: Int32Array,
    private readonly maxRepresentatives: number,
  ) {
    this.start = new Uint32Array(count + 1);
    for (let i = 0; i < pairs.a.length; i++) {
      this.start[pairs.a[i] + 1]++;
      this.start[pairs.b[i] + 1]++;
    }
    for (let d = 0; d < count; d++) this.start[d + 1] += this.start[d];
    this.neighbours = new Uint32Array(this.start[count]);
    const fill = this.start.slice(0, count);
    for (let i = 0; i < pairs.a.length; i++) {
      this.neighbours[fill[pairs.a[i]]++] = pairs.b[i];
      this.neighbours[fill[pairs.b[i]]++] = pairs.a[i];
    }
    this.attempts = new Uint32Array(count);
    this.piece = new Int32Array(count).fill(-1);
  }

  /** A component to check, sorted by preference. */
  add(members: number[]): void {
    this.open.push(members);
  }

  /** The next round's comparisons (none when the check is done); members past R attempts are kept alone here. */
  nextRound(): Comparisons {
    const reps: number[] = [];
    const compared: number[] = [];
    this.groupEnds = [];
    for (const group of this.open) {
      const rep = group[0];
      this.representative[rep] = rep;
      this.settled++;
      for (let i = 1; i < group.length; i++) {
        const m = group[i];
        if (this.attempts[m] >= this.maxRepresentatives) {
          this.representative[m] = m;
          this.exhausted++;
          this.settled++;
          continue;
        }
        this.attempts[m]++;
        reps.push(rep);
        compared.push(m);
      }
      this.groupEnds.push(compared.length);
    }
    this.comparisons += compared.length;
    this.inFlight = this.open;
    this.open = [];
    this.compared = Uint32Array.from(compared);
    return { a: Uint32Array.from(reps), b: this.compared };
  }

  /** The round's answers (passed[i] for comparison i): members that failed are split into the next round's groups. */
  settle(passed: Uint8Array): void {
    let from = 0;
    for (let g = 0; g < this.inFlight.length; g++) {
      const rep = this.inFlight[g][0];
      const failed: number[] = [];
      for (let i = from; i < this.groupEnds[g]; i++) {
        const m = this.compared[i];
        if (passed[i] === 1) {
          this.representative[m] = rep;
          this.settled++;
        } else failed.push(m);
      }
      from = this.groupEnds[g];
      for (const piece of this.pieces(failed)) this.add(piece);
    }
    this.inFlight = [];
  }

  /** `failed` (in preference order) split into the pieces its verified pairs connect, each in preference order. */
  private pieces(failed: number[]): number[][] {
    if (failed.length <= 1) return failed.length === 1 ? [failed] : [];
    const { piece, start, neighbours } = this;
    for (const m of failed) piece[m] = -2; // in the set, not yet labelled
    let labels = 0;
    const stack: number[] = [];
    for (const m of failed) {
      if (piece[m] !== -2) continue;
      piece[m] = labels;
      stack.push(m);
      while (stack.length > 0) {
        const x = stack.pop()!;
        for (let e = start[x]; e < start[x + 1]; e++) {
          const y = neighbours[e];
          if (piece[y] === -2) {
            piece[y] = labels;
            stack.push(y);
          }
        }
      }
      labels++;
    }
    const out: number[][] = Array.from({ length: labels }, () => []);
    for (const m of failed) {
      out[piece[m]].push(m);
      piece[m] = -1;
    }
    return out;
  }
}
