/**
 * `gpudedup substrings`: the corpus read once into memory (its texts' UTF-8),
 * every repeated span of at least minLength bytes found exactly (src/substrings)
 * on every core, then the corpus read again to write the documents with their
 * spans cut; the spans table and the report beside.
 */
import { availableParallelism } from 'node:os';
import { listInputFiles, type InputFile } from '../../io/readDocuments.js';
import { checkKeptOutput, openKeptDocuments } from '../../formats/keptDocuments.js';
import { openTable } from '../../formats/openTable.js';
import { writeTextFile } from '../../formats/files/textFile.js';
import { documentAt, type CorpusText } from '../../substrings/corpusText.js';
import { searchRepeatsHere, type SearchOptions } from '../../substrings/searchRepeats.js';
import { searchRepeatsInWorkers } from '../../substrings/repeatWorkers.js';
import { spanRow, type SpanColumns } from '../../substrings/spans.js';
import { topSpans } from '../../substrings/topSpans.js';
import { checkOutputs } from '../shared/outputChecks.js';
import { withProgress, type DedupHooks } from '../shared/config.js';
import type { SubstringsConfig, SubstringsReport } from './config.js';
import { readCorpus } from './readCorpus.js';
import { planCuts, writeEdited, type DocumentCut } from './writeEdited.js';

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
  const threads = config.threads ?? availableParallelism();
  const { corpus, ids } = await timed('read', () =>
    withProgress(hooks, 'reading', undefined, 'bytes', (p) => readCorpus(files, config.read, threads > 1, p)),
  );
  const options: SearchOptions = {
    minLength: config.minLength,
    cut: config.cut,
    memoryLimitBytes: config.memoryLimitBytes,
  };
  const { spans, stats } = await timed('search', () =>
    withProgress(hooks, 'searching', undefined, 'items', (p) =>
      threads > 1 && corpus.bytes.length >= WORKER_MIN_BYTES
        ? searchRepeatsInWorkers(corpus, options, threads, (done) => p.update(done))
        : searchRepeatsHere(corpus, options),
    ),
  );
  const { cuts, counts } = planCuts(corpus, spans, config.minRemaining);
  await timed('write', () => writeOutputs(config, files, corpus, ids, spans, cuts, hooks));
  const top = topSpans(corpus, spans, config.cut).map((t) => {
    const d = documentAt(corpus, t.first);
    return { ...t, firstId: ids[d], firstStart: t.first - corpus.starts[d] };
  });
  const report: SubstringsReport = {
    format: 'gpudedup-substrings-report-1',
    inputs: config.inputs,
    minLength: config.minLength,
    cut: config.cut,
    minRemaining: config.minRemaining,
    documents: ids.length,
    textBytes: corpus.bytes.length,
    ...counts,
    spans: spans.count,
    spanBytes: spans.ends.reduce((sum, end, s) => sum + end - spans.starts[s], 0),
    search: stats,
    topSpans: top,
    seconds: (performance.now() - started) / 1000,
    timings,
  };
  if (config.report !== undefined) await writeTextFile(config.report, JSON.stringify(report, null, 2) + '\n');
  return report;
}

/** The checks before any work: inputs listed, standard input refused where it must be read twice, outputs checked. */
async function checkSubstringsRun(config: SubstringsConfig, hooks: DedupHooks): Promise<InputFile[]> {
  if (config.inputs.length === 0) throw new RangeError('no input: give corpus files or directories');
  const files = await listInputFiles(config.inputs, hooks.note);
  if (config.out !== undefined && files.some((f) => f.path === '-')) {
    throw new RangeError(
      'standard input (-) can be read only once, but substrings reads the corpus again to write -o: save it to a file',
    );
  }
  const outputs = [
    { flag: '-o', path: config.out },
    { flag: '--spans', path: config.spans },
    { flag: '--report', path: config.report },
  ].filter((o): o is { flag: string; path: string } => o.path !== undefined);
  await checkOutputs(
    outputs,
    files.filter((f) => f.path !== '-').map((f) => ({ path: f.path })),
  );
  if (config.out !== undefined) await checkKeptOutput(config.out, files);
  return files;
}

async function writeOutputs(
  config: SubstringsConfig,
  files: readonly InputFile[],
  corpus: CorpusText,
  ids: readonly string[],
  spans: SpanColumns,
  cuts: ReadonlyMap<number, DocumentCut>,
  hooks: DedupHooks,
): Promise<void> {
  if (config.spans !== undefined) await writeSpans(config.spans, corpus, ids, spans, config);
  if (config.out === undefined) return;
  const out = await openKeptDocuments(config.out, files, config.compression);
  try {
    await withProgress(hooks, 'writing', undefined, 'bytes', (p) =>
      writeEdited(files, config.read, corpus, spans, cuts, config.minRemaining, out, p),
    );
    await out.commit();
  } catch (error) {
    await out.abort();
    throw error;
  }
}

export const SPAN_COLUMNS = [
  ['id', 'STRING'],
  ['start', 'INT64'],
  ['end', 'INT64'],
  ['first_id', 'STRING'],
  ['first_start', 'INT64'],
] as const;

async function writeSpans(
  path: string,
  corpus: CorpusText,
  ids: readonly string[],
  spans: SpanColumns,
  config: SubstringsConfig,
): Promise<void> {
  const table = await openTable(path, SPAN_COLUMNS, config.compression);
  try {
    for (let s = 0; s < spans.count; s++) {
      const row = spanRow(corpus, spans, s);
      await table.row([ids[row.document], row.start, row.end, ids[row.firstDocument], row.firstStart]);
    }
    await table.commit();
  } catch (error) {
    await table.abort();
    throw error;
  }
}
