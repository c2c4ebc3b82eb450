/**
 * The first pass of `substrings`: every document's text into one buffer, and its id. Ids must be unique (the spans
 * table names documents by id, so it could not be joined back otherwise); malformed lines skipped under
 * --skip-invalid and binary files are noted and counted, as dedup notes and counts them.
 */
import { readDocuments, type InputFile } from '../../io/readDocuments.js';
import type { ReadOptions } from '../../io/documents.js';
import { requireUniqueIds } from '../../exact/uniqueIds.js';
import { CorpusTextBuilder, type CorpusText } from '../../substrings/corpusText.js';
import type { TokenCorpus, TokenCorpusBuilder } from '../../substrings/tokenCorpus.js';
import { refuseAllSkipped, skippedInputCounter, type DedupHooks, type StageProgress } from '../shared/config.js';

export interface ReadCorpus {
  readonly corpus: CorpusText;
  readonly ids: string[];
  /** With `tokens` given: the texts' normalized tokens (--min-tokens). */
  readonly tokens?: TokenCorpus;
  /** Malformed lines skipped (--skip-invalid). */
  readonly invalidSkipped: number;
  /** Binary files skipped, by path. */
  readonly binarySkipped: readonly string[];
}

export async function readCorpus(
  files: readonly InputFile[],
  read: ReadOptions,
  shared: boolean,
  progress: StageProgress,
  hooks: DedupHooks,
  tokens?: TokenCorpusBuilder,
): Promise<ReadCorpus> {
  const builder = new CorpusTextBuilder();
  const ids: string[] = [];
  const skipped = skippedInputCounter(hooks, read);
  const { onInvalid, onBinary } = skipped;
  let bytes = 0;
  const documents = readDocuments(files, { ...read, onInvalid, onBinary, onBytes: (n) => (bytes = n) });
  for await (const document of requireUniqueIds(documents)) {
    if (tokens === undefined) builder.add(document.text);
    else tokens.add(document.text, builder);
    ids.push(document.id);
    if ((ids.length & 1023) === 0) progress.update(ids.length, bytes);
  }
  progress.update(ids.length, bytes);
  refuseAllSkipped(ids.length, skipped);
  return {
    corpus: builder.finish(shared),
    ids,
    tokens: tokens?.finish(),
    invalidSkipped: skipped.skipped,
    binarySkipped: skipped.binaryFiles,
  };
}
