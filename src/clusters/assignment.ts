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
function markKept(cluster: Uint32Array, bestOf: readonly number[]): { kept: Uint8Array; keptCount: number } {
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
  const cluster = new Uint32Array(n);
  // Slots [0, groups) key clusters by representative; [groups, 2·groups) key contaminated groups, apart from any
  // cluster.
  const clusterOfRep = new Int32Array(2 * table.groups).fill(-1);
  const bestOf: number[] = [];
  const groupsIn: number[] = [];
  let empty = 0;
  let exactDuplicates = 0;
  let contaminatedDocs = 0;
  const seenGroup = new Uint8Array(table.groups);
  for (let d = 0; d < n; d++) {
    const g = table.group(d);
    if (g < 0) {
      empty++;
      cluster[d] = bestOf.length;
      bestOf.push(d);
      groupsIn.push(0);
      continue;
    }
    if (seenGroup[g] === 1) exactDuplicates++;
    const isContaminated = contaminated !== undefined && contaminated[g] === 1;
    if (isContaminated) contaminatedDocs++;
    const rep = isContaminated ? table.groups + g : representative[g];
    let c = clusterOfRep[rep];
    if (c < 0) {
      c = clusterOfRep[rep] = bestOf.length;
      bestOf.push(isContaminated ? -1 : d);
      groupsIn.push(0);
    }
    if (seenGroup[g] === 0) groupsIn[c]++;
    seenGroup[g] = 1;
    cluster[d] = c;
    const best = bestOf[c];
    if (best >= 0 && isPreferred(table.score(d), d, table.score(best), best)) bestOf[c] = d;
  }
  const { kept, keptCount } = markKept(cluster, bestOf);
  let nearDuplicateClusters = 0;
  for (const groups of groupsIn) if (groups >= 2) nearDuplicateClusters++;
  return {
    cluster,
    kept,
    counts: {
      documents: n,
      empty,
      exactDuplicates,
      clusters: bestOf.length,
      nearDuplicateClusters,
      contaminated: contaminatedDocs,
      removed: n - keptCount,
      kept: keptCount,
    },
  };
}
