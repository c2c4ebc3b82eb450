/**
 * The writing pass, in the worker: the downloads made as Blobs, chunk by
 * chunk (a Blob per few MiB, so the output never sits in the worker's heap as
 * one string): kept documents as `gpudedup dedup -o` writes them (their lines
 * copied by the byte ranges the first pass recorded: keptDownload.ts), every
 * document's cluster (`--clusters`), the verified pairs (`--pairs`), the
 * reference matches (`--contamination`), the report (`--report`, same
 * fields) and its page (`--report-html`), and the signatures (`gpudedup
 * sign`'s .npy). The same tables as snappy Parquet (the CLI's `*.parquet`
 * outputs) are made only when one is asked for (parquetDownload), as the CLI
 * writes only the outputs it is given. The same pass keeps, for the
 * inspector, the texts of the documents that are in a cluster of two or more
 * or matched the reference set, up to a budget.
 */
import type { DedupDocumentsResult } from '../src/dedup/dedupDocuments.js';
import {
  CLUSTER_COLUMNS,
  CONTAMINATION_COLUMNS,
  clusterRow,
  contaminationRow,
  pairColumns,
  pairRow,
} from '../src/dedup/outputRows.js';
import type { OutputColumn } from '../src/dedup/outputRows.js';
import { documentAsJson } from '../src/io/documents.js';
import { csvCell, type Cell } from '../src/formats/files/csv.js';
import { buildReport } from '../src/formats/reports/dedupReport.js';
import { htmlReport } from '../src/formats/reports/htmlReport.js';
import { largestClusters, showClusters } from '../src/clusters/largestClusters.js';
import { similarityHistogramSvg, verifiedPairsHistogram } from '../src/plots/histogram.js';
import { sCurveSvg } from '../src/plots/sCurve.js';
import { shingleOptionsOf } from '../src/signatures/params.js';
import { ParquetTableBuffer } from '../src/formats/parquet/parquetBuffer.js';
import { TABLE_ROW_GROUP } from '../src/formats/parquet/parquetSchema.js';
import type { SignatureParams } from '../src/signatures/params.js';
import type { Downloads, ParquetTable, RunSettings } from './protocol.js';
import { keptParquet, wantedDocuments, type CorpusSource } from './keptDownload.js';
import { signaturesNpy } from './signaturesNpy.js';

/**
 * UTF-16 code units of texts the inspector may keep (≈ 512 MiB); beyond it, documents are listed without their text.
 */
export const INSPECTOR_TEXT_BUDGET = 256 * 1024 * 1024;
const CHUNK = 4 * 1024 * 1024;

/** Text accumulated into Blob parts of about CHUNK characters. */
export class BlobBuilder {
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
  /**
   * When the writing pass began: the report's `writing` seconds, as the CLI's (its outputs written before the report).
   */
  readonly writingStarted?: number;
}

/**
 * The downloads but the Parquet ones, and the inspector's texts; `onBytes` gets the bytes of the corpus read so far.
 */
export async function writeDownloads(run: RunRecord, onBytes?: (done: number) => void) {
  const { result, ids } = run;
  const { assignment, contamination } = result;
  const { texts, textsDropped, kept } = await readCorpus(run, onBytes);
  const clusters = csvTable(run, 'clusters');
  const pairs = csvTable(run, 'pairs');
  const reportFields = buildWebReport(run);
  const report = new Blob([JSON.stringify(reportFields, null, 2) + '\n'], { type: 'application/json' });
  // The page `--report-html` writes, its clusters' texts from the inspector's (those past its budget are shown without
  // a diff).
  const shown = showClusters(
    largestClusters(assignment, result.table),
    result.table,
    (doc) => ids[doc],
    (doc) => texts.get(doc),
    shingleOptionsOf(run.params),
  );
  const histogram = similarityHistogramSvg(verifiedPairsHistogram(result.verified, run.settings.threshold));
  const page = htmlReport({
    report: reportFields,
    sCurveSvg: sCurveSvg({ ...result.lsh, threshold: run.settings.threshold }),
    histogramSvg: histogram,
    clusters: shown,
  });
  const downloads: Downloads = {
    kept,
    clusters,
    pairs,
    report,
    reportHtml: new Blob([page], { type: 'text/html' }),
    signatures: signaturesNpy(result.table, result.signatures, run.params),
    contamination: contamination === undefined ? undefined : csvTable(run, 'contamination'),
  };
  return { downloads, texts, textsDropped };
}

/**
 * The kept documents' download and the inspector's texts, from one pass over the corpus that visits only those
 * documents.
 */
async function readCorpus(run: RunRecord, onBytes?: (done: number) => void) {
  const { assignment } = run.result;
  const sizes = new Uint32Array(assignment.counts.clusters);
  for (const c of assignment.cluster) sizes[c]++;
  const wantsText = (d: number): boolean => sizes[assignment.cluster[d]] > 1 || matchedReference(run.result, d);
  const kept = new BlobBuilder('application/x-ndjson');
  const texts = new Map<number, string>();
  let budget = INSPECTOR_TEXT_BUDGET;
  let textsDropped = 0;
  const wanted = (d: number): boolean => assignment.kept[d] === 1 || wantsText(d);
  for await (const doc of wantedDocuments(corpusSource(run), wanted, onBytes)) {
    const { d } = doc;
    // A kept JSON line as it came in (its bytes, invalid UTF-8 and CRLF included), as the CLI writes it.
    if (assignment.kept[d] === 1) {
      if (doc.lineBytes !== undefined) kept.addBytes(doc.lineBytes);
      else kept.add(documentAsJson(doc.document()) + '\n');
    }
    if (!wantsText(d)) continue;
    const { text } = doc.document();
    if (text.length <= budget) {
      texts.set(d, text);
      budget -= text.length;
    } else textsDropped++;
  }
  return { kept: kept.finish(), texts, textsDropped };
}

function matchedReference(result: DedupDocumentsResult, d: number): boolean {
  const g = result.table.group(d);
  return result.contamination !== undefined && g >= 0 && result.contamination.match[g] >= 0;
}

function corpusSource(run: RunRecord): CorpusSource {
  return { files: run.files, records: run.result.records, ids: run.ids, read: run.settings };
}

/** The tables built from the result alone, without reading the corpus. */
type RowTable = Exclude<ParquetTable, 'kept'>;

/** A table's columns and rows, in the CLI's order (src/dedup/outputRows.ts). */
function tableRows(run: RunRecord, name: RowTable): { columns: readonly OutputColumn[]; rows: Iterable<Cell[]> } {
  const { result, ids } = run;
  if (name === 'pairs') return { columns: pairColumns(result.verified), rows: pairRows(result, ids) };
  const columns = name === 'clusters' ? CLUSTER_COLUMNS : CONTAMINATION_COLUMNS;
  function* rows(): Generator<Cell[]> {
    for (let d = 0; d < ids.length; d++) {
      const row = name === 'clusters' ? clusterRow(result, d, ids[d]) : contaminationRow(result, d, ids[d]);
      if (row !== undefined) yield row;
    }
  }
  return { columns, rows: rows() };
}

/** Pairs are over exact groups, each named by its first document. */
function* pairRows({ table, verified }: DedupDocumentsResult, ids: readonly string[]): Generator<Cell[]> {
  const firstOf = new Int32Array(table.groups).fill(-1);
  for (let doc = 0; doc < table.documents; doc++) {
    const g = table.group(doc);
    if (g >= 0 && firstOf[g] < 0) firstOf[g] = doc;
  }
  for (let i = 0; i < verified.a.length; i++) yield pairRow(verified, i, (g) => ids[firstOf[g]]);
}

function csvTable(run: RunRecord, name: RowTable): Blob {
  const { columns, rows } = tableRows(run, name);
  const csv = new BlobBuilder('text/csv');
  csv.row(columns.map(([column]) => column));
  for (const row of rows) csv.row(row);
  return csv.finish();
}

/** A table as snappy Parquet (the CLI's `--clusters x.parquet`, `-o kept.parquet`, …), made when it is asked for. */
export async function parquetDownload(run: RunRecord, name: ParquetTable): Promise<Blob> {
  if (name === 'kept') return keptParquet(corpusSource(run), run.result.assignment.kept);
  if (name === 'contamination' && run.result.contamination === undefined) {
    throw new Error('this run had no reference set');
  }
  const { columns, rows } = tableRows(run, name);
  const parquet = new ParquetTableBuffer(columns, TABLE_ROW_GROUP);
  for (const row of rows) parquet.row(row);
  return new Blob(parquet.finish() as BlobPart[], { type: 'application/vnd.apache.parquet' });
}

/** The CLI's report fields (src/pipeline/shared/report.ts: format gpudedup-dedup-report, version 1), from the tab. */
/** The CLI's report (`--report`), from the app's run. */
export function buildWebReport(run: RunRecord) {
  const { result, settings } = run;
  const config = {
    ...settings,
    inputs: run.files.map((f) => f.name),
    against: run.reference.map((f) => f.name),
    params: run.params,
    lsh: result.lsh,
  };
  const outcome = { ...result, invalidSkipped: run.invalidSkipped, binarySkipped: [], backend: run.backend };
  const writing =
    run.writingStarted === undefined ? [] : [['writing', performance.now() - run.writingStarted] as const];
  return buildReport(
    config,
    outcome,
    Object.fromEntries([...run.timings.map((t) => [t.stage, t.ms] as const), ...writing]),
  );
}
