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
 *
 * The check runs in rounds (representativeCheck.ts): `clusterPairs` decides
 * each round's comparisons here, `clusterPairsInRounds` hands them to a
 * caller that may decide them on workers.
 */
import type { PairList } from '../bands/pairSet.js';
import { RepresentativeCheck, type Comparisons, type PackedGroups } from './representativeCheck.js';
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
  const passes = options.check === 'none' ? undefined : passesOf(options);
  const run = startClustering(count, pairs, options);
  if (run.check !== undefined)
    for (let round = run.check.nextRound(); round.a.length > 0; round = run.check.nextRound()) {
      const passed = new Uint8Array(round.a.length);
      for (let i = 0; i < passed.length; i++) passed[i] = passes!(round.a[i], round.b[i]) ? 1 : 0;
      run.check.settle(passed);
    }
  return run.finish();
}

/** Options of `clusterPairsInRounds`: each round of the representative check is decided by `decide`. */
export interface RoundOptions {
  readonly check: ClusterCheck;
  readonly compare: (a: number, b: number) => number;
  /** 1 where representative a[i] may stand for member b[i]. */
  readonly decide: (round: Comparisons) => Promise<Uint8Array>;
  readonly maxRepresentatives?: number;
  /** Members whose cluster is settled, of `total` (those of components of two or more). */
  readonly onProgress?: (settled: number, total: number) => void;
}

/** clusterPairs with the representative check's rounds decided by the caller, e.g. on workers. */
export async function clusterPairsInRounds(count: number, pairs: PairList, options: RoundOptions): Promise<Clustering> {
  const run = startClustering(count, pairs, options);
  const { check } = run;
  if (check !== undefined)
    for (let round = check.nextRound(); round.a.length > 0; round = check.nextRound()) {
      options.onProgress?.(check.settled, run.members);
      check.settle(await options.decide(round));
    }
  options.onProgress?.(run.members, run.members);
  return run.finish();
}

/** Union-find over the pairs; each component sorted by preference and, with the check, given to it. */
function startClustering(
  count: number,
  pairs: PairList,
  options: Pick<RoundOptions, 'check' | 'compare' | 'maxRepresentatives'>,
) {
  const uf = new UnionFind(count);
  for (let i = 0; i < pairs.a.length; i++) uf.union(pairs.a[i], pairs.b[i]);
  const representative = new Int32Array(count);
  for (let d = 0; d < count; d++) representative[d] = d;
  const check =
    options.check === 'none' ? undefined : new RepresentativeCheck(count, pairs, representative, checkedBound(options));
  const all = components(uf, count);
  const { members, ends } = all;
  for (let c = 0, from = 0; c < all.count; from = ends[c++]) sortRange(members, from, ends[c], options.compare);
  if (check === undefined)
    for (let c = 0, from = 0; c < all.count; from = ends[c++])
      for (let i = from; i < ends[c]; i++) representative[members[i]] = members[from];
  else check.begin(all);
  const finish = (): Clustering => {
    let splitOff = 0;
    if (check !== undefined)
      for (let c = 0, from = 0; c < all.count; from = ends[c++])
        for (let i = from + 1; i < ends[c]; i++) if (representative[members[i]] !== members[from]) splitOff++;
    return { representative, splitOff, exhausted: check?.exhausted ?? 0, comparisons: check?.comparisons ?? 0 };
  };
  return { check, members: members.length, finish };
}

/** members[from, to) sorted by `compare`: left as they are when already in order (components mostly are). */
function sortRange(members: Int32Array, from: number, to: number, compare: (a: number, b: number) => number): void {
  for (let i = from + 1; i < to; i++)
    if (compare(members[i - 1], members[i]) > 0) {
      members.subarray(from, to).sort(compare);
      return;
    }
}

function passesOf(options: ClusterOptions): (rep: number, m: number) => boolean {
  const { passes, similarity, threshold } = options;
  if (passes !== undefined) return passes;
  if (similarity !== undefined && threshold !== undefined) return (rep, m) => similarity(rep, m) >= threshold;
  throw new Error('the representative check needs a similarity and a threshold');
}

function checkedBound(options: { readonly maxRepresentatives?: number }): number {
  const bound = options.maxRepresentatives ?? DEFAULT_MAX_REPRESENTATIVES;
  if (!(bound >= 1)) throw new RangeError(`maxRepresentatives must be at least 1, got ${bound}`);
  return bound;
}

/**
 * Every component of two or more, packed: members in ascending index order, the components in order of their first
 * members (ends[c] is where component c's members end).
 */
function components(uf: UnionFind, count: number): PackedGroups & { members: Int32Array; ends: Int32Array } {
  // Each root's component number, in order of first members; then each component's size, and its members in place.
  const componentOf = new Int32Array(count).fill(-1);
  const rootOf = new Int32Array(count);
  let components = 0;
  let members = 0;
  for (let d = 0; d < count; d++) {
    const root = uf.find(d);
    rootOf[d] = root;
    if (uf.sizeOf(root) < 2) continue;
    members++;
    if (componentOf[root] < 0) componentOf[root] = components++;
  }
  const ends = new Int32Array(components);
  for (let d = 0; d < count; d++) if (componentOf[rootOf[d]] >= 0) ends[componentOf[rootOf[d]]]++;
  for (let c = 1; c < components; c++) ends[c] += ends[c - 1];
  const at = new Int32Array(components);
  for (let c = 1; c < components; c++) at[c] = ends[c - 1];
  const packed = new Int32Array(members);
  for (let d = 0; d < count; d++) {
    const c = componentOf[rootOf[d]];
    if (c >= 0) packed[at[c]++] = d;
  }
  return { members: packed, ends, count: components };
}
