/**
 * Clusters of signed documents from verified pairs.
 *
 * Union-find joins every verified pair, giving connected components. Without
 * a check, a component is a cluster and its representative is its preferred
 * member (the one the keep policy keeps). Single linkage can chain unrelated
 * documents (A~B, B~C, A≁C), so the `representative` check splits components:
 * the preferred member becomes the representative, every member that reaches
 * the threshold against it joins it, and the rest is clustered the same way
 * again. Afterwards every member of a cluster is verified against the document
 * its cluster keeps. Cost: one comparison per member per representative of its
 * component, linear unless a component falls apart into many pieces.
 */
import type { PairList } from '../bands/pairSet.js';
import { UnionFind } from './unionFind.js';

export type ClusterCheck = 'none' | 'representative';

export const CLUSTER_CHECKS: readonly ClusterCheck[] = ['none', 'representative'];

export interface ClusterOptions {
  readonly check: ClusterCheck;
  /** Negative when a is preferred (kept) over b: a total order on the documents. */
  readonly compare: (a: number, b: number) => number;
  /** For the representative check: the similarity used, and the threshold it must reach. */
  readonly similarity?: (a: number, b: number) => number;
  readonly threshold?: number;
}

export interface Clustering {
  /** For each document, the representative of its cluster (itself for a singleton). */
  readonly representative: Int32Array;
  /** Members moved out of their component by the representative check. */
  readonly splitOff: number;
}

export function clusterPairs(count: number, pairs: PairList, options: ClusterOptions): Clustering {
  const uf = new UnionFind(count);
  for (let i = 0; i < pairs.a.length; i++) uf.union(pairs.a[i], pairs.b[i]);
  const representative = new Int32Array(count);
  for (let d = 0; d < count; d++) representative[d] = d;
  let splitOff = 0;
  for (const members of components(uf, count)) {
    members.sort(options.compare);
    if (options.check === 'none') {
      for (const m of members) representative[m] = members[0];
    } else {
      splitOff += splitByRepresentative(members, representative, options);
    }
  }
  return { representative, splitOff };
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

/** `members` sorted by preference. Returns how many members ended up away from the component's first representative. */
function splitByRepresentative(members: number[], representative: Int32Array, options: ClusterOptions): number {
  const { similarity, threshold } = options;
  if (similarity === undefined || threshold === undefined) throw new Error('the representative check needs a similarity and a threshold');
  let remaining = members;
  let splitOff = 0;
  let first = true;
  while (remaining.length > 0) {
    const rep = remaining[0];
    representative[rep] = rep;
    const rest: number[] = [];
    for (let i = 1; i < remaining.length; i++) {
      const m = remaining[i];
      if (similarity(rep, m) >= threshold) representative[m] = rep;
      else rest.push(m);
    }
    if (!first) splitOff += remaining.length - rest.length;
    first = false;
    remaining = rest;
  }
  return splitOff;
}
