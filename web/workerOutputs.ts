/**
 * The writing pass, in the worker: the corpus is read a second time and the
 * downloads are made as Blobs, chunk by chunk (a Blob per few MiB, so the
 * output never sits in the worker's heap as one string): kept documents as
 * `gpudedup dedup -o` writes them, every document's cluster (`--clusters`), the
 * verified pairs (`--pairs`), the reference matches (`--contamination`) and the
 * report (`--report`, same fields) and its page (`--report-html`), the signatures (`gpudedup sign`'s .npy), and the same tables as snappy Parquet (the
 * CLI's `*.parquet` outputs: parquetSchema.ts; kept documents with the columns
 * inferred from the fields, staged as JSON lines in a Blob and read back once
 * the columns are known). The same pass keeps, for the inspector, the
 * texts of the documents that are in a cluster of two or more or matched the
 * reference set, up to a budget.
 */
import type { DedupDocumentsResult } from '../src/dedup/dedupDocuments.js';
import { CLUSTER_COLUMNS, CONTAMINATION_COLUMNS, clusterRow, contaminationRow, pairColumns, pairRow } from '../src/dedup/outputRows.js';
import { documentAsJson } from '../src/io/documents.js';
import { csvCell, type Cell } from '../src/formats/files/csv.js';
import { buildReport } from '../src/formats/reports/dedupReport.js';
import { htmlReport } from '../src/formats/reports/htmlReport.js';
import { largestClusters, showClusters } from '../src/clusters/largestClusters.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../src/plots/histogram.js';
import { sCurveSvg } from '../src/plots/sCurve.js';
import { shingleOptionsOf } from '../src/signatures/params.js';
import { ParquetBuffer, ParquetTableBuffer } from '../src/formats/parquet/parquetBuffer.js';
import { flatSchema, KEPT_ROW_GROUP_ROWS, KEPT_ROW_GROUP_TEXT, KeptSchemaInference, TABLE_ROW_GROUP, type ScalarType } from '../src/formats/parquet/parquetSchema.js';
import type { SignatureParams } from '../src/signatures/params.js';
import type { Downloads, RunSettings } from './protocol.js';
import { signaturesNpy } from './signaturesNpy.js';
import type { UnitDocument } from '../src/firstPass/unitDocuments.js';

/** UTF-16 code units of texts the inspector may keep (≈ 512 MiB); beyond it, documents are listed without their text. */
export const INSPECTOR_TEXT_BUDGET = 256 * 1024 * 1024;
const CHUNK = 4 * 1024 * 1024;

/** Text accumulated into Blob parts of about CHUNK characters. */
class BlobBuilder {
  private readonly parts: Blob[] = [];
  private pending: (string | Uint8Array)[] = [];
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

  /** Bytes as they are; a line without its end gets one. */
  addBytes(bytes: Uint8Array): void {
    this.pending.push(bytes);
    this.pendingLength += bytes.length;
    if (bytes[bytes.length - 1] !== 0x0a) this.add('\n');
    else if (this.pendingLength >= CHUNK) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.parts.push(new Blob(this.pending as BlobPart[]));
    this.pending = [];
    this.pendingLength = 0;
  }

  finish(): Blob {
    this.flush();
    return new Blob(this.parts, { type: this.type });
  }
}

const PARQUET = 'application/vnd.apache.parquet';

/** A table written both as CSV and as Parquet (the CLI's `--clusters x.csv` / `x.parquet`). */
class Table {
  readonly csv = new BlobBuilder('text/csv');
  private readonly parquet: ParquetTableBuffer;

  constructor(columns: readonly (readonly [string, ScalarType])[]) {
    this.csv.row(columns.map(([name]) => name));
    this.parquet = new ParquetTableBuffer(columns, TABLE_ROW_GROUP);
  }

  row(cells: readonly Cell[]): void {
    this.csv.row(cells);
    this.parquet.row(cells);
  }

  parquetBlob(): Blob {
    return new Blob(this.parquet.finish() as BlobPart[], { type: PARQUET });
  }
}

/** The kept documents as Parquet: the staged JSON lines read back once their columns are known. */
async function keptParquet(staged: Blob, inference: KeptSchemaInference): Promise<Blob> {
  const columns = inference.columns();
  const file = new ParquetBuffer(flatSchema(columns), KEPT_ROW_GROUP_ROWS, KEPT_ROW_GROUP_TEXT);
  for await (const line of blobLines(staged)) {
    const { values, textLength } = KeptSchemaInference.values(line, columns);
    file.add(values, textLength);
  }
  return new Blob(file.finish() as BlobPart[], { type: PARQUET });
}

/** A Blob's lines (the staged lines are JSON: no newline inside one). */
async function* blobLines(blob: Blob): AsyncGenerator<string> {
  const reader = blob.stream().pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (rest + value).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest !== '') yield rest;
}

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

export async function writeDownloads(documents: AsyncIterable<UnitDocument>, run: RunRecord) {
  const { result, ids } = run;
  const { assignment, table, verified, contamination } = result;
  const kept = new BlobBuilder('application/x-ndjson');
  const keptColumns = new KeptSchemaInference();
  const keptStaged = new BlobBuilder('application/x-ndjson');
  const clusters = new Table(CLUSTER_COLUMNS);
  const matched = contamination === undefined ? undefined : new Table(CONTAMINATION_COLUMNS);
  const sizes = new Uint32Array(assignment.counts.clusters);
  for (const c of assignment.cluster) sizes[c]++;
  const texts = new Map<number, string>();
  let budget = INSPECTOR_TEXT_BUDGET;
  let textsDropped = 0;
  let d = 0;
  for await (const doc of documents) {
    if (d >= ids.length || doc.id !== ids[d]) throw new Error(`the files changed while they were deduplicated (document ${d + 1})`);
    const isKept = assignment.kept[d] === 1;
    if (isKept) {
      // A kept JSON line as it came in (its bytes, invalid UTF-8 and CRLF included), as the CLI writes it.
      if (doc.lineBytes !== undefined) kept.addBytes(doc.lineBytes);
      else kept.add(documentAsJson(doc) + '\n');
      keptStaged.add(keptColumns.stage(doc) + '\n');
    }
    clusters.row(clusterRow(result, d, doc.id));
    const matchRow = contaminationRow(result, d, doc.id);
    const isMatched = matchRow !== undefined;
    if (isMatched) matched!.row(matchRow);
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
  const pairs = new Table(pairColumns(verified));
  for (let i = 0; i < verified.a.length; i++) pairs.row(pairRow(verified, i, (g) => ids[firstOf[g]]));
  const reportFields = buildWebReport(run);
  const report = new Blob([JSON.stringify(reportFields, null, 2) + '\n'], { type: 'application/json' });
  // The page `--report-html` writes, its clusters' texts from the inspector's (those past its budget are shown without a diff).
  const shown = showClusters(largestClusters(assignment, table), table, (doc) => ids[doc], (doc) => texts.get(doc), shingleOptionsOf(run.params));
  const histogram = similarityHistogramSvg(verifiedPairsHistogram(verified, run.settings.threshold));
  const page = htmlReport({ report: reportFields, sCurveSvg: sCurveSvg({ ...result.lsh, threshold: run.settings.threshold }), histogramSvg: histogram, clusters: shown });
  const reportHtml = new Blob([page], { type: 'text/html' });
  const downloads: Downloads = {
    kept: kept.finish(),
    clusters: clusters.csv.finish(),
    pairs: pairs.csv.finish(),
    report,
    reportHtml,
    signatures: signaturesNpy(table, result.signatures, run.params),
    contamination: matched?.csv.finish(),
    parquet: {
      kept: await keptParquet(keptStaged.finish(), keptColumns),
      clusters: clusters.parquetBlob(),
      pairs: pairs.parquetBlob(),
      contamination: matched?.parquetBlob(),
    },
  };
  return { downloads, texts, textsDropped };
}

/** The CLI's report fields (src/pipeline/shared/report.ts: format gpudedup-dedup-report, version 1), from the tab. */
/** The CLI's report (`--report`), from the app's run. */
export function buildWebReport(run: RunRecord) {
  const { result, settings } = run;
  const config = { ...settings, inputs: run.files.map((f) => f.name), against: run.reference.map((f) => f.name), params: run.params, lsh: result.lsh };
  const outcome = { ...result, invalidSkipped: run.invalidSkipped, binarySkipped: [], backend: run.backend };
  return buildReport(config, outcome, Object.fromEntries(run.timings.map((t) => [t.stage, t.ms])));
}
