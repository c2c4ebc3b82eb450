/**
 * The inspector's questions, answered in the worker from the run it kept:
 * pages of clusters (largest first) and of reference matches, a cluster's
 * members with their similarity to the kept document, and a side-by-side view
 * of two documents with their shared shingles marked.
 */
import { signatureAgreement } from '../src/bands/signatureMatrix.js';
import type { DedupDocumentsResult } from '../src/dedup/dedupDocuments.js';
import { exactJaccard } from '../src/verify/verification.js';
import { compareTexts } from '../src/verify/compareTexts.js';
import { shingleDocument, type ShingleOptions } from '../src/shingles/shingles.js';
import type { ClusterMember, ClusterRow, Comparison, InspectorList } from './protocol.js';

const SNIPPET = 160;
const NO_TEXT = "(text not kept: over the inspector's memory budget)";

export class Inspector {
  /** Clusters of two or more documents with a kept one, largest first; their members in input order. */
  private readonly order: Uint32Array;
  private readonly memberStart: Uint32Array;
  private readonly memberDocs: Uint32Array;
  private readonly keptDoc: Int32Array;
  /** Documents removed because they matched the reference set, in input order. */
  private readonly matched: number[] = [];

  constructor(
    private readonly result: DedupDocumentsResult,
    private readonly ids: readonly string[],
    private readonly texts: ReadonlyMap<number, string>,
    private readonly shingle: ShingleOptions,
    private readonly exact: boolean,
    private readonly referenceIds: readonly string[],
  ) {
    const { cluster, kept, counts } = result.assignment;
    const sizes = new Uint32Array(counts.clusters);
    this.keptDoc = new Int32Array(counts.clusters).fill(-1);
    for (let d = 0; d < cluster.length; d++) {
      sizes[cluster[d]]++;
      if (kept[d] === 1) this.keptDoc[cluster[d]] = d;
      const g = result.table.group(d);
      if (result.contamination !== undefined && g >= 0 && result.contamination.match[g] >= 0) this.matched.push(d);
    }
    const shown: number[] = [];
    for (let c = 0; c < sizes.length; c++) if (sizes[c] > 1 && this.keptDoc[c] >= 0) shown.push(c);
    shown.sort((a, b) => sizes[b] - sizes[a] || a - b);
    this.order = Uint32Array.from(shown);
    // Members by cluster, counting sort: start offsets, then docs in input order.
    this.memberStart = new Uint32Array(counts.clusters + 1);
    for (let c = 0; c < sizes.length; c++) this.memberStart[c + 1] = this.memberStart[c] + sizes[c];
    this.memberDocs = new Uint32Array(cluster.length);
    const fill = this.memberStart.slice(0, counts.clusters);
    for (let d = 0; d < cluster.length; d++) this.memberDocs[fill[cluster[d]]++] = d;
  }

  sizes(textsDropped: number) {
    return { clusters: this.order.length, contaminated: this.matched.length, textsKept: this.texts.size, textsDropped };
  }

  page(list: InspectorList, offset: number, count: number): { rows: ClusterRow[]; total: number } {
    if (list === 'contaminated') {
      const c = this.result.contamination!;
      const rows = this.matched.slice(offset, offset + count).map((d): ClusterRow => {
        const g = this.result.table.group(d);
        return {
          cluster: this.result.assignment.cluster[d],
          kind: 'reference',
          size: 1,
          keptId: '',
          removedIds: [this.ids[d]],
          removed: 1,
          snippet: this.snippet(d),
          reference: this.referenceIds[c.match[g]],
          similarity: c.similarity[g],
        };
      });
      return { rows, total: this.matched.length };
    }
    const rows = Array.from(this.order.subarray(offset, offset + count), (c): ClusterRow => {
      const members = this.membersOf(c);
      const keptDoc = this.keptDoc[c];
      const removed = members.filter((d) => d !== keptDoc);
      const groups = new Set(members.map((d) => this.result.table.group(d)));
      return {
        cluster: c,
        kind: groups.size > 1 ? 'near' : 'exact',
        size: members.length,
        keptId: this.ids[keptDoc],
        removedIds: removed.slice(0, 3).map((d) => this.ids[d]),
        removed: removed.length,
        snippet: this.snippet(keptDoc),
      };
    });
    return { rows, total: this.order.length };
  }

  members(cluster: number): ClusterMember[] {
    const keptDoc = this.keptDoc[cluster];
    if (keptDoc < 0) throw new Error(`cluster ${cluster} has no kept document`);
    const keptGroup = this.result.table.group(keptDoc);
    const keptSet = this.exact ? this.setOf(keptDoc) : undefined;
    return this.membersOf(cluster).map((d) => {
      const g = this.result.table.group(d);
      const same = g === keptGroup;
      const set = keptSet !== undefined && !same ? this.setOf(d) : undefined;
      return {
        doc: d,
        id: this.ids[d],
        kept: d === keptDoc,
        exactDuplicate: same,
        estimate: same ? 1 : signatureAgreement(this.result.signatures, g, keptGroup),
        exact: !this.exact ? undefined : same ? 1 : set && keptSet ? exactJaccard(set, keptSet) : undefined,
        snippet: this.snippet(d),
      };
    });
  }

  compare(keptDoc: number, removedDoc: number): Comparison {
    const keptText = this.texts.get(keptDoc);
    const removedText = this.texts.get(removedDoc);
    if (keptText === undefined || removedText === undefined) throw new Error(NO_TEXT);
    const { table, signatures } = this.result;
    const ga = table.group(keptDoc);
    const gb = table.group(removedDoc);
    return {
      keptId: this.ids[keptDoc],
      removedId: this.ids[removedDoc],
      ...compareTexts(keptText, removedText, this.shingle),
      estimate: ga === gb ? 1 : signatureAgreement(signatures, ga, gb),
    };
  }

  private membersOf(c: number): number[] {
    return Array.from(this.memberDocs.subarray(this.memberStart[c], this.memberStart[c + 1]));
  }

  private setOf(d: number): Uint32Array | undefined {
    const text = this.texts.get(d);
    return text === undefined ? undefined : shingleDocument(text, this.shingle);
  }

  private snippet(d: number): string {
    const text = this.texts.get(d);
    if (text === undefined) return NO_TEXT;
    const flat = text
      .slice(0, SNIPPET * 4)
      .replace(/\s+/g, ' ')
      .trim();
    return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET)}…` : flat;
  }
}
