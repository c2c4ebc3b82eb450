/**
 * `gpudedup substrings`: the corpus read once into memory (its texts' UTF-8),
 * every repeated span of at least minLength bytes found exactly (src/substrings)
 * on every core (or of minTokens normalized tokens, in one thread), then the
 * corpus read again to write the documents with their spans cut; the spans
 * table and the report beside.
 */
import { listInputFiles, totalInputBytes, type InputFile } from '../../io/readDocuments.js';
import { checkKeptOutput, openKeptDocuments } from '../../formats/keptDocuments.js';
import { openTable, type RowTable } from '../../formats/openTable.js';
import { writeTextFile } from '../../formats/files/textFile.js';
import { substringsHtmlReport } from '../../formats/reports/substringsReport.js';
import { windowCount, type CorpusText } from '../../substrings/corpusText.js';
import { keySlices, searchRepeatsHere, type SearchOptions, type SearchStats } from '../../substrings/searchRepeats.js';
import { searchRepeatsInWorkers } from '../../substrings/repeatWorkers.js';
import { SPAN_COLUMNS, spanRow, type SpanColumns } from '../../substrings/spans.js';
import { namedTopSpans } from '../../substrings/topSpans.js';
import { TokenCorpusBuilder } from '../../substrings/tokenCorpus.js';
import { doublingPasses, searchTokenRepeats } from '../../substrings/tokenRepeats.js';
import { checkOutputs } from '../shared/outputChecks.js';
import { spoolStreams } from '../shared/spool.js';
import { runThreads, withProgress, type DedupHooks } from '../shared/config.js';
import type { SubstringsConfig, SubstringsReport } from './config.js';
import { readCorpus } from './readCorpus.js';
import { checkpointPath, openCheckpoint, type SearchCheckpoint } from './checkpoint.js';
import { onInterrupt } from '../../formats/files/temporaries.js';
import { planCuts, writeEdited, type DocumentCut } from './writeEdited.js';
import { DEFAULT_NORMALIZE } from '../../text/normalize.js';

/** A checkpoint at most this often: writing one costs an eighth of the text's size. */
const CHECKPOINT_SECONDS = 30;

/** Below this much text the workers cost more than they save. */
const WORKER_MIN_BYTES = 1 << 22;

export async function runSubstrings(config: SubstringsConfig, hooks: DedupHooks): Promise<SubstringsReport> {
  return substringsOf(await checkSubstringsRun(config, hooks), config, hooks);
}

/**
 * The passes of `substrings` over files already listed and checked: `gpudedup substrings`, and `dedup --substrings`
 * on its kept documents (src/pipeline/dedupSubstrings).
 */
export async function substringsOf(
  files: readonly InputFile[],
  config: SubstringsConfig,
  hooks: DedupHooks,
): Promise<SubstringsReport> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await work();
    } finally {
      timings[name] = (performance.now() - t) / 1000;
    }
  };
  const threads = runThreads(config.threads, totalInputBytes(files));
  const minTokens = config.minTokens;
  const tokenBuilder = minTokens === undefined ? undefined : new TokenCorpusBuilder(config.normalize);
  const { corpus, ids, tokens, invalidSkipped, binarySkipped } = await timed('read', () =>
    withProgress(hooks, 'reading', undefined, 'bytes', (p) =>
      readCorpus(files, config.read, threads > 1 && tokenBuilder === undefined, p, hooks, tokenBuilder),
    ),
  );
  const { spans, stats, checkpoint }: Searched =
    tokens !== undefined && minTokens !== undefined
      ? await timed('search', () =>
          withProgress(hooks, 'searching', doublingPasses(minTokens), 'items', (p) =>
            searchTokenRepeats(tokens, { minTokens, cut: config.cut }, (done) => p.update(done)),
          ),
        )
      : await searchBytes(config, corpus, ids, threads, hooks, timed);
  const normalize = minTokens === undefined ? undefined : (config.normalize ?? DEFAULT_NORMALIZE);
  const { cuts, counts } = planCuts(corpus, spans, config.minRemaining, normalize);
  await timed('write', () => writeOutputs(config, files, corpus, ids, spans, cuts, hooks));
  await checkpoint?.remove();
  const top = namedTopSpans(corpus, spans, config.cut, ids);
  const report: SubstringsReport = {
    format: 'gpudedup-substrings-report-1',
    inputs: config.inputs,
    ...(config.minTokens === undefined ? { minLength: config.minLength } : { minTokens: config.minTokens }),
    cut: config.cut,
    minRemaining: config.minRemaining,
    documents: ids.length,
    invalidSkipped,
    binarySkipped,
    textBytes: corpus.bytes.length,
    ...counts,
    spans: spans.count,
    spanBytes: spans.ends.reduce((sum, end, s) => sum + end - spans.starts[s], 0),
    search: { ...stats, resumedRounds: checkpoint?.resumedRounds ?? 0 },
    topSpans: top,
    seconds: (performance.now() - started) / 1000,
    timings,
  };
  if (config.report !== undefined) await writeTextFile(config.report, JSON.stringify(report, null, 2) + '\n');
  if (config.reportHtml !== undefined) await writeTextFile(config.reportHtml, substringsHtmlReport(report));
  return report;
}

interface Searched {
  readonly spans: SpanColumns;
  readonly stats: SearchStats;
  /** The byte search's (none for --min-tokens). */
  readonly checkpoint?: SearchCheckpoint;
}

/** The byte search (--min-length): on worker threads when the corpus repays them, with its checkpoint. */
async function searchBytes(
  config: SubstringsConfig,
  corpus: CorpusText,
  ids: readonly string[],
  threads: number,
  hooks: DedupHooks,
  timed: <T>(name: string, work: () => Promise<T>) => Promise<T>,
): Promise<Searched> {
  const lanes = threads > 1 && corpus.bytes.length >= WORKER_MIN_BYTES ? threads : 1;
  const checkpoint = await openSearchCheckpoint(config, corpus, ids, lanes, hooks);
  const stopNote = onInterrupt(() => interruptNote(checkpoint));
  const found = await timed('search', () => searchCorpus(config, corpus, lanes, checkpoint, hooks)).finally(stopNote);
  return { ...found, checkpoint };
}

/** The search, on worker threads when `lanes` > 1, continuing the checkpoint's rounds if it has any. */
function searchCorpus(
  config: SubstringsConfig,
  corpus: CorpusText,
  lanes: number,
  checkpoint: SearchCheckpoint | undefined,
  hooks: DedupHooks,
) {
  const options: SearchOptions = {
    minLength: config.minLength,
    cut: config.cut,
    memoryLimitBytes: config.memoryLimitBytes,
  };
  return withProgress(hooks, 'searching', undefined, 'items', (p) => {
    const plan = { ...checkpoint?.plan, onRound: (done: number) => p.update(done) };
    return lanes > 1 ? searchRepeatsInWorkers(corpus, options, lanes, plan) : searchRepeatsHere(corpus, options, plan);
  });
}

/** The checks before any work: inputs listed (a stream copied to a file where -o reads it again), outputs checked. */
async function checkSubstringsRun(config: SubstringsConfig, hooks: DedupHooks): Promise<InputFile[]> {
  if (config.inputs.length === 0) throw new RangeError('no input: give corpus files or directories');
  if (config.out !== undefined) await spoolStreams(config.inputs, config.tempDirectory, hooks.note);
  const files = await listInputFiles(config.inputs, hooks.note);
  const outputs = [
    { flag: '-o', path: config.out },
    { flag: '--spans', path: config.spans },
    { flag: '--report', path: config.report },
    { flag: '--report-html', path: config.reportHtml },
  ].filter((o): o is { flag: string; path: string } => o.path !== undefined);
  const checkpoint = checkpointOf(config);
  if (checkpoint === undefined && config.resume)
    throw new RangeError(
      '--resume keeps its checkpoint beside an output file: give -o, --spans, --report or --report-html a file',
    );
  if (checkpoint !== undefined) outputs.push({ flag: '--resume (the checkpoint)', path: checkpoint });
  await checkOutputs(
    outputs,
    files.filter((f) => f.path !== '-').map((f) => ({ path: f.path })),
  );
  if (config.out !== undefined) await checkKeptOutput(config.out, files);
  return files;
}

/** The checkpoint's path: beside the first output that is a file (none for --min-tokens: one pass, in memory). */
function checkpointOf(config: SubstringsConfig): string | undefined {
  if (config.checkpoint === false || config.minTokens !== undefined) return undefined;
  const first = [config.out, config.spans, config.report, config.reportHtml].find((p) => p !== undefined && p !== '-');
  return first === undefined ? undefined : checkpointPath(first);
}

/** The search's checkpoint (none when every output is standard output). */
async function openSearchCheckpoint(
  config: SubstringsConfig,
  corpus: CorpusText,
  ids: readonly string[],
  lanes: number,
  hooks: DedupHooks,
): Promise<SearchCheckpoint | undefined> {
  const path = checkpointOf(config);
  if (path === undefined) return undefined;
  const slices = keySlices(windowCount(corpus, config.minLength), config.memoryLimitBytes, lanes);
  const identity = { minLength: config.minLength, cut: config.cut };
  const seconds = config.checkpointSeconds ?? CHECKPOINT_SECONDS;
  return openCheckpoint(path, corpus, ids, identity, slices, config.resume ?? false, seconds, hooks.note);
}

function interruptNote(checkpoint: SearchCheckpoint | undefined): void {
  if (checkpoint === undefined || checkpoint.savedRounds() === 0) return;
  process.stderr.write(
    `\ninterrupted; ${checkpoint.savedRounds()} rounds of the search are saved in ${checkpoint.path}: ` +
      'run again with --resume to continue\n',
  );
}

/** -o and --spans, each under a temporary name until both are complete (a signal in between leaves neither). */
async function writeOutputs(
  config: SubstringsConfig,
  files: readonly InputFile[],
  corpus: CorpusText,
  ids: readonly string[],
  spans: SpanColumns,
  cuts: ReadonlyMap<number, DocumentCut>,
  hooks: DedupHooks,
): Promise<void> {
  const opened: Array<{ commit(): Promise<void>; abort(): Promise<void> }> = [];
  try {
    if (config.spans !== undefined) {
      const table = await openTable(config.spans, SPAN_COLUMNS, config.compression);
      opened.push(table);
      await writeSpans(table, corpus, ids, spans);
    }
    if (config.out !== undefined) {
      const out = await openKeptDocuments(config.out, files, config.compression);
      opened.push(out);
      await withProgress(hooks, 'writing', undefined, 'bytes', (p) =>
        writeEdited(files, config.read, corpus, spans, cuts, out, p),
      );
    }
    for (const output of opened) await output.commit();
  } catch (error) {
    await Promise.all(opened.map((output) => output.abort().catch(() => undefined)));
    throw error;
  }
}

async function writeSpans(table: RowTable, corpus: CorpusText, ids: readonly string[], spans: SpanColumns) {
  for (let s = 0; s < spans.count; s++) {
    const row = spanRow(corpus, spans, s);
    await table.row([ids[row.document], row.start, row.end, ids[row.firstDocument], row.firstStart]);
  }
}
