/**
 * `gpudedup substrings CORPUS --against EVAL… --min-tokens N` (issue 32, item
 * 4): n-gram decontamination. Every corpus document that shares a span of N or
 * more normalized tokens (word shingles' tokens) with a reference document is
 * reported (`--contamination FILE`: one row per span, with both documents'
 * ids, the span's text and its byte offsets in both texts' UTF-8) and, by
 * `--action`, removed (the default), cut (its spans taken out; a document left
 * with fewer than --min-remaining bytes is dropped) or only reported. Each
 * reference file is one benchmark: the summary and `--report` count the
 * documents and spans per file.
 *
 * The references are held in memory (benchmarks are small: 64-bit keys for
 * their windows and their tokens, src/substrings/ngramOverlap.ts); the corpus
 * streams through, one document at a time.
 */
import { openKeptDocuments, checkKeptOutput, writeAsRead, type KeptDocuments } from '../../formats/keptDocuments.js';
import { openTable, type RowTable, type TableColumn } from '../../formats/openTable.js';
import { InputError, type InputDocument } from '../../io/documents.js';
import { listInputFiles, readDocuments, totalInputBytes, type InputFile } from '../../io/readDocuments.js';
import { NgramDecontaminator, cutSpans, type ContaminatedSpan } from '../../substrings/ngramDecontamination.js';
import {
  refuseAllSkipped,
  SILENT_HOOKS,
  skippedInputCounter,
  withProgress,
  type DedupHooks,
} from '../shared/config.js';
import { checkOutputs, refuseSelfReference, type NamedOutput } from '../shared/outputChecks.js';
import { withText } from '../../io/jsonField.js';
import { droppedAfterCut } from '../../substrings/cuts.js';
import { benchmarkCounts, referencesPerFile, writeContaminationReport } from './contaminationReport.js';
import type { BenchmarkCount, DecontaminateConfig, DecontaminateSummary, ReferenceSet } from './contaminationConfig.js';

export type { DecontaminateConfig, DecontaminateSummary } from './contaminationConfig.js';

export const CONTAMINATION_COLUMNS: readonly TableColumn[] = [
  ['id', 'STRING'],
  ['reference', 'STRING'],
  ['benchmark', 'STRING'],
  ['start', 'INT64'],
  ['end', 'INT64'],
  ['reference_start', 'INT64'],
  ['reference_end', 'INT64'],
  ['tokens', 'INT64'],
  ['span', 'STRING'],
];

export interface DecontaminateInputs {
  readonly corpus: InputFile[];
  readonly references: InputFile[];
}

/** Everything refused before any work: options, missing inputs, outputs that would overwrite an input. */
export async function decontaminatePreflight(config: DecontaminateConfig): Promise<DecontaminateInputs> {
  if (config.against.length === 0) throw new RangeError('--against needs at least one reference file');
  if (config.action !== 'report' && config.out === undefined)
    throw new RangeError(`--action ${config.action} needs -o FILE (where the corpus goes after it)`);
  const corpus = await listInputFiles(config.inputs);
  const references = await listInputFiles(config.against);
  const outputs: NamedOutput[] = [
    ...(config.out === undefined ? [] : [{ flag: '-o', path: config.out }]),
    ...(config.contamination === undefined ? [] : [{ flag: '--contamination', path: config.contamination }]),
    ...(config.report === undefined ? [] : [{ flag: '--report', path: config.report }]),
  ];
  await checkOutputs(outputs, [
    ...corpus.map((f) => ({ path: f.path })),
    ...references.map((f) => ({ path: f.path, role: '--against' })),
  ]);
  await refuseSelfReference(corpus, references);
  if (config.out !== undefined) await checkKeptOutput(config.out, corpus);
  return { corpus, references };
}

/** Reads every reference document into the decontaminator; refuses a reference file without documents. */
async function loadReferences(
  files: readonly InputFile[],
  config: DecontaminateConfig,
  hooks: DedupHooks,
): Promise<ReferenceSet> {
  const decontaminator = new NgramDecontaminator(config.minTokens, config.normalize);
  const set: ReferenceSet = { decontaminator, ids: [], benchmarkOf: [], files: files.map((f) => f.path) };
  const fileIndex = new Map(files.map((f, i) => [f.path, i]));
  await withProgress(hooks, 'references', totalInputBytes(files), 'bytes', async (progress) => {
    let bytes = 0;
    for await (const doc of readDocuments(files, { ...config.read, onBytes: (n) => (bytes = n) })) {
      decontaminator.addReference(doc.text);
      set.ids.push(doc.id);
      set.benchmarkOf.push(fileIndex.get(doc.source.path) ?? -1); // always found: the reader names the file it reads
      progress.update(set.ids.length, bytes);
    }
  });
  const empty = referencesPerFile(set).indexOf(0);
  if (empty >= 0)
    throw new InputError(
      files[empty].path,
      0,
      'no reference documents (--against needs at least one document per file)',
    );
  return set;
}

interface Writers {
  readonly kept?: KeptDocuments;
  readonly table?: RowTable;
}

export async function decontaminate(
  config: DecontaminateConfig,
  inputs: DecontaminateInputs,
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<DecontaminateSummary> {
  const started = performance.now();
  const references = await loadReferences(inputs.references, config, hooks);
  const summary: DecontaminateSummary = {
    documents: 0,
    contaminated: 0,
    removed: 0,
    cut: 0,
    bytesCut: 0,
    spans: 0,
    referenceDocuments: references.ids.length,
    benchmarks: benchmarkCounts(references),
    seconds: 0,
    invalidSkipped: 0,
    binarySkipped: [],
  };
  const writers: Writers = {
    kept:
      config.out === undefined
        ? undefined
        : await openKeptDocuments(config.out, inputs.corpus, config.parquetCompression),
    table:
      config.contamination === undefined
        ? undefined
        : await openTable(config.contamination, CONTAMINATION_COLUMNS, config.parquetCompression),
  };
  try {
    await withProgress(hooks, 'scanning', totalInputBytes(inputs.corpus), 'bytes', async (progress) => {
      let bytes = 0;
      const skipped = skippedInputCounter(hooks, config.read);
      const { onInvalid, onBinary } = skipped;
      for await (const doc of readDocuments(inputs.corpus, {
        ...config.read,
        onInvalid,
        onBinary,
        onBytes: (n) => (bytes = n),
        lineBytes: true, // a document kept or cut is written as it came in, but for its text's value
      })) {
        await scanDocument(doc, references, config, summary, writers);
        progress.update(summary.documents, bytes);
      }
      summary.invalidSkipped = skipped.skipped;
      summary.binarySkipped = skipped.binaryFiles;
      refuseAllSkipped(summary.documents, skipped); // before any output: they would all be empty
    });
    summary.seconds = (performance.now() - started) / 1000;
    if (config.report !== undefined) await writeContaminationReport(config.report, config, summary);
    await writers.table?.commit();
    await writers.kept?.commit();
  } catch (error) {
    await writers.table?.abort();
    await writers.kept?.abort();
    throw error;
  }
  return summary;
}

async function scanDocument(
  doc: InputDocument,
  references: ReferenceSet,
  config: DecontaminateConfig,
  summary: DecontaminateSummary,
  writers: Writers,
): Promise<void> {
  summary.documents++;
  const spans = references.decontaminator.spansOf(doc.text);
  if (spans.length > 0) {
    summary.contaminated++;
    summary.spans += spans.length;
    countBenchmarks(spans, references, summary.benchmarks);
    if (writers.table) for (const span of spans) await writers.table.row(contaminationRow(doc, span, references));
  }
  if (!writers.kept) return;
  if (spans.length === 0 || config.action === 'report') return writeAsRead(writers.kept, doc);
  if (config.action === 'remove') {
    summary.removed++;
    return;
  }
  const { text, removed } = cutSpans(doc.text, spans);
  summary.bytesCut += removed;
  if (droppedAfterCut(text, Buffer.byteLength(doc.text) - removed, config.minRemaining, config.normalize)) {
    summary.removed++;
    return;
  }
  summary.cut++;
  await writeAsRead(writers.kept, withText(doc, text, config.read.textField));
}

function contaminationRow(doc: InputDocument, span: ContaminatedSpan, references: ReferenceSet): (string | number)[] {
  const benchmark = references.files[references.benchmarkOf[span.reference]];
  return [
    doc.id,
    references.ids[span.reference],
    benchmark,
    span.start,
    span.end,
    span.referenceStart,
    span.referenceEnd,
    span.tokens,
    span.text,
  ];
}

/** Per benchmark file: the documents it contaminates (once each), its spans, and its references seen in the corpus. */
function countBenchmarks(spans: readonly ContaminatedSpan[], references: ReferenceSet, counts: BenchmarkCount[]): void {
  const touched = new Set<number>();
  for (const span of spans) {
    const benchmark = references.benchmarkOf[span.reference];
    counts[benchmark].spans++;
    touched.add(benchmark);
    counts[benchmark].referencesFound.add(span.reference);
  }
  for (const benchmark of touched) counts[benchmark].documents++;
}
