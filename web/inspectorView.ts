/**
 * The cluster inspector (drawing only; the worker answers): every cluster of
 * two or more documents, a page at a time, largest first; a cluster's members
 * with their similarity to the kept document; and the kept and a removed
 * document side by side with their shared shingles marked. Rows are real
 * buttons, so the whole table works from the keyboard.
 */
import type { ClusterMember, ClusterRow, Comparison } from './protocol.js';
import { button, byId, int, plural, row, setText } from './dom.js';
import type { WorkerClient } from './workerClient.js';
import type { Segment } from '../src/shingles/sharedShingles.js';

export const PAGE_SIZE = 20;

const CLUSTER_LABELS = ['Cluster', 'Kind', 'Docs', 'Kept', 'Removed', 'Text', ''];
const MEMBER_LABELS = ['Document', 'Role', 'Similarity', 'Text', ''];
const REFERENCE_LABELS = ['Document', 'Reference', 'Similarity', 'Text'];

export class InspectorView {
  private clusterPage = 0;
  private clusterTotal = 0;
  private referencePage = 0;
  private referenceTotal = 0;
  private exact = false;

  constructor(private readonly client: WorkerClient) {
    byId('clusters-prev').addEventListener('click', () => void this.showClusters(this.clusterPage - 1));
    byId('clusters-next').addEventListener('click', () => void this.showClusters(this.clusterPage + 1));
    byId('reference-prev').addEventListener('click', () => void this.showReferences(this.referencePage - 1));
    byId('reference-next').addEventListener('click', () => void this.showReferences(this.referencePage + 1));
  }

  clear(): void {
    byId<HTMLTableElement>('clusters').tBodies[0].replaceChildren();
    byId<HTMLTableElement>('reference-table').tBodies[0].replaceChildren();
    byId('members').hidden = true;
    byId('compare').hidden = true;
    byId('reference-matches').hidden = true;
  }

  async load(clusters: number, contaminated: number, exact: boolean): Promise<void> {
    this.clear();
    this.exact = exact;
    this.clusterTotal = clusters;
    this.referenceTotal = contaminated;
    byId('clusters-summary').textContent =
      clusters === 0
        ? 'No duplicates found: every document is kept.'
        : `${plural(clusters, 'cluster')} of two or more documents (near-duplicates, exact duplicates or both), ` +
          `largest first, ${PAGE_SIZE} a page. ` +
          'Inspect one to see each removed document’s similarity to the kept one and the two texts side by side.';
    await this.showClusters(0);
    byId('reference-matches').hidden = contaminated === 0;
    if (contaminated > 0) await this.showReferences(0);
  }

  private async showClusters(page: number): Promise<void> {
    const pages = Math.max(1, Math.ceil(this.clusterTotal / PAGE_SIZE));
    this.clusterPage = Math.min(Math.max(0, page), pages - 1);
    const { rows } = await this.client.page('clusters', this.clusterPage * PAGE_SIZE, PAGE_SIZE);
    byId<HTMLTableElement>('clusters').tBodies[0].replaceChildren(...rows.map((r) => this.clusterRow(r)));
    pager('clusters', this.clusterPage, pages, this.clusterTotal);
  }

  private clusterRow(r: ClusterRow): HTMLTableRowElement {
    const removed =
      r.removedIds.join(', ') +
      (r.removed > r.removedIds.length ? ` +${int(r.removed - r.removedIds.length)} more` : '');
    const inspect = button('Inspect', () => void this.showMembers(r, tr), `Inspect cluster ${r.cluster}`);
    const tr = row([String(r.cluster), r.kind, String(r.size), r.keptId, removed, r.snippet, inspect], CLUSTER_LABELS, [
      true,
      false,
      true,
    ]);
    tr.dataset.cluster = String(r.cluster);
    return tr;
  }

  private async showMembers(r: ClusterRow, tr: HTMLTableRowElement): Promise<void> {
    for (const other of tr.parentElement?.querySelectorAll('tr.selected') ?? []) other.classList.remove('selected');
    tr.classList.add('selected');
    const members = await this.client.members(r.cluster);
    const kept = members.find((m) => m.kept)!;
    setText(
      byId('members-heading'),
      `Cluster ${r.cluster}: ${plural(members.length, 'document')}, “`,
      { user: kept.id },
      '” kept',
    );
    const rows = members.map((m) => this.memberRow(m, kept));
    byId<HTMLTableElement>('members-table').tBodies[0].replaceChildren(...rows);
    byId('members').hidden = false;
    byId('compare').hidden = true;
    byId('members-heading').focus();
  }

  private memberRow(m: ClusterMember, kept: ClusterMember): HTMLTableRowElement {
    const role = m.kept ? 'kept' : m.exactDuplicate ? 'removed (exact duplicate)' : 'removed';
    const similarity = m.kept ? '—' : describeSimilarity(m.estimate, m.exact, this.exact);
    const compare = m.kept
      ? ''
      : button('Compare', () => void this.showComparison(kept.doc, m.doc), `Compare ${m.id} with the kept document`);
    const tr = row([m.id, role, similarity, m.snippet, compare], MEMBER_LABELS, [false, false, true]);
    tr.dataset.doc = String(m.doc);
    return tr;
  }

  private async showComparison(keptDoc: number, removedDoc: number): Promise<void> {
    const c: Comparison = await this.client.compare(keptDoc, removedDoc);
    setText(byId('compare-heading'), '“', { user: c.removedId }, '” against the kept “', { user: c.keptId }, '”');
    byId('compare-summary').textContent =
      `Estimate ${c.estimate.toFixed(3)} (signature agreement), exact Jaccard ${c.exact.toFixed(3)}: ` +
      `${plural(c.sharedShingles, 'shared shingle')} of ${int(c.keptShingles)} (kept) and ${int(c.removedShingles)} (removed).`;
    setText(byId('compare-kept-title'), 'Kept: ', { user: c.keptId });
    setText(byId('compare-removed-title'), 'Removed: ', { user: c.removedId });
    byId('compare-kept').replaceChildren(...segments(c.kept));
    byId('compare-removed').replaceChildren(...segments(c.removed));
    byId('compare').hidden = false;
    byId('compare-heading').focus();
  }

  private async showReferences(page: number): Promise<void> {
    const pages = Math.max(1, Math.ceil(this.referenceTotal / PAGE_SIZE));
    this.referencePage = Math.min(Math.max(0, page), pages - 1);
    const { rows } = await this.client.page('contaminated', this.referencePage * PAGE_SIZE, PAGE_SIZE);
    const label = this.exact ? 'exact' : 'estimate';
    byId<HTMLTableElement>('reference-table').tBodies[0].replaceChildren(
      ...rows.map((r) =>
        row(
          [r.removedIds[0], r.reference ?? '', `${(r.similarity ?? 0).toFixed(3)} (${label})`, r.snippet],
          REFERENCE_LABELS,
          [false, false, true],
        ),
      ),
    );
    pager('reference', this.referencePage, pages, this.referenceTotal);
  }
}

function describeSimilarity(estimate: number, exact: number | undefined, verifiedExactly: boolean): string {
  if (verifiedExactly && exact !== undefined) return `${exact.toFixed(3)} exact (estimate ${estimate.toFixed(3)})`;
  return `${estimate.toFixed(3)} estimate`;
}

/** The pager's buttons for `page`; one that was pressed and disables itself hands the focus to the other. */
function pager(prefix: string, page: number, pages: number, total: number): void {
  byId(`${prefix}-page`).textContent = total === 0 ? '' : `Page ${page + 1} of ${pages}`;
  const previous = byId<HTMLButtonElement>(`${prefix}-prev`);
  const next = byId<HTMLButtonElement>(`${prefix}-next`);
  const focused = document.activeElement;
  previous.disabled = page === 0;
  next.disabled = page >= pages - 1;
  previous.parentElement!.hidden = pages <= 1;
  if (focused === previous && previous.disabled && !next.disabled) next.focus();
  if (focused === next && next.disabled && !previous.disabled) previous.focus();
}

function segments(parts: readonly Segment[]): Node[] {
  return parts.map((part) => {
    const element = document.createElement(part.shared ? 'mark' : 'span');
    element.className = part.shared ? 'shared' : 'unshared'; // the legend's classes (style.css)
    element.textContent = part.text;
    return element;
  });
}
