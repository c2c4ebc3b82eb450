/**
 * The writing pass, in the worker: the corpus is read a second time and the
 * downloads are made as Blobs, chunk by chunk (a Blob per few MiB, so the
 * output never sits in the worker's heap as one string): kept documents as
 * `gpudedup dedup -o` writes them, every document's cluster (`--clusters`), the
 * verified pairs (`--pairs`), the reference matches (`--contamination`) and the
 * report (`--report`, same fields). The same pass keeps, for the inspector, the
 * texts of the documents that are in a cluster of two or more or matched the
 * reference set, up to a budget.
 */
import type { DedupDocumentsResult } from '../src/clusters/dedupDocuments.js';
import { documentAsJson } from '../src/io/documents.js';
import { csvCell, type Cell } from '../src/formats/csv.js';
import { buildReport } from '../src/formats/dedupReport.js';
import type { SignatureParams } from '../src/signatures/params.js';
import type { Downloads, RunSettings } from './protocol.js';
import type { WebDocument } from './readers.js';

/** UTF-16 code units of texts the inspector may keep (≈ 512 MiB); beyond it, documents are listed without their text. */
export const INSPECTOR_TEXT_BUDGET = 256 * 1024 * 1024;
const CHUNK = 4 * 1024 * 1024;

/** Text accumulated into Blob parts of about CHUNK characters. */
class BlobBuilder {
  private readonly parts: Blob[] = [];
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(private readonly type: string) {}

  add(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= CHUNK) this.flush();
  }

  row(cells: readonly Cell[]): void {
    this.add(cells.map(csvCell).join(',') + '\n');
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.parts.push(new Blob(this.pending));
    this.pending = [];
    this.pendingLength = 0;
  }

  finish(): Blob {
    this.flush();
    return new Blob(this.parts, { type: this.type });
  }
}

/** Six decimals, as the CLI writes similarities. */
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

export interface RunRecord {
  readonly files: readonly File[];
  readonly reference: readonly File[];
  readonly settings: RunSettings;
  readonly params: SignatureParams;
  readonly result: DedupDocumentsResult;
  readonly ids: readonly string[];
  readonly backend: string;
  readonly timings: readonly { stage: string; ms: number }[];
  readonly invalidSkipped: number;
}

export async function writeDownloads(documents: AsyncIterable<WebDocument>, run: RunRecord) {
  const { result, ids } = run;
  const { assignment, table, verified, contamination } = result;
  const kept = new BlobBuilder('application/x-ndjson');
  const clusters = new BlobBuilder('text/csv');
  clusters.row(['id', 'cluster', 'kept']);
  const matched = contamination === undefined ? undefined : new BlobBuilder('text/csv');
  matched?.row(['id', 'reference', 'similarity', 'estimate']);
  const sizes = new Uint32Array(assignment.counts.clusters);
  for (const c of assignment.cluster) sizes[c]++;
  const texts = new Map<number, string>();
  let budget = INSPECTOR_TEXT_BUDGET;
  let textsDropped = 0;
  let d = 0;
  for await (const doc of documents) {
    if (d >= ids.length || doc.id !== ids[d]) throw new Error(`the files changed while they were deduplicated (document ${d + 1})`);
    const isKept = assignment.kept[d] === 1;
    if (isKept) kept.add(documentAsJson(doc) + '\n');
    clusters.row([doc.id, assignment.cluster[d], isKept]);
    const g = table.group(d);
    const isMatched = contamination !== undefined && g >= 0 && contamination.match[g] >= 0;
    if (isMatched) matched!.row([doc.id, contamination.referenceIds[contamination.match[g]], round(contamination.similarity[g]), round(contamination.estimate[g])]);
    if (sizes[assignment.cluster[d]] > 1 || isMatched) {
      if (doc.text.length <= budget) {
        texts.set(d, doc.text);
        budget -= doc.text.length;
      } else textsDropped++;
    }
    d++;
  }
  if (d !== ids.length) throw new Error(`the files changed while they were deduplicated: ${d} documents, not ${ids.length}`);

  // Pairs are over exact groups, each named by its first document.
  const firstOf = new Int32Array(table.groups).fill(-1);
  for (let doc = 0; doc < table.documents; doc++) {
    const g = table.group(doc);
    if (g >= 0 && firstOf[g] < 0) firstOf[g] = doc;
  }
  const pairs = new BlobBuilder('text/csv');
  pairs.row(verified.exact === undefined ? ['id_a', 'id_b', 'estimate'] : ['id_a', 'id_b', 'estimate', 'exact']);
  for (let i = 0; i < verified.a.length; i++) {
    const row: Cell[] = [ids[firstOf[verified.a[i]]], ids[firstOf[verified.b[i]]], round(verified.estimate[i])];
    if (verified.exact !== undefined) row.push(Number.isNaN(verified.exact[i]) ? null : round(verified.exact[i])); // hybrid: empty where the estimate decided, as the CLI writes it
    pairs.row(row);
  }
  const report = new Blob([JSON.stringify(buildWebReport(run), null, 2) + '\n'], { type: 'application/json' });
  const downloads: Downloads = { kept: kept.finish(), clusters: clusters.finish(), pairs: pairs.finish(), report, contamination: matched?.finish() };
  return { downloads, texts, textsDropped };
}

/** The CLI's report fields (src/pipeline/report.ts: format gpudedup-dedup-report, version 1), from the tab. */
/** The CLI's report (`--report`), from the app's run. */
export function buildWebReport(run: RunRecord) {
  const { result, settings } = run;
  const config = { ...settings, inputs: run.files.map((f) => f.name), against: run.reference.map((f) => f.name), params: run.params, lsh: result.lsh };
  const outcome = { ...result, invalidSkipped: run.invalidSkipped, binarySkipped: [], backend: run.backend };
  return buildReport(config, outcome, Object.fromEntries(run.timings.map((t) => [t.stage, t.ms])));
}
