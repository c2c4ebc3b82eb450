/**
 * The reference set of decontamination: every document signed with the corpus's signer and parameters, never
 * deduplicated.
 */
import type { SignedReference } from '../../dedup/dedupSigned.js';
import { signReference } from '../../dedup/signPass.js';
import type { ReadOptions } from '../../io/documents.js';
import { inputUnits } from '../../firstPass/node/inputUnits.js';
import { listInputFiles } from '../../io/readDocuments.js';
import type { FirstPassSigner } from '../../firstPass/signedUnits.js';
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
  return signReference(
    inputUnits(files),
    signer,
    {
      setup: unitSetup(params, read, { kind: 'first' }),
      rows: { k: params.k, slotBits: params.slotBits, bands: params.bandKeys },
      keepSets,
      onInvalid: read.onInvalid,
      onBinary: read.onBinary,
      onDocuments: (documents) => progress.update(documents),
    },
    timings,
  );
}
