/**
 * A later pass over the corpus (exact verification's shingle sets, writing
 * the outputs): the same documents must come back as the first pass saw them.
 * Standard input read a second time, or a file changed in between, is refused:
 * nothing computed from the first pass would fit it.
 */
import type { InputDocument, ReadOptions } from '../../io/documents.js';
import { readDocuments, type InputFile } from '../../io/readDocuments.js';
import type { StageProgress } from '../shared/config.js';

/**
 * The corpus's documents again, in order; throws if there are more or fewer
 * than `expected`. `purpose` completes "… read again <purpose>".
 */
export async function* rereadCorpus(
  files: readonly InputFile[],
  read: ReadOptions,
  expected: number,
  purpose: string,
  progress: StageProgress,
): AsyncGenerator<InputDocument> {
  const changed = (detail: string): Error =>
    new Error(
      `the input changed between passes: the first pass read ${expected} documents, ${detail} read again ${purpose}`,
    );
  let bytes = 0;
  let documents = 0;
  for await (const doc of readDocuments(files, { ...read, onBytes: (b) => (bytes = b) })) {
    if (doc.index >= expected) throw changed('more');
    documents++;
    yield doc;
    if ((doc.index & 255) === 0) progress.update(doc.index, bytes);
  }
  if (documents !== expected) throw changed(`only ${documents}`);
}
