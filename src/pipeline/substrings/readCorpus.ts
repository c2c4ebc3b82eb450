/** The first pass of `substrings`: every document's text into one buffer, and its id. */
import { readDocuments, type InputFile } from '../../io/readDocuments.js';
import type { ReadOptions } from '../../io/documents.js';
import { CorpusTextBuilder, type CorpusText } from '../../substrings/corpusText.js';
import type { TokenCorpus, TokenCorpusBuilder } from '../../substrings/tokenCorpus.js';
import type { StageProgress } from '../shared/config.js';

export interface ReadCorpus {
  readonly corpus: CorpusText;
  readonly ids: string[];
  /** With `tokens` given: the texts' normalized tokens (--min-tokens). */
  readonly tokens?: TokenCorpus;
}

export async function readCorpus(
  files: readonly InputFile[],
  read: ReadOptions,
  shared: boolean,
  progress: StageProgress,
  tokens?: TokenCorpusBuilder,
): Promise<ReadCorpus> {
  const builder = new CorpusTextBuilder();
  const ids: string[] = [];
  let bytes = 0;
  for await (const document of readDocuments(files, { ...read, onBytes: (n) => (bytes = n) })) {
    if (tokens === undefined) builder.add(document.text);
    else tokens.add(document.text, builder);
    ids.push(document.id);
    if ((ids.length & 1023) === 0) progress.update(ids.length, bytes);
  }
  progress.update(ids.length, bytes);
  return { corpus: builder.finish(shared), ids, tokens: tokens?.finish() };
}
