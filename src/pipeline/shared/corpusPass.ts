/**
 * The first pass over the corpus: every document is read once and goes
 * through the exact pre-pass (src/exact/exactPrePass.ts: its group and keep
 * score); the first of each non-empty group is signed (src/firstPass, in
 * worker threads), or, with presigned signatures, its row taken and checked.
 * Row g of the matrix is group g.
 */
import { locationOf, type InputDocument, type ReadOptions } from '../../io/documents.js';
import { readDocuments, type InputFile } from '../../io/readDocuments.js';
import { RowStore, type RowSpill } from '../../bands/rowStore.js';
import { isEmptySignature, rowWords, type SignatureMatrix } from '../../bands/signatureMatrix.js';
import type { SignedCorpus } from '../../dedup/dedupSigned.js';
import { ExactPrePass } from '../../exact/exactPrePass.js';
import type { KeepPolicy } from '../../text/keepPolicy.js';
import { shingleOptionsOf, type SignatureParams } from '../../signatures/params.js';
import type { SignedPassTimings } from '../../firstPass/signedUnits.js';
import type { DocumentRecords } from '../../firstPass/documentRecords.js';
import type { InputUnit, ReadSetup } from '../../firstPass/protocol.js';
import type { SetSpool } from '../../firstPass/setSpool.js';
import type { FirstPassSigner } from '../../firstPass/signedUnits.js';
import { signCorpus } from '../../dedup/signPass.js';
import { inputUnits } from '../../firstPass/node/inputUnits.js';
import { requireUniqueIds } from '../../exact/uniqueIds.js';

export interface CorpusPassResult extends SignedCorpus {
  /** Documents whose keep field was missing or not a number (field:NAME only). */
  readonly missingKeepField: number;
  /** Every group's shingle set from the signing pass, for exact Jaccard (when it was asked to keep them). */
  readonly sets?: SetSpool;
  /** Every document's id and byte range, for the writing pass (the signing pass only). */
  readonly records?: DocumentRecords;
}

export interface CorpusPassOptions {
  readonly params: SignatureParams;
  readonly keep: KeepPolicy;
  readonly read: ReadOptions;
  readonly onDocument?: (documents: number) => void;
  /** Where to keep every signed group's shingle set (exact and hybrid verification); none: they are not kept. */
  readonly sets?: SetSpool;
  /** Spill the signed rows to disk past a size (the signing pass only: presigned rows are in memory already). */
  readonly spill?: RowSpill;
  /**
   * Told after each unit the bytes of the signing pass's per-document tables (the exact pre-pass, the id
   * check, the records for writing): they count against the memory limit (dedup.ts gives the sets less room).
   */
  readonly onTablesBytes?: (bytes: number) => void;
}

/** Presigned rows of every input document (from `gpudedup sign`). */
export interface Presigned {
  readonly ids: readonly string[];
  readonly rows: SignatureMatrix;
}

/**
 * Bytes of input a first-pass unit of dedup (and of `sign --shard` on JSON Lines, shardSources.ts), 2 MiB: the main
 * thread's work per unit (six messages and their promises, rows and sets to append) took a third of its time in the
 * pass at lineUnits.ts's 512 KiB (1 M documents: its CPU in read + sign 2.80 → 1.73 s, load ~20); a unit in flight
 * holds a few MiB more in its worker.
 */
export const DEDUP_UNIT_BYTES = 1 << 21;

/** The corpus as dedup's first pass reads it: units of DEDUP_UNIT_BYTES. */
export function dedupUnits(files: readonly InputFile[], onBytes?: (bytes: number) => void): AsyncGenerator<InputUnit> {
  return inputUnits(files, onBytes, { bytes: DEDUP_UNIT_BYTES });
}

/**
 * The first pass (src/firstPass): the workers read, parse and key every
 * document; the first of each exact group is shingled and signed (in the
 * workers on the CPU, by `signer.backend` with a GPU), adding to `timings`.
 */
export async function signingPass(
  files: readonly InputFile[],
  options: CorpusPassOptions,
  signer: FirstPassSigner,
  timings: SignedPassTimings,
): Promise<CorpusPassResult> {
  const { k, slotBits, bandKeys } = options.params;
  const pass = await signCorpus(
    dedupUnits(files, options.read.onBytes),
    signer,
    {
      setup: unitSetup(options.params, options.read, options.keep),
      rows: { k, slotBits, bands: bandKeys },
      spill: options.spill,
      sets: options.sets,
      onInvalid: options.read.onInvalid,
      onBinary: options.read.onBinary,
      onUnit: (tablesBytes, documents) => {
        options.onTablesBytes?.(tablesBytes);
        options.onDocument?.(documents);
      },
    },
    timings,
  );
  return {
    table: pass.table,
    signatures: pass.signatures,
    missingKeepField: pass.missingKeepField,
    sets: options.sets,
    records: pass.records,
  };
}

/** What every first-pass read of a run shares. */
export function unitSetup(params: SignatureParams, read: ReadOptions, keep: KeepPolicy): ReadSetup {
  return {
    read: {
      textField: read.textField,
      idField: read.idField,
      skipInvalid: read.skipInvalid,
      strict: read.strict ?? false,
    },
    shingle: shingleOptionsOf(params),
    keep,
  };
}

/** Takes each group's row from presigned signatures, checking that they are this corpus's. */
export async function presignedPass(
  files: readonly InputFile[],
  options: CorpusPassOptions,
  presigned: Presigned,
): Promise<CorpusPassResult> {
  const prePass = new ExactPrePass(options.params.normalize, options.keep);
  const store = new RowStore(presigned.rows.k, presigned.rows.slotBits, presigned.rows.bands);
  const check = new PresignedCheck(presigned.ids, presigned.rows);
  const width = rowWords(presigned.rows.k, presigned.rows.slotBits, presigned.rows.bands);
  for await (const doc of firstOfEachGroup(files, options, prePass, check)) {
    store.append(presigned.rows.words.subarray(doc.index * width, (doc.index + 1) * width));
  }
  if (prePass.table.documents !== presigned.ids.length) {
    throw new Error(
      `the signatures cover ${presigned.ids.length} documents but the input has ${prePass.table.documents}: not the ` +
        `corpus that was signed`,
    );
  }
  return { table: prePass.table, signatures: store.finish(), missingKeepField: prePass.missingKeepField };
}

/** Records every document in the pre-pass; passes on those that start a new non-empty group. */
async function* firstOfEachGroup(
  files: readonly InputFile[],
  options: CorpusPassOptions,
  prePass: ExactPrePass,
  check?: PresignedCheck,
): AsyncGenerator<InputDocument> {
  for await (const doc of requireUniqueIds(readDocuments(files, options.read))) {
    if (check !== undefined) checkPresignedId(check.ids, doc);
    const { group, isNew } = prePass.add(doc.text, doc.record);
    check?.checkRow(doc, group);
    if (isNew) yield doc;
    options.onDocument?.(prePass.table.documents);
  }
}

function checkPresignedId(ids: readonly string[], doc: InputDocument): void {
  const where = locationOf(doc);
  if (doc.index >= ids.length) {
    throw new Error(
      `${where}: the input has more documents than the signatures (${ids.length}): not the corpus that was signed`,
    );
  }
  if (ids[doc.index] !== doc.id) {
    throw new Error(
      `${where}: document ${doc.index} is "${doc.id}" but the signatures have "${ids[doc.index]}" there: not the ` +
        `corpus that was signed`,
    );
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
    this.width = rowWords(rows.k, rows.slotBits, rows.bands);
  }

  /** `group` is the document's exact group, −1 when its text is empty. */
  checkRow(doc: InputDocument, group: number): void {
    if (doc.index >= this.rows.count) return; // checkPresignedId refuses it
    const fail = (reason: string): never => {
      const where = locationOf(doc);
      throw new Error(
        `${where}: document "${doc.id}" ${reason}: not the corpus that was signed (or not the same --text-field)`,
      );
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
      if (words[a + w] !== words[b + w])
        fail(`repeats the text of document ${this.firstOfGroup[group]} but not its signature`);
    }
  }
}
