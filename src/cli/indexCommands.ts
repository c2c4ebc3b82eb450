/** `gpudedup index create|add|remove|stats|compact`: a persistent index of kept documents (src/lshIndex). */
import { idfIdentityFrom } from './options.js';
import type { Command } from 'commander';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { forgetTemporary, registerTemporary, removeTemporary } from '../formats/files/temporaries.js';
import { counted, thousands } from '../format.js';
import { errorMessage, readableMessage } from '../errors.js';
import { describeParameters, formatIndexAddSummary, type IndexAddReport } from '../lshIndex/indexAddReport.js';
import { createIndex, openIndex, type DiskIndex } from '../lshIndex/diskIndex.js';
import { resolveParameters } from '../lshIndex/options.js';
import {
  addInput,
  indexAdd,
  indexAddPreflight,
  readAddInput,
  type IndexAddConfig,
} from '../pipeline/index/indexAdd.js';
import { removeFromIndex } from '../pipeline/index/indexRemove.js';
import { checkIsIndex, checkNewIndexDirectory } from '../pipeline/index/indexOutputs.js';
import {
  addAddOptions,
  addIndexParameterOptions,
  addOutputsFrom,
  cliHooks,
  indexOptionsFrom,
  openOptionsFrom,
  readFrom,
  type AddCliOptions,
  type CreateCliOptions,
} from './indexOptions.js';

export function registerIndexCommand(program: Command): void {
  const index = program
    .command('index')
    .description(
      'a persistent index of documents on disk: create it, add to it (deduplicating against it), remove, compact, inspect',
    );
  registerCreate(index);
  registerAdd(index);
  registerRemove(index);
  registerStats(index);
  registerCompact(index);
}

function registerCreate(index: Command): void {
  const command = index
    .command('create')
    .description(
      'create an index in DIR (missing or empty) with the dedup parameters; with CORPUS, add it at once (as index add)',
    )
    .argument('<dir>', 'the index directory')
    .argument(
      '[corpus...]',
      'documents to add: JSONL, Parquet or plain-text files, directories, or - for standard input',
    );
  addAddOptions(addIndexParameterOptions(command), { withBackend: false }).action(
    async (dir: string, corpus: string[], options: CreateCliOptions & AddCliOptions, cmd: Command) => {
      // With --weights idf: the table read from --idf FILE or counted from the corpus; the index keeps a copy.
      const parameters = indexOptionsFrom(options, await idfIdentityFrom(corpus, options), cmd);
      resolveParameters(parameters); // the index's own checks, before any work
      await checkNewIndexDirectory(dir);
      const config = addConfig(dir, corpus, options);
      if (corpus.length === 0 && (options.out ?? options.matches ?? options.report) !== undefined)
        throw new RangeError('-o, --matches and --report write what an add did: give corpus files to add');
      const files = corpus.length > 0 ? await indexAddPreflight(config, cliHooks(options.quiet)) : undefined;
      // The corpus is read (and refused, naming file and line) before the directory becomes an index.
      const read = files === undefined ? undefined : await readAddInput(config, files, cliHooks(options.quiet));
      await asNewIndex(dir, async () => {
        const created = await createIndex(dir, { ...parameters, ...openOptionsFrom(options) });
        await withIndex(created, async () => {
          if (files !== undefined) return printAdd(await addInput(created, config, files, read!), options);
          if (!options.quiet)
            process.stdout.write(`created an empty index in ${dir}: ${describeParameters(created.parameters)}\n`);
        });
      });
    },
  );
}

function registerAdd(index: Command): void {
  const command = index
    .command('add')
    .description(
      'add documents to the index: each is decided against the index and the earlier documents of the run; new ones ' +
        'are appended (one commit per run)',
    )
    .argument('<dir>', 'the index directory')
    .argument(
      '<corpus...>',
      'JSONL, Parquet or plain-text files, directories of them, or - for standard input (gzip and zstd are detected)',
    );
  addAddOptions(command, { withBackend: true }).action(
    async (dir: string, corpus: string[], options: AddCliOptions) => {
      const config = addConfig(dir, corpus, options);
      const files = await indexAddPreflight(config, cliHooks(options.quiet));
      await checkIsIndex(dir);
      const opened = await openIndex(dir, openOptionsFrom(options));
      noteLock(opened, options.quiet);
      await withIndex(opened, async () =>
        printAdd(await indexAdd(opened, config, files, cliHooks(options.quiet)), options),
      );
    },
  );
}

function addConfig(dir: string, corpus: string[], options: AddCliOptions): IndexAddConfig {
  return {
    dir,
    inputs: corpus,
    read: readFrom(options),
    all: options.all,
    outputs: addOutputsFrom(options),
    tempDirectory: options.tempDirectory,
  };
}

function printAdd(report: IndexAddReport, options: AddCliOptions): void {
  if (options.quiet) return;
  const destination = options.out ?? ''; // → names the added documents' file: --matches and --report are not it
  const toStdout = [options.out, options.matches, options.report].includes('-');
  (toStdout ? process.stderr : process.stdout).write(formatIndexAddSummary(report, destination));
}

/** A writer's lock left by a dead process was taken over: say so (stderr), once. */
export function noteLock(index: DiskIndex, quiet: boolean): void {
  if (index.lockNote !== undefined && !quiet) process.stderr.write(`note: ${index.lockNote}\n`);
}

/** Runs `work` on an open index and closes it (releasing the writer's lock) however it ends. */
/**
 * Creates the index in `dir` (missing or empty) by `work`; if it fails (a full disk, a signal), what it made is
 * removed, so that the same command can run again: the directory when the run made it, else its new entries.
 */
async function asNewIndex(dir: string, work: () => Promise<void>): Promise<void> {
  const existed = (await stat(dir).catch(() => undefined)) !== undefined;
  const made = existed ? [] : [dir];
  for (const path of made) registerTemporary(path); // a signal removes it too
  try {
    await work();
  } catch (error) {
    if (!existed) removeTemporary(dir);
    else for (const entry of await readdir(dir).catch(() => [])) removeTemporary(join(dir, entry));
    throw namingIndex(error, dir);
  } finally {
    for (const path of made) forgetTemporary(path); // created: the index stays
  }
}

async function withIndex<T>(index: DiskIndex, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw namingIndex(error, index.dir);
  } finally {
    await index.close();
  }
}

/** A system call's failure that names no file (ENOSPC on a write) names the index, in the words of readableMessage. */
function namingIndex(error: unknown, dir: string): unknown {
  const message = readableMessage(error, `index ${dir}`);
  return message === errorMessage(error) ? error : new Error(message);
}

function registerRemove(index: Command): void {
  index
    .command('remove')
    .description('remove documents from the index by id (they stop matching at once; compact reclaims their space)')
    .argument('<dir>', 'the index directory')
    .requiredOption(
      '--ids <file>',
      'the ids: one per line, or a CSV/JSONL/Parquet file with an id column (.csv, .jsonl, .parquet); - for standard input',
    )
    .option('--id-field <name>', 'the id column of a CSV, JSONL or Parquet --ids file', 'id')
    .option('-q, --quiet', 'print errors only', false)
    .action(async (dir: string, options: { ids: string; idField: string; quiet: boolean }) => {
      await checkIsIndex(dir);
      const result = await removeFromIndex(dir, options.ids, options.idField);
      if (!options.quiet) {
        const unknown = result.requested - result.removed;
        process.stdout.write(
          `removed ${counted(result.removed, 'document')} from ${dir}` +
            (unknown > 0 ? ` (${counted(unknown, 'id')} not in the index)` : '') +
            `; ${counted(result.documents, 'document')} left\n`,
        );
      }
    });
}

function registerStats(index: Command): void {
  index
    .command('stats')
    .description('what the index holds: documents, removed, segments, bytes on disk, and its parameters')
    .argument('<dir>', 'the index directory')
    .option('--json', 'print JSON instead of text', false)
    .action(async (dir: string, options: { json: boolean }) => {
      await checkIsIndex(dir);
      const opened = await openIndex(dir, { readOnly: true, backend: 'cpu' });
      const stats = await withIndex(opened, () => opened.stats());
      if (options.json) {
        process.stdout.write(JSON.stringify(stats, null, 2) + '\n');
        return;
      }
      const lines = [
        `index ${dir}`,
        `  documents      ${thousands(stats.documents)}`,
        `  removed        ${thousands(stats.removed)}` +
          (stats.removed > 0 ? ' (space reclaimed by index compact)' : ''),
        `  segments       ${thousands(stats.segments)}`,
        `  on disk        ${(stats.bytesOnDisk / 1e6).toFixed(2)} MB` +
          (stats.documents > 0
            ? ` (${thousands(Math.round(stats.bytesOnDisk / stats.documents))} bytes per document)`
            : ''),
        `  parameters     ${describeParameters(stats.parameters)}`,
      ];
      process.stdout.write(lines.join('\n') + '\n');
    });
}

function registerCompact(index: Command): void {
  index
    .command('compact')
    .description('merge the live segments into one and drop removed documents')
    .argument('<dir>', 'the index directory')
    .option('-q, --quiet', 'print errors only', false)
    .action(async (dir: string, options: { quiet: boolean }) => {
      await checkIsIndex(dir);
      const opened = await openIndex(dir, { backend: 'cpu' });
      noteLock(opened, options.quiet);
      const result = await withIndex(opened, () => opened.compact());
      if (!options.quiet) {
        process.stdout.write(
          `compacted ${dir}: ${counted(result.segmentsBefore, 'segment')} → ${result.documents > 0 ? 1 : 0}, ` +
            `${counted(result.documents, 'document')}, ${counted(result.dropped, 'removed document')} dropped\n`,
        );
      }
    });
}
