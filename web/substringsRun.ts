/**
 * The tab's repeated-span search (`gpudedup substrings`), in the dedup worker:
 * the files read through the tab's ports (webSources.ts, the first pass's
 * parser), the library's core (substringDocuments, src/substrings) in this
 * thread, then the files read again to make the downloads as the CLI writes
 * them: the documents with their spans cut (`-o x.jsonl`: an untouched line as
 * read, an edited one with only its text's value replaced, a dropped one
 * left out), the spans (`--spans x.csv`), the report and its page. The texts
 * are held in memory, so the files' text is refused past TAB_TEXT_LIMIT.
 */
import { utf8Length } from '../src/firstPass/documentBuilder.js';
import { unitDocuments, type UnitDocument } from '../src/firstPass/unitDocuments.js';
import type { UnitReadOptions } from '../src/firstPass/protocol.js';
import { documentAsJson, InputError } from '../src/io/documents.js';
import { withText } from '../src/io/jsonField.js';
import { substringsHtmlReport, type SubstringsReport } from '../src/formats/reports/substringsReport.js';
import { searchRepeatsHere } from '../src/substrings/searchRepeats.js';
import { SPAN_COLUMNS } from '../src/substrings/spans.js';
import { substringDocuments, type SubstringsResult } from '../src/substrings/substringDocuments.js';
import type { SpanDownloads, SpanSettings, SpanSummary, StageProgress } from './protocol.js';
import { BlobBuilder } from './workerOutputs.js';
import { BROWSER_SOURCES, webInputUnits } from './webSources.js';

/**
 * The most text (UTF-8) the tab searches: it holds every text as a string, the corpus's bytes, their marks and the
 * edited texts at once; past it, the CLI (which holds only the bytes, and uses every core) is the tool.
 */
export const TAB_TEXT_LIMIT = 256 * 1024 * 1024;
/** The search's tables per round (the CLI's --memory-limit): more text means more rounds, not more memory. */
export const TAB_SEARCH_MEMORY = 512 * 1024 * 1024;

type Report = (progress: StageProgress) => void;

export async function runSubstringsInTab(
  files: readonly File[],
  settings: SpanSettings,
  report: Report,
  textLimit = TAB_TEXT_LIMIT,
): Promise<{ summary: SpanSummary; downloads: SpanDownloads }> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  /** Each pass's seconds, under the names the CLI's report gives them. */
  const timed = async <T>(pass: 'read' | 'search' | 'write', work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const value = await work();
    timings[pass] = (performance.now() - t) / 1000;
    return value;
  };
  const read = readOptions(settings);
  const { documents, textBytes, skippedFiles, invalidSkipped, binarySkipped } = await timed('read', () =>
    readTexts(files, read, report, textLimit),
  );
  const onRound = (done: number, total: number): void => report({ stage: 'searching', done, total, unit: 'steps' });
  onRound(0, 1);
  const result = await timed('search', () =>
    substringDocuments(documents, { ...settings, memoryLimitBytes: TAB_SEARCH_MEMORY }, (corpus, options) =>
      searchRepeatsHere(corpus, options, { onRound }),
    ),
  );
  const { edited, spans } = await timed('write', async () => ({
    edited: await editedDocuments(files, read, result, settings.textField, report),
    spans: spansCsv(result),
  }));
  const substrings = spansReport(
    files,
    settings,
    result,
    { textBytes, invalidSkipped, binarySkipped },
    timings,
    started,
  );
  return {
    summary: { report: substrings, skippedFiles, invalidSkipped },
    downloads: {
      edited,
      spans,
      report: new Blob([JSON.stringify(substrings, null, 2) + '\n'], { type: 'application/json' }),
      reportHtml: new Blob([substringsHtmlReport(substrings)], { type: 'text/html' }),
    },
  };
}

function readOptions(settings: SpanSettings): UnitReadOptions {
  return { textField: settings.textField, idField: settings.idField, skipInvalid: settings.skipInvalid, strict: false };
}

const totalSize = (files: readonly File[]): number => files.reduce((sum, f) => sum + f.size, 0);

/** Every document's id and text, in input order; refused once the texts pass `textLimit` bytes of UTF-8. */
async function readTexts(files: readonly File[], read: UnitReadOptions, report: Report, textLimit: number) {
  const total = totalSize(files);
  const skippedFiles: string[] = [];
  const binarySkipped: string[] = [];
  let invalidSkipped = 0;
  const units = webInputUnits(
    files,
    (done) => report({ stage: 'reading', done, total, unit: 'bytes' }),
    (message, binaryFile) => {
      skippedFiles.push(message);
      if (binaryFile !== undefined) binarySkipped.push(binaryFile);
    },
  );
  const documents: { id: string; text: string }[] = [];
  let textBytes = 0;
  for await (const { id, text } of unitDocuments(units, read, BROWSER_SOURCES, () => invalidSkipped++)) {
    textBytes += utf8Length(text);
    if (textBytes > textLimit)
      throw new RangeError(
        `the files hold more than ${textLimit.toLocaleString('en-US')} bytes of text ` +
          `(${Math.round(textLimit / 2 ** 20)} MiB), more than this tab holds to search for repeated spans: run ` +
          'gpudedup substrings on them (it holds only their bytes and uses every core)',
      );
    documents.push({ id, text });
  }
  if (documents.length === 0) {
    const why = skippedFiles.length > 0 ? ` (${skippedFiles.join('; ')})` : '';
    throw new InputError(files.map((f) => f.name).join(', '), 0, `no documents to search${why}`);
  }
  return { documents, textBytes, skippedFiles, invalidSkipped, binarySkipped };
}

/** A JSON line as the CLI's reader holds it: its bytes decoded (a byte order mark kept past line 1), its end left out. */
const lineDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
function rawLineOf(document: UnitDocument): string | undefined {
  if (document.lineBytes === undefined) return undefined;
  return lineDecoder.decode(document.lineBytes).replace(/\r?\n$|\r$/, '');
}

/**
 * `gpudedup substrings -o x.jsonl`: the files read again, each document written as the CLI writes it (a JSON line's
 * bytes as they came in; a cut one with only its text's value replaced, jsonField.ts).
 */
async function editedDocuments(
  files: readonly File[],
  read: UnitReadOptions,
  result: SubstringsResult,
  textField: string,
  report: Report,
): Promise<Blob> {
  const out = new BlobBuilder('application/x-ndjson');
  const total = totalSize(files);
  const units = webInputUnits(files, (done) => report({ stage: 'writing', done, total, unit: 'bytes' }));
  let d = 0;
  for await (const document of unitDocuments(units, read, BROWSER_SOURCES)) {
    const edited = result.documents[d++];
    if (edited === undefined || edited.id !== document.id)
      throw new Error('the files changed between the two reads (other documents than before)');
    if (edited.dropped) continue;
    const line = { ...document, rawLine: rawLineOf(document) };
    const written = edited.touched ? withText(line, edited.text, textField) : line;
    // As the CLI writes it: the line's bytes as they came in (CRLF, invalid UTF-8), but for a cut text's value.
    if (written.lineBytes !== undefined) out.addBytes(written.lineBytes);
    else out.add(`${documentAsJson(written)}\n`);
  }
  if (d !== result.documents.length) throw new Error('the files changed between the two reads (fewer documents)');
  return out.finish();
}

/** `--spans x.csv`. */
function spansCsv(result: SubstringsResult): Blob {
  const csv = new BlobBuilder('text/csv');
  csv.row(SPAN_COLUMNS.map(([name]) => name));
  for (const s of result.spans) csv.row([s.id, s.start, s.end, s.firstId, s.firstStart]);
  return csv.finish();
}

/** `--report`'s fields for the tab's run (the inputs are the files' names). */
function spansReport(
  files: readonly File[],
  settings: SpanSettings,
  result: SubstringsResult,
  read: { textBytes: number; invalidSkipped: number; binarySkipped: string[] },
  timings: Record<string, number>,
  started: number,
): SubstringsReport {
  const { documents, spans } = result;
  const { textBytes, invalidSkipped, binarySkipped } = read;
  return {
    format: 'gpudedup-substrings-report-1',
    inputs: files.map((f) => f.name),
    minLength: settings.minLength,
    cut: settings.cut,
    minRemaining: settings.minRemaining,
    documents: documents.length,
    invalidSkipped,
    binarySkipped,
    textBytes,
    documentsTouched: documents.filter((d) => d.touched).length,
    documentsDropped: documents.filter((d) => d.dropped).length,
    bytesCut: documents.reduce((sum, d) => sum + d.bytesCut, 0),
    spans: spans.length,
    spanBytes: spans.reduce((sum, s) => sum + s.end - s.start, 0),
    search: { ...result.search, resumedRounds: 0 },
    topSpans: result.topSpans,
    seconds: (performance.now() - started) / 1000,
    timings,
  };
}
