/**
 * The representative check (clustering.ts) in rounds. Each round compares
 * every open group's representative with its members at once, so a round's
 * comparisons can be decided anywhere (here, or in batches on workers) before
 * `settle` takes their answers. A member belongs to one group at a time and
 * its attempts are its own, so rounds give what checking one group after
 * another gives: the same representatives, splits and counts.
 *
 * Groups are kept packed (members end to end, each group's end after it), in typed arrays where they can be: a
 * million documents' components cost no array each.
 */
import type { PairList } from '../bands/pairSet.js';

/** A round's comparisons: pair i compares representative a[i] with member b[i]. */
export type Comparisons = PairList;

/** Groups end to end: group i is members [ends[i − 1], ends[i]) (ends[−1] = 0), each in preference order. */
export interface PackedGroups {
  readonly members: ArrayLike<number>;
  readonly ends: ArrayLike<number>;
  readonly count: number;
}

export class RepresentativeCheck {
  exhausted = 0;
  comparisons = 0;
  /** Members whose representative is final (the progress of the check). */
  settled = 0;
  /** The verified pairs by member (built when a failed set is first split: most runs never split one). */
  private adjacency?: { readonly start: Uint32Array; readonly neighbours: Uint32Array };
  private readonly attempts: Uint32Array;
  /** Piece label of each member of the failed set being split (−1: not in it). */
  private readonly piece: Int32Array;
  /** Groups to compare in the next round. */
  private open: PackedGroups = { members: [], ends: [], count: 0 };
  /** The round in flight: its groups, each compared member, and where each group's compared members end. */
  private inFlight: PackedGroups = { members: [], ends: [], count: 0 };
  private compared = new Uint32Array(0);
  private reps = new Uint32Array(0);
  private groupEnds = new Int32Array(0);

  constructor(
    private readonly count: number,
    private readonly pairs: PairList,
    private readonly representative: Int32Array,
    private readonly maxRepresentatives: number,
  ) {
    this.attempts = new Uint32Array(count);
    this.piece = new Int32Array(count).fill(-1);
  }

  /** Each member's verified pairs: the other members of neighbours[start[m], start[m + 1]). */
  private neighbourLists(): { readonly start: Uint32Array; readonly neighbours: Uint32Array } {
    if (this.adjacency !== undefined) return this.adjacency;
    const { count, pairs } = this;
    const start = new Uint32Array(count + 1);
    for (let i = 0; i < pairs.a.length; i++) {
      start[pairs.a[i] + 1]++;
      start[pairs.b[i] + 1]++;
    }
    for (let d = 0; d < count; d++) start[d + 1] += start[d];
    const neighbours = new Uint32Array(start[count]);
    const fill = start.slice(0, count);
    for (let i = 0; i < pairs.a.length; i++) {
      neighbours[fill[pairs.a[i]]++] = pairs.b[i];
      neighbours[fill[pairs.b[i]]++] = pairs.a[i];
    }
    this.adjacency = { start, neighbours };
    return this.adjacency;
  }

  /** The components to check, each sorted by preference (the first round's groups). */
  begin(components: PackedGroups): void {
    this.open = components;
  }

  /** The next round's comparisons (none when the check is done); members past R attempts are kept alone here. */
  nextRound(): Comparisons {
    const { members, ends, count } = this.open;
    // At most one comparison a member but its group's first.
    const most = (count === 0 ? 0 : ends[count - 1]) - count;
    if (this.compared.length < most) {
      this.compared = new Uint32Array(most);
      this.reps = new Uint32Array(most);
    }
    if (this.groupEnds.length < count) this.groupEnds = new Int32Array(count);
    const { compared, reps, groupEnds, attempts, representative } = this;
    let n = 0;
    for (let g = 0, from = 0; g < count; from = ends[g++]) {
      const rep = members[from];
      representative[rep] = rep;
      this.settled++;
      for (let i = from + 1; i < ends[g]; i++) {
        const m = members[i];
        if (attempts[m] >= this.maxRepresentatives) {
          representative[m] = m;
          this.exhausted++;
          this.settled++;
          continue;
        }
        attempts[m]++;
        reps[n] = rep;
        compared[n++] = m;
      }
      groupEnds[g] = n;
    }
    this.comparisons += n;
    this.inFlight = this.open;
    this.open = { members: [], ends: [], count: 0 };
    return { a: reps.subarray(0, n), b: compared.subarray(0, n) };
  }

  /** The round's answers (passed[i] for comparison i): members that failed are split into the next round's groups. */
  settle(passed: Uint8Array): void {
    const { members, ends, count } = this.inFlight;
    const next = { members: [] as number[], ends: [] as number[] };
    for (let g = 0, from = 0; g < count; g++) {
      const rep = members[g === 0 ? 0 : ends[g - 1]];
      let failed: number[] | undefined; // most groups have none
      for (let i = from; i < this.groupEnds[g]; i++) {
        const m = this.compared[i];
        if (passed[i] === 1) {
          this.representative[m] = rep;
          this.settled++;
        } else (failed ??= []).push(m);
      }
      from = this.groupEnds[g];
      if (failed !== undefined) this.pieces(failed, next);
    }
    this.open = { ...next, count: next.ends.length };
    this.inFlight = { members: [], ends: [], count: 0 };
  }

  /**
   * `failed` (in preference order) split into the pieces its verified pairs connect, each in preference order,
   * appended to `to`.
   */
  private pieces(failed: number[], to: { members: number[]; ends: number[] }): void {
    if (failed.length === 1) {
      to.members.push(failed[0]);
      to.ends.push(to.members.length);
      return;
    }
    const { piece } = this;
    const { start, neighbours } = this.neighbourLists();
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
    for (const group of out) {
      for (const m of group) to.members.push(m);
      to.ends.push(to.members.length);
    }
  }
}
