/**
 * The first pass over the corpus: every document is read once, grouped with
 * earlier identical normalized texts (the exact pre-pass), given its keep
 * score, and — the first of its group only, and only if it has text — signed.
 * Signatures come back in group order, so row g of the matrix is group g.
 */
import { locationOf, type InputDocument, type ReadOptions } from '../io/documents.js';
import { readDocuments, type InputFile } from '../io/readDocuments.js';
import { fromSignerWords, isEmptySignature, rowWords, signatureMatrix, type SignatureMatrix } from '../bands/signatureMatrix.js';
import type { SignerBackend } from '../signatures/backend.js';
import { shingleOptionsOf, type SignatureParams } from '../signatures/params.js';
import { signDocuments, type PipelineTimings } from '../signatures/signDocuments.js';
import type { Shingler } from '../shingles/shingler.js';
import { DocumentTable } from '../clusters/documentTable.js';
import { ExactDuplicateIndex } from '../clusters/exactDuplicates.js';
import { normalizedForExactMatch } from '../text/normalize.js';
import { keepScore, type KeepPolicy } from '../clusters/keepPolicy.js';

export interface CorpusPassResult {
  readonly table: DocumentTable;
  /** One row per exact group; empty documents have no group and no row. */
  readonly signatures: SignatureMatrix;
  /** Documents whose keep field was missing or not a number (field:NAME only). */
  readonly missingKeepField: number;
  readonly timings: PipelineTimings;
}

export interface CorpusPassOptions {
  readonly params: SignatureParams;
  readonly keep: KeepPolicy;
  readonly read: ReadOptions;
  /** Signs the groups' texts; omit to take rows from `presigned` instead. */
  readonly backend?: SignerBackend;
  /** Shingles them for it (default: this thread). */
  readonly shingler?: Shingler;
  /** Signatures of every input document (from `gpudedup sign`), used instead of signing. */
  readonly presigned?: { readonly ids: readonly string[]; readonly rows: SignatureMatrix };
  readonly onDocument?: (documents: number) => void;
}

export async function corpusPass(files: readonly InputFile[], options: CorpusPassOptions): Promise<CorpusPassResult> {
  const { params, keep } = options;
  const table = new DocumentTable();
  const exact = new ExactDuplicateIndex();
  const store = new RowStore(params.k, params.slotBits);
  const timings: PipelineTimings = { shingleMs: 0, signMs: 0 };
  let missingKeepField = 0;
  const presigned = options.presigned === undefined ? undefined : new PresignedCheck(options.presigned.ids, options.presigned.rows);

  // Records every document; passes on those that start a new non-empty group.
  async function* firstOfEachGroup(): AsyncGenerator<InputDocument> {
    for await (const doc of readDocuments(files, options.read)) {
      const score = keepScore(keep, doc.text, doc.record);
      if (score.missing) missingKeepField++;
      const normalized = normalizedForExactMatch(doc.text, params.normalize);
      if (presigned !== undefined) checkPresignedId(presigned.ids, doc);
      if (normalized === '') {
        presigned?.checkRow(doc, -1);
        table.add(-1, score.score);
      } else {
        const { group, isNew } = exact.add(normalized);
        presigned?.checkRow(doc, group);
        table.add(group, score.score);
        if (isNew) yield doc;
      }
      options.onDocument?.(table.documents);
    }
  }

  if (options.presigned !== undefined) {
    const { rows } = options.presigned;
    const row = rowWords(rows.k, rows.slotBits);
    for await (const doc of firstOfEachGroup()) store.append(rows.words.subarray(doc.index * row, (doc.index + 1) * row));
    if (table.documents !== options.presigned.ids.length) {
      throw new Error(
        `the signatures cover ${options.presigned.ids.length} documents but the input has ${table.documents}: not the corpus that was signed`,
      );
    }
  } else {
    if (options.backend === undefined) throw new Error('corpusPass needs a backend or presigned signatures');
    const pipeline = { shingle: shingleOptionsOf(params), shingler: options.shingler };
    const batches = signDocuments(firstOfEachGroup(), options.backend, pipeline, timings);
    for await (const batch of batches) store.append(fromSignerWords(batch.signatures, params.slotBits));
  }
  return { table, signatures: store.finish(), missingKeepField, timings };
}

function checkPresignedId(ids: readonly string[], doc: InputDocument): void {
  const where = locationOf(doc);
  if (doc.index >= ids.length) {
    throw new Error(`${where}: the input has more documents than the signatures (${ids.length}): not the corpus that was signed`);
  }
  if (ids[doc.index] !== doc.id) {
    throw new Error(`${where}: document ${doc.index} is "${doc.id}" but the signatures have "${ids[doc.index]}" there: not the corpus that was signed`);
  }
}

/**
 * Beyond the ids: the text read must fit the row signed for it. An empty text
 * needs an empty row and a non-empty one a real row, and exact duplicates (the
 * same normalized text) need identical rows. A corpus edited since signing, or
 * read with another --text-field, is refused when it breaks any of these.
 */
class PresignedCheck {
  private readonly firstOfGroup: number[] = [];
  private readonly width: number;

  constructor(
    readonly ids: readonly string[],
    private readonly rows: SignatureMatrix,
  ) {
    this.width = rowWords(rows.k, rows.slotBits);
  }

  /** `group` is the document's exact group, −1 when its text is empty. */
  checkRow(doc: InputDocument, group: number): void {
    if (doc.index >= this.rows.count) return; // checkPresignedId refuses it
    const fail = (reason: string): never => {
      const where = locationOf(doc);
      throw new Error(`${where}: document "${doc.id}" ${reason}: not the corpus that was signed (or not the same --text-field)`);
    };
    const empty = isEmptySignature(this.rows, doc.index);
    if (group < 0) {
      if (!empty) fail('has no text but its signature is not empty');
      return;
    }
    if (empty) fail('has text but its signature is empty');
    if (group === this.firstOfGroup.length) {
      this.firstOfGroup.push(doc.index);
      return;
    }
    const { words } = this.rows;
    const a = this.firstOfGroup[group] * this.width;
    const b = doc.index * this.width;
    for (let w = 0; w < this.width; w++) {
      if (words[a + w] !== words[b + w]) fail(`repeats the text of document ${this.firstOfGroup[group]} but not its signature`);
    }
  }
}

/** Signature rows appended batch by batch, joined once at the end (peak: twice the rows, briefly). */
export class RowStore {
  private chunks: Uint32Array[] = [];
  private words = 0;

  constructor(
    readonly k: number,
    readonly slotBits: 32 | 64,
  ) {}

  append(rows: Uint32Array): void {
    this.chunks.push(rows.slice());
    this.words += rows.length;
  }

  finish(): SignatureMatrix {
    const all = new Uint32Array(this.words);
    let at = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    this.chunks = [];
    return signatureMatrix(all, this.k, this.slotBits);
  }
}
