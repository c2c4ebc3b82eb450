/**
 * `gpudedup index add` (and `index create DIR CORPUS…`): the corpus read
 * once, every document decided against the index and the earlier documents
 * of the run by one `add` (one commit: a crash leaves the index as it was
 * before the run, or with the whole run added), then the outputs written
 * like dedup's, atomically: the added documents (`-o`, lines verbatim), a
 * row per match (`--matches`), the report (`--report`).
 *
 * The outputs come after the commit (they need its decisions): a run killed
 * between the two has added its documents without writing them.
 */
import { sixDecimals } from '../../format.js';
import { checkKeptOutput, openKeptDocuments, type KeptDocuments } from '../../formats/keptDocuments.js';
import { openTable, type RowTable } from '../../formats/openTable.js';
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';
import { buildIndexAddReport, type IndexAddReport } from '../../lshIndex/indexAddReport.js';
import type { InputDocument, ReadOptions } from '../../io/documents.js';
import { listInputFiles, readsOnce, type InputFile } from '../../io/readDocuments.js';
import { IndexIdError } from '../../lshIndex/errors.js';
import type { AddResult, DedupIndex } from '../../lshIndex/types.js';
import { SILENT_HOOKS, type DedupHooks } from '../shared/config.js';
import { copyLines, type WantedLine } from './copyLines.js';
import { readIndexInput, type IndexInput } from './indexInput.js';
import { checkIndexOutputs } from './indexOutputs.js';
import { spoolStreams } from '../shared/spool.js';
import type { NamedOutput } from '../shared/outputChecks.js';
import { writeTextFile } from '../../formats/files/textFile.js';
import { StageTimer } from '../../dedup/stageTimer.js';

export interface IndexAddOutputs {
  /** The added documents (kept), as dedup's `-o` writes them. */
  readonly out?: string;
  /** One row per match: id, matched, estimate, exact. */
  readonly matches?: string;
  readonly report?: string;
  readonly parquetCompression?: ParquetCompression;
}

export interface IndexAddConfig {
  readonly dir: string;
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  /** Append every document, only report matches. */
  readonly all: boolean;
  readonly outputs: IndexAddOutputs;
  /** Where standard input or a pipe is copied for -o to copy its lines as they came in (default: the system's). */
  readonly tempDirectory?: string;
}

/** The columns of `--matches`; `exact` is null where the pair was decided by its estimate. */
export const MATCH_COLUMNS = [
  ['id', 'STRING'],
  ['matched', 'STRING'],
  ['estimate', 'DOUBLE'],
  ['exact', 'DOUBLE'],
] as const;

export function addOutputs(outputs: IndexAddOutputs): NamedOutput[] {
  const named: [string, string | undefined][] = [
    ['-o', outputs.out],
    ['--matches', outputs.matches],
    ['--report', outputs.report],
  ];
  return named
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([flag, path]) => ({ flag, path }));
}

/**
 * Checks before any work (and before the index is opened): the inputs exist, no output is an input or inside the index.
 */
export async function indexAddPreflight(
  config: IndexAddConfig,
  hooks: Pick<DedupHooks, 'note'> = SILENT_HOOKS,
): Promise<InputFile[]> {
  if (config.inputs.length === 0) throw new RangeError('no input: give corpus files (or - for standard input)');
  // -o copies the added lines' bytes from the input, read again: a stream is copied to a file first.
  if (config.outputs.out !== undefined) await spoolStreams(config.inputs, config.tempDirectory, hooks.note);
  const corpus = await listInputFiles(config.inputs);
  await checkIndexOutputs(config.dir, addOutputs(config.outputs), corpus);
  if (config.outputs.out !== undefined) await checkKeptOutput(config.outputs.out, corpus);
  return corpus;
}

export async function indexAdd(
  index: DedupIndex,
  config: IndexAddConfig,
  corpus: readonly InputFile[],
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<IndexAddReport> {
  return addInput(index, config, corpus, await readAddInput(config, corpus, hooks));
}

export interface ReadInput {
  readonly input: IndexInput;
  readonly readingMs: number;
}

/** The whole corpus read and checked (malformed lines, repeated ids), before the index is touched. */
export async function readAddInput(
  config: IndexAddConfig,
  corpus: readonly InputFile[],
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<ReadInput> {
  const started = performance.now();
  const input = await readIndexInput(corpus, config.read, config.outputs.out !== undefined, hooks);
  return { input, readingMs: performance.now() - started };
}

/** One add (one commit), then the outputs and the report. */
export async function addInput(
  index: DedupIndex,
  config: IndexAddConfig,
  corpus: readonly InputFile[],
  { input, readingMs }: ReadInput,
): Promise<IndexAddReport> {
  const timer = new StageTimer();
  timer.add('reading', readingMs);
  const result = await timer.time('adding', () =>
    index.add(input.documents, { all: config.all }).catch((error: unknown) => Promise.reject(located(error, input))),
  );
  await timer.time('writing', () => writeAddOutputs(input, result, corpus, config.outputs));
  const report = buildIndexAddReport({
    index: config.dir,
    inputs: config.inputs,
    all: config.all,
    result,
    stats: await index.stats(),
    invalidSkipped: input.invalidSkipped,
    binarySkipped: input.binarySkipped,
    timings: timer.byName(),
  });
  if (config.outputs.report !== undefined)
    await writeTextFile(config.outputs.report, JSON.stringify(report, null, 2) + '\n');
  return report;
}

/** The index names a refused id by its place in the add (IndexIdError.documents): the CLI names its file and line. */
function located(error: unknown, input: IndexInput): unknown {
  if (!(error instanceof IndexIdError) || !error.documents.every((d) => d >= 1 && d <= input.documents.length))
    return error;
  error.message = error.located((i) => input.locate(i));
  return error;
}

/** -o and --matches, both or neither committed. */
async function writeAddOutputs(
  input: IndexInput,
  result: AddResult,
  corpus: readonly InputFile[],
  outputs: IndexAddOutputs,
): Promise<void> {
  const opened: { commit(): Promise<void>; abort(): Promise<void> }[] = [];
  try {
    if (outputs.out !== undefined) {
      const out = await openKeptDocuments(outputs.out, corpus, outputs.parquetCompression);
      opened.push(out);
      await writeAdded(input.read!, result, out);
    }
    if (outputs.matches !== undefined) {
      const table = await openTable(outputs.matches, MATCH_COLUMNS, outputs.parquetCompression);
      opened.push(table);
      await writeMatches(table, result);
    }
    for (const writer of opened) await writer.commit();
  } catch (error) {
    await Promise.all(opened.map((w) => w.abort().catch(() => undefined)));
    throw error;
  }
}

/**
 * The added documents in input order: JSON lines of a file copied as bytes
 * (copyLines.ts), file by file; standard input's lines, Parquet rows and
 * plain-text files written from what was read (keptDocuments.ts).
 */
async function writeAdded(read: readonly InputDocument[], result: AddResult, out: KeptDocuments): Promise<void> {
  await writeWanted(read, (d) => result.decisions[d].added, out);
}

/**
 * The documents `wanted` picks, in input order, JSON lines of a file copied as bytes (also `dedup --containment`'s -o).
 */
export async function writeWanted(
  read: readonly InputDocument[],
  wanted: (d: number) => boolean,
  out: KeptDocuments,
): Promise<void> {
  for (let i = 0; i < read.length; ) {
    const path = read[i].source.path;
    let end = i;
    while (end < read.length && read[end].source.path === path) end++;
    const copied = out.writeLine !== undefined && !readsOnce(path) && read[i].rawLine !== undefined;
    const lines: WantedLine[] = [];
    for (let d = i; d < end; d++) {
      if (!wanted(d)) continue;
      if (copied) lines.push({ line: read[d].source.line, rawLine: read[d].rawLine! });
      else await out.write(read[d]);
    }
    if (lines.length > 0) await copyLines(path, lines, { writeLine: (bytes) => out.writeLine!(bytes) });
    i = end;
  }
}

async function writeMatches(table: RowTable, result: AddResult): Promise<void> {
  for (const decision of result.decisions) {
    for (const match of decision.matches)
      await table.row([
        decision.id,
        match.id,
        sixDecimals(match.similarity),
        match.exact === undefined ? null : sixDecimals(match.exact),
      ]);
  }
}
