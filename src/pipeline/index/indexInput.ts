/**
 * The documents of `index add` and `query`, read once from any input the CLI
 * reads (JSON Lines, Parquet, plain text, directories, `-`), with what the
 * summary counts (invalid lines skipped, binary files skipped).
 *
 * `index add` holds its whole input before it adds (one add is one commit,
 * src/lshIndex): a malformed line or a duplicate id is refused, naming its
 * file and line, before the index changes. `query` streams batches instead.
 */
import { InputError, locationOf, type InputDocument, type ReadOptions } from '../../io/documents.js';
import { readDocuments, totalInputBytes, type InputFile } from '../../io/readDocuments.js';
import type { IndexDocument } from '../../lshIndex/types.js';
import { refuseAllSkipped, withProgress, type DedupHooks } from '../shared/config.js';

export interface ReadCounts {
  invalidSkipped: number;
  /** The first skipped line's message (refuseAllSkipped). */
  firstInvalid?: string;
  readonly binarySkipped: string[];
}

export interface IndexInput extends ReadCounts {
  /** What the index gets: id and text, in input order. */
  readonly documents: IndexDocument[];
  /** The documents as read (raw line, record), kept only when they are written back (`-o`). */
  readonly read?: InputDocument[];
  /** Where document i came from, `path:line` (or the path of a whole-file document), for messages. */
  locate(i: number): string;
}

/** Reading options that count what they skip (and notes it once per binary file). */
export function countingRead(read: ReadOptions, counts: ReadCounts, hooks: DedupHooks): ReadOptions {
  return {
    ...read,
    onInvalid: (message) => {
      counts.invalidSkipped++;
      counts.firstInvalid ??= message;
    },
    onBinary: (path) => {
      counts.binarySkipped.push(path);
      hooks.note(`note: skipped ${path}: a binary file (NUL bytes or mostly invalid UTF-8)`);
    },
  };
}

/** Every document of the corpus, ids unique (a repeated id is refused naming both places). */
export async function readIndexInput(
  corpus: readonly InputFile[],
  read: ReadOptions,
  keepRead: boolean,
  hooks: DedupHooks,
): Promise<IndexInput> {
  const counts: ReadCounts = { invalidSkipped: 0, binarySkipped: [] };
  const documents: IndexDocument[] = [];
  const kept: InputDocument[] | undefined = keepRead ? [] : undefined;
  const seen = new Map<string, string>();
  const paths: string[] = [];
  const fileOf: number[] = [];
  const lineOf: number[] = [];
  await withProgress(hooks, 'reading', totalInputBytes(corpus), 'bytes', async (progress) => {
    let bytes = 0;
    const options = { ...countingRead(read, counts, hooks), onBytes: (n: number) => (bytes = n) };
    for await (const doc of readDocuments(corpus, options)) {
      const earlier = seen.get(doc.id);
      if (earlier !== undefined)
        throw new InputError(
          doc.source.path,
          doc.source.line,
          `id ${JSON.stringify(doc.id)} is also the id of ${earlier}: ids must be unique in an index`,
        );
      seen.set(doc.id, locationOf(doc));
      documents.push({ id: doc.id, text: doc.text });
      if (paths.at(-1) !== doc.source.path) paths.push(doc.source.path);
      fileOf.push(paths.length - 1);
      lineOf.push(doc.source.line);
      kept?.push(doc);
      if ((documents.length & 1023) === 0) progress.update(documents.length, bytes);
    }
    progress.update(documents.length, bytes);
  });
  refuseAllSkipped(documents.length, { skipped: counts.invalidSkipped, first: counts.firstInvalid });
  const locate = (i: number): string => (lineOf[i] > 0 ? `${paths[fileOf[i]]}:${lineOf[i]}` : paths[fileOf[i]]);
  return { ...counts, documents, read: kept, locate };
}

/** The corpus in batches of `size` documents, for queries (streamed: memory stays at one batch). */
export async function* documentBatches(
  corpus: readonly InputFile[],
  read: ReadOptions,
  size: number,
): AsyncGenerator<InputDocument[]> {
  let batch: InputDocument[] = [];
  for await (const doc of readDocuments(corpus, read)) {
    batch.push(doc);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
