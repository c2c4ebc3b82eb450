/** Exact verification's extra pass: the shingle sets of the flagged exact groups, from each group's first document. */
import type { DocumentTable } from '../clusters/documentTable.js';
import type { ReadOptions } from '../io/documents.js';
import type { InputFile } from '../io/readDocuments.js';
import { shingleDocument, type ShingleOptions } from '../shingles/shingles.js';
import type { StageProgress } from './config.js';
import { rereadCorpus } from './reread.js';

export async function loadShingleSets(
  files: readonly InputFile[],
  read: ReadOptions,
  shingle: ShingleOptions,
  table: DocumentTable,
  needed: Uint8Array,
  progress: StageProgress,
): Promise<(Uint32Array | undefined)[]> {
  if (files.length === 0) throw new Error('--verify exact needs the corpus: the shingle sets are recomputed from the text');
  const sets: (Uint32Array | undefined)[] = new Array(needed.length);
  for await (const doc of rereadCorpus(files, read, table.documents, 'for --verify exact', progress)) {
    const g = table.group(doc.index);
    if (g >= 0 && needed[g] === 1 && sets[g] === undefined) sets[g] = shingleDocument(doc.text, shingle);
  }
  return sets;
}
