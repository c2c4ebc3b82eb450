/** The reference set of decontamination: every document signed with the corpus's signer and parameters, never deduplicated. */
import { RowStore } from '../bands/rowStore.js';
import { toStoredRows } from '../bands/bBitSlots.js';
import type { SignedReference } from '../clusters/dedupSigned.js';
import type { InputDocument, ReadOptions } from '../io/documents.js';
import { listInputFiles, readDocuments } from '../io/readDocuments.js';
import type { Shingler } from '../shingles/shingler.js';
import type { SignerBackend } from '../signatures/backend.js';
import { shingleOptionsOf, type SignatureParams } from '../signatures/params.js';
import { signDocuments, type PipelineTimings } from '../signatures/signDocuments.js';
import type { StageProgress } from './config.js';

export async function signReferenceSet(
  paths: readonly string[],
  params: SignatureParams,
  read: ReadOptions,
  signer: { readonly backend: SignerBackend; readonly shingler?: Shingler },
  /** Keep the shingle sets (exact verification compares them). */
  keepSets: boolean,
  progress: StageProgress,
  timings: PipelineTimings,
): Promise<SignedReference> {
  const files = await listInputFiles(paths);
  const ids: string[] = [];
  const sets: Uint32Array[] = [];
  const store = new RowStore(params.k, params.slotBits, params.bandKeys);
  async function* documents(): AsyncGenerator<InputDocument> {
    for await (const doc of readDocuments(files, read)) {
      ids.push(doc.id);
      yield doc;
    }
  }
  const pipeline = { shingle: shingleOptionsOf(params), shingler: signer.shingler };
  for await (const batch of signDocuments(documents(), signer.backend, pipeline, timings)) {
    store.append(toStoredRows(batch.signatures, params.k, params.slotBits, params.bandKeys));
    if (keepSets) sets.push(...batch.sets); // the pipeline's own sets: no second shingling
    progress.update(ids.length);
  }
  return { ids, rows: store.joined(), sets: keepSets ? sets : undefined };
}
