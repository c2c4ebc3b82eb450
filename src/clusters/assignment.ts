/**
 * From clusters of signed documents (exact groups) to every input document:
 * its cluster number and whether it is kept. Exact duplicates share their
 * group's cluster; every empty document is a cluster of its own and is kept
 * (deduplication does not filter); a document matched by the reference set
 * (decontamination) is a cluster of its own, with its exact duplicates, and is
 * removed. Clusters are numbered 0, 1, … in order of their first document, so
 * the numbering depends only on the input and the clustering.
 */
import type { DocumentTable } from '../exact/documentTable.js';
import { isPreferred } from '../text/keepPolicy.js';

export interface Assignment {
  /** Cluster number of each input document. */
  readonly cluster: Uint32Array;
  /** 1 when the document is written to the output. */
  readonly kept: Uint8Array;
  readonly counts: AssignmentCounts;
}

export interface AssignmentCounts {
  readonly documents: number;
  readonly empty: number;
  /** Documents whose normalized text repeats an earlier document's. */
  readonly exactDuplicates: number;
  readonly clusters: number;
  /** Clusters holding two or more distinct normalized texts. */
  readonly nearDuplicateClusters: number;
  /** Documents removed because they matched the reference set. */
  readonly contaminated: number;
  readonly removed: number;
  readonly kept: number;
}

/** Flags each cluster's best document (bestOf[c]; −1 for none) among the documents, and counts them. */
function markKept(cluster: Uint32Array, bestOf: Int32Array): { kept: Uint8Array; keptCount: number } {
  const kept = new Uint8Array(cluster.length);
  let keptCount = 0;
  for (let d = 0; d < cluster.length; d++) {
    if (bestOf[cluster[d]] === d) {
      kept[d] = 1;
      keptCount++;
    }
  }
  return { kept, keptCount };
}

/**
 * `representative[g]` is the representative group of group g's cluster;
 * `contaminated[g]` (optional) flags groups matched by the reference set.
 */
export function assignClusters(
  table: DocumentTable,
  representative: Int32Array,
  contaminated?: Uint8Array,
): Assignment {
  const n = table.documents;
  const { group, score } = table.columns();
  const uniform = table.uniformScores;
  const cluster = new Uint32Array(n);
  // Slots [0, groups) key clusters by representative; [groups, 2·groups) key contaminated groups, apart from any
  // cluster.
  const clusterOfRep = new Int32Array(2 * table.groups).fill(-1);
  // Each cluster's best document (−1: none, contaminated) and its distinct texts; a cluster has a group or is empty.
  let empty = 0;
  for (let d = 0; d < n; d++) if (group[d] < 0) empty++;
  const bestOf = new Int32Array(table.groups + empty);
  const groupsIn = new Int32Array(table.groups + empty);
  let clusters = 0;
  let exactDuplicates = 0;
  let contaminatedDocs = 0;
  const seenGroup = new Uint8Array(table.groups);
  for (let d = 0; d < n; d++) {
    const g = group[d];
    if (g < 0) {
      cluster[d] = clusters;
      bestOf[clusters++] = d;
      continue;
    }
    if (seenGroup[g] === 1) exactDuplicates++;
    const isContaminated = contaminated !== undefined && contaminated[g] === 1;
    if (isContaminated) contaminatedDocs++;
    const rep = isContaminated ? table.groups + g : representative[g];
    let c = clusterOfRep[rep];
    if (c < 0) {
      c = clusterOfRep[rep] = clusters++;
      bestOf[c] = isContaminated ? -1 : d;
    }
    if (seenGroup[g] === 0) groupsIn[c]++;
    seenGroup[g] = 1;
    cluster[d] = c;
    // A document later than the cluster's best is preferred only for a higher score: never when scores all tie.
    const best = bestOf[c];
    if (!uniform && best >= 0 && isPreferred(score[d], d, score[best], best)) bestOf[c] = d;
  }
  const { kept, keptCount } = markKept(cluster, bestOf);
  let nearDuplicateClusters = 0;
  for (let c = 0; c < clusters; c++) if (groupsIn[c] >= 2) nearDuplicateClusters++;
  const counts = { documents: n, empty, exactDuplicates, clusters, nearDuplicateClusters };
  return {
    cluster,
    kept,
    counts: { ...counts, contaminated: contaminatedDocs, removed: n - keptCount, kept: keptCount },
  };
}
