/**
 * The exact pre-pass over documents in input order: each one gets its exact
 * group (documents with the same normalized text share one, numbered by first
 * appearance; −1 when it has no tokens) and its keep score, recorded in a
 * DocumentTable. Only the first document of each group goes on to be shingled
 * and signed. The same code runs in Node (pipeline/shared/corpusPass.ts) and the tab.
 */
import { RowStore } from '../bands/rowStore.js';
import { isEmptySignature, rowWords, type SignatureMatrix } from '../bands/signatureMatrix.js';
import type { NormalizeOptions } from '../text/normalize.js';
import { normalizedForExactMatch } from '../text/normalize.js';
import { DocumentTable } from './documentTable.js';
import { ExactDuplicateIndex } from './exactDuplicates.js';
import type { CorpusSignatures } from '../bands/spilledSignatures.js';
import { keepScore, type KeepPolicy } from '../text/keepPolicy.js';

/** The exact pre-pass's table and one signature row per exact group. */
export interface SignedCorpus {
  readonly table: DocumentTable;
  readonly signatures: CorpusSignatures;
}

export class ExactPrePass {
  readonly table = new DocumentTable();
  private readonly index = new ExactDuplicateIndex();
  /** Documents whose keep field was missing or not a number (`field:NAME` only). */
  missingKeepField = 0;

  constructor(
    private readonly normalize: NormalizeOptions,
    private readonly keep: KeepPolicy,
  ) {}

  /** Bytes of its per-document table and its hash table. */
  get bytes(): number {
    return this.table.bytes + this.index.bytes;
  }

  /**
   * Records the next document from its key, hashed by a first-pass worker
   * (words [at, at + 4) of `keys`), and its keep score; `empty` when it has no tokens.
   */
  addKeyed(keys: Uint32Array, at: number, empty: boolean, score: number): { group: number; isNew: boolean } {
    const { group, isNew } = empty ? { group: -1, isNew: false } : this.index.addKey(keys, at);
    this.table.add(group, score);
    return { group, isNew };
  }

  /** Before adding a unit's documents by their keys (4 words each from word 0): ExactDuplicateIndex.touch. */
  touch(keys: Uint32Array, count: number): number {
    return this.index.touch(keys, count);
  }

  /** Records the next document; `isNew` is true when it is the first of a non-empty group (the one to sign). */
  add(text: string, record?: Record<string, unknown>): { group: number; isNew: boolean } {
    const score = keepScore(this.keep, text, record);
    if (score.missing) this.missingKeepField++;
    const normalized = normalizedForExactMatch(text, this.normalize);
    const { group, isNew } = normalized === '' ? { group: -1, isNew: false } : this.index.add(normalized);
    this.table.add(group, score.score);
    return { group, isNew };
  }
}

/**
 * Without the corpus (signatures only), the exact pre-pass groups identical
 * signature rows, i.e. identical shingle sets; all-ones rows are empty documents.
 */
export function groupIdenticalRows(rows: SignatureMatrix): SignedCorpus {
  const table = new DocumentTable();
  const index = new ExactDuplicateIndex();
  const store = new RowStore(rows.k, rows.slotBits, rows.bands);
  const width = rowWords(rows.k, rows.slotBits, rows.bands);
  for (let d = 0; d < rows.count; d++) {
    if (isEmptySignature(rows, d)) {
      table.add(-1, 0);
      continue;
    }
    const row = rows.words.subarray(d * width, (d + 1) * width);
    const { group, isNew } = index.add(new Uint8Array(row.buffer, row.byteOffset, row.byteLength));
    table.add(group, 0);
    if (isNew) store.append(row);
  }
  return { table, signatures: store.joined() };
}
