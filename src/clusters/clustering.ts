/**
 * Clusters of signed documents from verified pairs.
 *
 * Union-find joins every verified pair, giving connected components. Without
 * a check, a component is a cluster and its representative is its preferred
 * member (the one the keep policy keeps). Single linkage can chain unrelated
 * documents (A~B, B~C, A≁C), so the `representative` check splits components:
 * the preferred member becomes the representative, every member that passes
 * against it (in dedup: similarity ≥ t − δ, `--chain-delta`) joins it, and the
 * members that fail are split into the pieces that verified pairs still
 * connect among them, each checked the same way again.
 *
 * Bounded work: each member is compared with at most `maxRepresentatives`
 * representatives (R); a member that failed R of them is kept as a cluster of
 * its own, never removed unverified. The cost is at most R comparisons per
 * member plus R scans of its verified pairs, O(R·(documents + pairs)), however
 * a chained component falls apart. Afterwards every removed member passed the
 * check against the document its cluster keeps.
 */
import type { PairList } from '../bands/pairSet.js';
import { UnionFind } from './unionFind.js';
import { defaultOf, type ClusterCheck } from '../options.js';

export { CLUSTER_CHECKS, type ClusterCheck } from '../options.js';

/** Representatives a member is compared with before it is kept on its own. */
export const DEFAULT_MAX_REPRESENTATIVES = defaultOf('maxRepresentatives');

export interface ClusterOptions {
  readonly check: ClusterCheck;
  /** Negative when a is preferred (kept) over b: a total order on the documents. */
  readonly compare: (a: number, b: number) => number;
  /** For the representative check: whether member m may be removed in favour of representative rep. */
  readonly passes?: (rep: number, m: number) => boolean;
  /** Or, instead of `passes`: a similarity and the threshold it must reach. */
  readonly similarity?: (a: number, b: number) => number;
  readonly threshold?: number;
  /** R: representatives per member at most (default 8; Infinity for no bound). */
  readonly maxRepresentatives?: number;
}

export interface Clustering {
  /** For each document, the representative of its cluster (itself for a singleton). */
  readonly representative: Int32Array;
  /** Members moved out of their component by the representative check. */
  readonly splitOff: number;
  /** Of those, members kept alone after failing against R representatives. */
  readonly exhausted: number;
  /** Comparisons the representative check made. */
  readonly comparisons: number;
}

export function clusterPairs(count: number, pairs: PairList, options: ClusterOptions): Clustering {
  const uf = new UnionFind(count);
  for (let i = 0; i < pairs.a.length; i++) uf.union(pairs.a[i], pairs.b[i]);
  const representative = new Int32Array(count);
  for (let d = 0; d < count; d++) representative[d] = d;
  const checker = options.check === 'none' ? undefined : new RepresentativeCheck(count, pairs, representative, options);
  let splitOff = 0;
  for (const members of components(uf, count)) {
    members.sort(options.compare);
    if (checker === undefined) {
      for (const m of members) representative[m] = members[0];
    } else {
      checker.split(members);
      for (let i = 1; i < members.length; i++) if (representative[members[i]] !== members[0]) splitOff++;
    }
  }
  return { representative, splitOff, exhausted: checker?.exhausted ?? 0, comparisons: checker?.comparisons ?? 0 };
}

/** Members of every component of two or more, each in ascending index order. */
function* components(uf: UnionFind, count: number): Generator<number[]> {
  const byRoot = new Map<number, number[]>();
  for (let d = 0; d < count; d++) {
    if (uf.sizeOf(d) < 2) continue;
    const root = uf.find(d);
    const list = byRoot.get(root);
    if (list === undefined) byRoot.set(root, [d]);
    else list.push(d);
  }
  yield* byRoot.values();
}

/** The representative check over one component at a time, with the verified pairs as adjacency lists. */
class RepresentativeCheck {
  exhausted = 0;
  comparisons = 0;
  private readonly passes: (rep: number, m: number) => boolean;
  private readonly maxRepresentatives: number;
  private readonly start: Uint32Array;
  private readonly neighbours: Uint32Array;
  private readonly attempts: Uint32Array;
  /** Piece label of each member of the failed set being split (−1: not in it). */
  private readonly piece: Int32Array;

  constructor(
    count: number,
    pairs: PairList,
    private readonly representative: Int32Array,
    options: ClusterOptions,
  ) {
    const { passes, similarity, threshold } = options;
    if (passes !== undefined) this.passes = passes;
    else if (similarity !== undefined && threshold !== undefined)
      this.passes = (rep, m) => similarity(rep, m) >= threshold;
    else throw new Error('the representative check needs a similarity and a threshold');
    this.maxRepresentatives = options.maxRepresentatives ?? DEFAULT_MAX_REPRESENTATIVES;
    if (!(this.maxRepresentatives >= 1))
      throw new RangeError(`maxRepresentatives must be at least 1, got ${this.maxRepresentatives}`);
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

  /** `members` sorted by preference; sets their representatives. */
  split(members: number[]): void {
    const work: number[][] = [members];
    while (work.length > 0) {
      const group = work.pop()!;
      const rep = group[0];
      this.representative[rep] = rep;
      const failed: number[] = [];
      for (let i = 1; i < group.length; i++) {
        const m = group[i];
        if (this.attempts[m] >= this.maxRepresentatives) {
          this.representative[m] = m;
          this.exhausted++;
          continue;
        }
        this.attempts[m]++;
        this.comparisons++;
        if (this.passes(rep, m)) this.representative[m] = rep;
        else failed.push(m);
      }
      for (const piece of this.pieces(failed)) {
        if (piece.length === 1) this.representative[piece[0]] = piece[0];
        else work.push(piece);
      }
    }
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
