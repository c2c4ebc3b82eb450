/**
 * Exact Jaccard's extra pass (--verify exact, hybrid): the shingle sets of the flagged exact groups, from each
 * group's first document, in corpus order until they total `budgetBytes` (the sets' share of --memory-limit).
 */
import type { DocumentTable } from '../../exact/documentTable.js';
import type { ReadOptions } from '../../io/documents.js';
import type { InputFile } from '../../io/readDocuments.js';
import { shingleDocument, type ShingleOptions } from '../../shingles/shingles.js';
import type { StageProgress } from '../shared/config.js';
import { rereadCorpus } from './reread.js';

export async function loadShingleSets(
  files: readonly InputFile[],
  read: ReadOptions,
  shingle: ShingleOptions,
  table: DocumentTable,
  needed: Uint8Array,
  progress: StageProgress,
  budgetBytes = Number.POSITIVE_INFINITY,
): Promise<(Uint32Array | undefined)[]> {
  if (files.length === 0)
    throw new Error('--verify exact and hybrid need the corpus: the shingle sets are recomputed from the text');
  const sets: (Uint32Array | undefined)[] = new Array(needed.length);
  let remaining = needed.reduce((sum, flag) => sum + flag, 0);
  let bytes = 0;
  if (remaining === 0) return sets;
  for await (const doc of rereadCorpus(files, read, table.documents, 'for exact Jaccard', progress)) {
    const g = table.group(doc.index);
    if (g >= 0 && needed[g] === 1 && sets[g] === undefined) {
      const set = shingleDocument(doc.text, shingle);
      bytes += set.byteLength;
      if (bytes > budgetBytes) break; // the memory limit: the rest are decided by the estimate
      sets[g] = set;
      if (--remaining === 0) break; // the rest of the corpus holds none of them: the writing pass checks it again
    }
  }
  return sets;
}
