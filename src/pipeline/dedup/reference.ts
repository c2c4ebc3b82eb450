/** The reference set of decontamination: every document signed with the corpus's signer and parameters, never deduplicated. */
import { unitId } from '../../firstPass/protocol.js';
import { RowStore } from '../../bands/rowStore.js';
import { toStoredRows } from '../../bands/bBitSlots.js';
import type { SignedReference } from '../../dedup/dedupSigned.js';
import type { ReadOptions } from '../../io/documents.js';
import { inputUnits } from '../../firstPass/node/inputUnits.js';
import { listInputFiles } from '../../io/readDocuments.js';
import { rowsOfEveryDocument, selectedSet, signedUnits, type FirstPassSigner } from '../../firstPass/signedUnits.js';
import type { SignatureParams } from '../../signatures/params.js';
import type { SignedPassTimings } from '../../firstPass/signedUnits.js';
import type { StageProgress } from '../shared/config.js';
import { unitSetup } from '../shared/corpusPass.js';

export async function signReferenceSet(
  paths: readonly string[],
  params: SignatureParams,
  read: ReadOptions,
  signer: FirstPassSigner,
  /** Keep the shingle sets (exact verification compares them). */
  keepSets: boolean,
  progress: StageProgress,
  timings: SignedPassTimings,
): Promise<SignedReference> {
  const files = await listInputFiles(paths);
  const ids: string[] = [];
  const sets: Uint32Array[] = [];
  const store = new RowStore(params.k, params.slotBits, params.bandKeys);
  const units = signedUnits(inputUnits(files), signer, { setup: unitSetup(params, read, { kind: 'first' }), onInvalid: read.onInvalid, onBinary: read.onBinary, keepSets }, timings);
  for await (const unit of units) {
    for (let d = 0; d < unit.documents.count; d++) ids.push(unitId(unit.documents, d));
    store.append(toStoredRows(rowsOfEveryDocument(unit, params.k), params.k, params.slotBits, params.bandKeys));
    if (keepSets) everySet(unit, sets); // the first pass's own sets: no second shingling
    progress.update(ids.length);
  }
  return { ids, rows: store.joined(), sets: keepSets ? sets : undefined };
}

/** The unit's sets in document order, an empty document's empty. */
function everySet(unit: Parameters<typeof rowsOfEveryDocument>[0], into: Uint32Array[]): void {
  let s = 0;
  for (let d = 0; d < unit.documents.count; d++) into.push(unit.documents.empty[d] === 1 ? new Uint32Array(0) : selectedSet(unit, s++)!);
}
