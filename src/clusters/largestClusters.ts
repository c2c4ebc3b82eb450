/**
 * The largest near-duplicate clusters of a run, each removed member compared
 * with the kept document (compareTexts.ts): what the HTML report shows, from
 * the CLI (texts read once more from the corpus) and from the tab (the texts
 * its inspector holds). Pure and browser-safe.
 */
import type { ShingleOptions } from '../shingles/shingles.js';
import type { Assignment } from './assignment.js';
import { compareTexts, type TextComparison } from '../verify/compareTexts.js';
import type { DocumentTable } from '../exact/documentTable.js';

/** Clusters shown, and removed members shown per cluster. */
export const SHOWN_CLUSTERS = 10;
export const SHOWN_MEMBERS = 8;

export interface ChosenCluster {
  readonly cluster: number;
  readonly size: number;
  readonly kept: number;
  /** Removed members shown, in input order. */
  readonly removed: number[];
}

/**
 * The largest clusters of two or more distinct texts (ties: lower cluster number), with their kept and first removed
 * documents.
 */
export function largestClusters(
  assignment: Assignment,
  table: DocumentTable,
  count = SHOWN_CLUSTERS,
  perCluster = SHOWN_MEMBERS,
): ChosenCluster[] {
  const { cluster, kept } = assignment;
  const clusters = assignment.counts.clusters;
  const sizes = new Uint32Array(clusters);
  const keptOf = new Int32Array(clusters).fill(-1);
  const mixed = new Uint8Array(clusters); // a member whose text differs from the kept one's
  for (let d = 0; d < cluster.length; d++) {
    sizes[cluster[d]]++;
    if (kept[d] === 1) keptOf[cluster[d]] = d;
  }
  for (let d = 0; d < cluster.length; d++)
    if (keptOf[cluster[d]] >= 0 && table.group(d) !== table.group(keptOf[cluster[d]])) mixed[cluster[d]] = 1;
  const order: number[] = [];
  for (let c = 0; c < clusters; c++) if (mixed[c] === 1) order.push(c);
  order.sort((a, b) => sizes[b] - sizes[a] || a - b);
  const chosen = order
    .slice(0, count)
    .map((c): ChosenCluster => ({ cluster: c, size: sizes[c], kept: keptOf[c], removed: [] }));
  const byCluster = new Map(chosen.map((c) => [c.cluster, c]));
  for (let d = 0; d < cluster.length; d++) {
    const c = byCluster.get(cluster[d]);
    if (c !== undefined && d !== c.kept && c.removed.length < perCluster) c.removed.push(d);
  }
  return chosen;
}

export interface ShownMember {
  readonly id: string;
  /** Same normalized text as the kept document. */
  readonly exactDuplicate: boolean;
  /** The diff against the kept document (absent for exact duplicates, and where a text is not at hand). */
  readonly comparison?: TextComparison;
}

export interface ShownCluster {
  readonly cluster: number;
  readonly size: number;
  readonly keptId: string;
  readonly members: readonly ShownMember[];
}

/**
 * A cluster to show: its kept member and removed members, of any kind (document indexes here, rows of the join in
 * `cluster`).
 */
export interface ClusterToShow<M> {
  readonly cluster: number;
  readonly size: number;
  readonly kept: M;
  readonly removed: readonly M[];
}

/** What showing a member needs: its id, its text when at hand, and whether two members share their normalized text. */
export interface MemberSource<M> {
  id(member: M): string;
  text(member: M): string | undefined;
  sameText(a: M, b: M): boolean;
}

/**
 * The clusters with their diffs; a member without its text (the tab's memory budget, a corpus not given) is shown
 * without one.
 */
export function showChosenClusters<M>(
  chosen: readonly ClusterToShow<M>[],
  source: MemberSource<M>,
  shingle: ShingleOptions,
): ShownCluster[] {
  return chosen.map((c) => {
    const keptText = source.text(c.kept);
    const members = c.removed.map((m): ShownMember => {
      const exactDuplicate = source.sameText(m, c.kept);
      const text = source.text(m);
      const comparison =
        exactDuplicate || text === undefined || keptText === undefined
          ? undefined
          : compareTexts(keptText, text, shingle);
      return { id: source.id(m), exactDuplicate, comparison };
    });
    return { cluster: c.cluster, size: c.size, keptId: source.id(c.kept), members };
  });
}

/** The chosen clusters of a run with their diffs; `textOf` may lack a document's text (the tab's memory budget). */
export function showClusters(
  chosen: readonly ChosenCluster[],
  table: DocumentTable,
  idOf: (doc: number) => string,
  textOf: (doc: number) => string | undefined,
  shingle: ShingleOptions,
): ShownCluster[] {
  return showChosenClusters(
    chosen,
    { id: idOf, text: textOf, sameText: (a, b) => table.group(a) === table.group(b) },
    shingle,
  );
}
