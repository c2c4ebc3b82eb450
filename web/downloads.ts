/** The run's outputs as files made in the tab (Blob + object URL): nothing is sent anywhere. */
import { csvCell } from '../src/formats/csv.js';
import type { Assignment } from '../src/clusters/assignment.js';
import type { WebDocument } from './readFiles.js';

/** Kept documents, one JSON object a line: JSONL input verbatim, plain-text files as {"id", "text"}. */
export function keptJsonl(documents: readonly WebDocument[], result: Assignment): string {
  const lines: string[] = [];
  documents.forEach((doc, d) => {
    if (result.kept[d] === 1) lines.push(doc.rawLine ?? JSON.stringify({ id: doc.id, text: doc.text }));
  });
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** One row per input document, as `gpudedup dedup --clusters` writes it: id, cluster number, kept (true/false). */
export function clustersCsv(documents: readonly WebDocument[], result: Assignment): string {
  const rows = ['id,cluster,kept'];
  documents.forEach((doc, d) => rows.push([doc.id, result.cluster[d], result.kept[d] === 1].map(csvCell).join(',')));
  return `${rows.join('\n')}\n`;
}

export function clusterSizes(cluster: Uint32Array, clusters: number): Uint32Array {
  const sizes = new Uint32Array(clusters);
  for (const c of cluster) sizes[c]++;
  return sizes;
}

/** Points a download link at new content, releasing the object URL it pointed at before. */
export function setDownload(link: HTMLAnchorElement, content: string, type: string, bytesLabel: HTMLElement): void {
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  const blob = new Blob([content], { type });
  link.href = URL.createObjectURL(blob);
  bytesLabel.textContent = formatBytes(blob.size);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
