/** `gpudedup substrings`: parses the command line, runs src/pipeline/substrings, prints the summary. */
import { type Command, Option } from 'commander';
import { PARQUET_COMPRESSIONS, type ParquetCompression } from '../formats/parquet/parquetFile.js';
import { counted, namesOf, thousands } from '../format.js';
import { runSubstrings } from '../pipeline/substrings/run.js';
import { checkInputPaths } from '../io/readDocuments.js';
import type { SubstringsConfig, SubstringsReport } from '../pipeline/substrings/config.js';
import { addInputOptions, readOptionsFrom, tableOption, type InputCliOptions } from './options.js';
import { addContaminationOptions, runContaminationCommand, type ContaminationCliOptions } from './contamination.js';
import { byteSize } from './params.js';
import { stageBar } from './progress.js';
import { addSpanOptions, spanSearchFrom, type SpanCliOptions } from './substringsOptions.js';

export type SubstringsCliOptions = InputCliOptions &
  SpanCliOptions & {
    out?: string;
    report?: string;
    reportHtml?: string;
    memoryLimit?: number;
    threads?: number;
    compression: ParquetCompression;
    resume: boolean;
    tempDirectory?: string;
  };

export function registerSubstringsCommand(program: Command): void {
  const command = addSubstringsOptions(
    program
      .command('substrings')
      .description(
        'exact-substring deduplication: cut every span of at least --min-length bytes (or --min-tokens normalized ' +
          'tokens) that occurs more than once in the corpus (all occurrences but the first)',
      ),
  );
  addInputOptions(addContaminationOptions(command)).action(
    async (inputs: string[], options: SubstringsCliOptions & ContaminationCliOptions, self: Command) => {
      await checkInputPaths(inputs); // a missing corpus first, before what the flags lack
      refuseIgnoredFlags(options, self);
      if (options.against !== undefined) return runContaminationCommand(inputs, options); // n-gram decontamination
      const config = substringsConfigFrom(inputs, options, self.getOptionValueSource('minLength') === 'cli');
      const report = await runSubstrings(config, {
        note: (message) => {
          if (!options.quiet) process.stderr.write(`${message}\n`);
        },
        stage: (label, total, unit) => stageBar(label, total, unit, options.quiet),
      });
      const toStdout = [options.out, options.spans, options.report, options.reportHtml].includes('-');
      if (!options.quiet)
        (toStdout ? process.stderr : process.stdout).write(
          formatSubstringsSummary(report, options.out ?? options.spans ?? options.report ?? options.reportHtml ?? ''),
        );
    },
  );
}

/**
 * The flags of one mode given to the other (the span search, or --against's decontamination) are refused in one line
 * rather than ignored.
 */
function refuseIgnoredFlags(options: SubstringsCliOptions & ContaminationCliOptions, self: Command): void {
  const given = (field: string): boolean => self.getOptionValueSource(field) === 'cli';
  if (options.against === undefined) {
    const flag = given('action') ? '--action' : options.contamination !== undefined ? '--contamination' : undefined;
    if (flag !== undefined)
      throw new RangeError(`${flag} applies to n-gram decontamination: give --against FILE… too (or leave it out)`);
    return;
  }
  if (options.resume) throw new RangeError('--resume continues the span search; --against runs in one pass');
  if (options.reportHtml !== undefined)
    throw new RangeError("--report-html is the span search's page; with --against, give --report");
  if (given('minLength'))
    throw new RangeError("--min-length is the span search's; with --against the shortest shared span is --min-tokens");
  if (given('cut'))
    throw new RangeError("--cut is the span search's; with --against, --action cut cuts the shared spans");
  const search = given('memoryLimit') ? '--memory-limit' : given('threads') ? '--threads' : undefined;
  if (search !== undefined)
    throw new RangeError(`${search} is the span search's; --against runs in one pass, in one thread`);
  if (options.tempDirectory !== undefined)
    throw new RangeError('--temp-directory holds a copy of a stream read twice; --against reads the corpus once');
  if (given('minRemaining') && options.action !== 'cut')
    throw new RangeError('--min-remaining applies to the documents --action cut leaves: give --action cut');
}

/** The span search's arguments and flags (--against's are added by contamination.ts). */
function addSubstringsOptions(command: Command): Command {
  command
    .argument('[inputs...]', 'JSONL, Parquet or plain-text files, or directories of them (gzip and zstd are detected)')
    .option(
      '-o, --out <file>',
      'the documents in input order with their repeated spans cut (JSONL: other fields byte for byte; Parquet: other ' +
        'columns as read)',
    )
    .option('--report <file.json>', 'write the summary as JSON, with the most repeated spans')
    .option('--report-html <file.html>', 'write the summary and the most repeated spans as one self-contained page');
  return addSpanOptions(command)
    .option(
      '--memory-limit <size>',
      "memory for the search's tables, e.g. 4GiB (default 1 GiB); the corpus's text is held in memory besides",
      byteSize,
    )
    .addOption(
      tableOption(
        'threads',
        '--threads <n>',
        'worker threads of the search (default: one per core, at most one per MiB of input)',
      ),
    )
    .option(
      '--resume',
      "continue an interrupted search from its checkpoint (the first output's name + .partial; same inputs, " +
        '--min-length and --cut)',
      false,
    )
    .option(
      '--temp-directory <dir>',
      'where standard input or a pipe is copied when -o reads the corpus again (default: the system temporary ' +
        'directory)',
    )
    .addOption(
      new Option('--compression <codec>', 'compression of Parquet outputs')
        .choices(PARQUET_COMPRESSIONS)
        .default('snappy'),
    );
}

/** `minLengthGiven`: --min-length was on the command line (not its default), refused with --min-tokens. */
export function substringsConfigFrom(
  inputs: string[],
  options: SubstringsCliOptions & Pick<ContaminationCliOptions, 'minTokens' | 'nfkc' | 'stripPunctuation'>,
  minLengthGiven = false,
): SubstringsConfig {
  if (options.minTokens !== undefined && minLengthGiven)
    throw new RangeError('--min-length (bytes) and --min-tokens (tokens) both set the shortest span: give one');
  if (options.minTokens !== undefined && (options.memoryLimit !== undefined || options.threads !== undefined))
    throw new RangeError(
      "--memory-limit and --threads are the byte search's: --min-tokens runs in memory, in one thread",
    );
  if (options.minTokens !== undefined && options.resume)
    throw new RangeError('--resume continues the byte search (--min-length); --min-tokens runs in one pass');
  if (options.minTokens === undefined && (options.nfkc || options.stripPunctuation))
    throw new RangeError('--nfkc and --strip-punctuation normalize tokens: give them with --min-tokens or --against');
  if ([options.out, options.spans, options.report, options.reportHtml].every((p) => p === undefined))
    throw new RangeError('nothing to write: give -o, --spans, --report or --report-html');
  return {
    inputs,
    read: readOptionsFrom(options, () => undefined),
    ...spanSearchFrom(options),
    minTokens: options.minTokens,
    normalize: { nfkc: options.nfkc, stripPunctuation: options.stripPunctuation },
    out: options.out,
    report: options.report,
    reportHtml: options.reportHtml,
    resume: options.resume,
    tempDirectory: options.tempDirectory,
  };
}

/** What the read skipped (malformed lines under --skip-invalid, binary files), when it skipped anything. */
function skippedLines(r: Pick<SubstringsReport, 'invalidSkipped' | 'binarySkipped'>): string[] {
  const invalid = r.invalidSkipped ?? 0;
  const binary = r.binarySkipped ?? [];
  if (invalid === 0 && binary.length === 0) return [];
  const parts = [
    ...(invalid > 0 ? [counted(invalid, 'invalid line')] : []),
    ...(binary.length > 0 ? [`${counted(binary.length, 'binary file')} (${namesOf(binary)})`] : []),
  ];
  return [`  skipped    ${parts.join(', ')}`];
}

/** The summary's lines (also under dedup's with --substrings, whose report has no format or inputs). */
export function formatSubstringsSummary(r: Omit<SubstringsReport, 'format' | 'inputs'>, destination: string): string {
  const percent = (part: number, whole: number): string => `${((100 * part) / Math.max(whole, 1)).toFixed(2)} %`;
  const shortest = r.minTokens === undefined ? counted(r.minLength ?? 0, 'byte') : counted(r.minTokens, 'token');
  const lines = [
    `substrings: ${counted(r.documents, 'document')}, ${counted(r.textBytes, 'byte')} of text → ${destination}`,
    `  spans      ${counted(r.spans, 'repeated span')} of ≥ ${shortest} (${counted(r.spanBytes, 'byte')}), ` +
      `cut: ${r.cut === 'later' ? 'all occurrences but the first' : 'every occurrence'}`,
    `  cut        ${thousands(r.bytesCut)} bytes (${percent(r.bytesCut, r.textBytes)} of the text) from ` +
      `${counted(r.documentsTouched, 'document')}`,
    `  dropped    ${counted(r.documentsDropped, 'document')} left with under ${counted(r.minRemaining, 'byte')} or no token`,
    ...skippedLines(r),
    r.minTokens === undefined
      ? `  search     ${thousands(r.search.windows)} windows in ${counted(r.search.rounds, 'round')} on ` +
        `${counted(r.search.threads, 'thread')}, ` +
        `${thousands(r.search.groups)} repeated, ${thousands(r.search.collisions)} hash collisions resolved by bytes` +
        (r.search.resumedRounds > 0 ? ` (${counted(r.search.resumedRounds, 'round')} resumed from the checkpoint)` : '')
      : `  search     ${thousands(r.search.windows)} windows of ${r.minTokens} tokens, ${thousands(r.search.groups)} ` +
        `repeated (exact token numbers, ${counted(r.search.rounds, 'doubling pass', 'doubling passes')})`,
    `  time       ${r.seconds.toFixed(2)} s (read ${r.timings.read?.toFixed(2)} s, search ` +
      `${r.timings.search?.toFixed(2)} s, write ${r.timings.write?.toFixed(2)} s)`,
  ];
  for (const t of r.topSpans.slice(0, 3))
    lines.push(
      `  top        ×${thousands(t.count)} ${counted(t.bytes, 'byte')} first in ${t.firstId}@${t.firstStart}: ` +
        `${JSON.stringify(t.preview.slice(0, 60))}`,
    );
  return lines.join('\n') + '\n';
}
