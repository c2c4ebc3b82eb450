/**
 * Signing for the index: the project's first pass (src/firstPass) over texts
 * held in memory, without the exact pre-pass, so every non-empty text gets
 * its row, its exact key and (when asked) its shingle set. The signer is the
 * caller's: Web Workers or this thread in the tab, worker threads or this
 * thread in Node. Browser-safe.
 */
import { fromSignerWords } from '../bands/signatureMatrix.js';
import { textUnits } from '../clusters/dedupDocuments.js';
import type { ReadSetup } from '../firstPass/protocol.js';
import { rowsOfEveryDocument, selectedSet, signedUnits, type FirstPassSigner } from '../firstPass/signedUnits.js';
import { firstPassHandler } from '../firstPass/handler.js';
import { InlineWorkers, type FirstPassSources } from '../firstPass/ports.js';
import { hashFamilyOf, shingleOptionsOf } from '../signatures/params.js';
import { WasmSigner } from '../signatures/wasmSigner.js';
import { signatureParamsOf, type IndexParameters } from './options.js';

/** Texts signed: row d of `words` is text d's (slotBits layout), empty texts all-ones. */
export interface SignedTexts {
  readonly count: number;
  /** count·k words (32-bit slots) or count·2k words (64-bit slots). */
  readonly words: Uint32Array;
  /** 4 words per text: the exact pre-pass key of its normalized text (zero when empty). */
  readonly exactKeys: Uint32Array;
  /** 1 where the text has no tokens: never a duplicate of anything (as dedup's exact pre-pass). */
  readonly empty: Uint8Array;
  /** Shingle sets as (lo, hi) pairs, when asked for; an empty text's is empty. */
  readonly sets?: readonly Uint32Array[];
}

const MEMORY_READ = { textField: 'text', idField: 'id', skipInvalid: false, strict: false } as const;

export async function signTexts(texts: readonly string[], signer: FirstPassSigner, parameters: IndexParameters, keepSets: boolean): Promise<SignedTexts> {
  const { k, slotBits } = parameters;
  const rowWidth = slotBits === 64 ? 2 * k : k;
  const setup: ReadSetup = { read: MEMORY_READ, shingle: shingleOptionsOf(signatureParamsOf(parameters)), keep: { kind: 'first' } };
  const words = new Uint32Array(texts.length * rowWidth);
  const exactKeys = new Uint32Array(texts.length * 4);
  const empty = new Uint8Array(texts.length);
  const sets: Uint32Array[] = [];
  let at = 0;
  const units = textUnits(texts.map((text, i) => ({ id: String(i), text })));
  for await (const unit of signedUnits(units, signer, { setup, keepSets })) {
    const { count } = unit.documents;
    words.set(fromSignerWords(rowsOfEveryDocument(unit, k), slotBits), at * rowWidth);
    exactKeys.set(unit.documents.exactKeys.subarray(0, 4 * count), at * 4);
    empty.set(unit.documents.empty.subarray(0, count), at);
    if (keepSets) {
      let s = 0;
      for (let d = 0; d < count; d++) sets.push(unit.documents.empty[d] === 1 ? new Uint32Array(0) : selectedSet(unit, s++)!.slice());
    }
    at += count;
  }
  if (at !== texts.length) throw new Error(`index signing: ${texts.length} texts in, ${at} signed`);
  return { count: texts.length, words, exactKeys, empty, sets: keepSets ? sets : undefined };
}

/**
 * A signer on this thread with the fastest CPU kernel that loads (wasm SIMD,
 * scalar wasm, TypeScript): no worker round trip, for queries and small adds,
 * and for the tab's index when it has no workers to spare.
 */
export function inlineIndexSigner(parameters: IndexParameters): FirstPassSigner {
  const family = hashFamilyOf(signatureParamsOf(parameters));
  const backend = new WasmSigner(family);
  const noFiles: FirstPassSources = {
    readWhole: () => Promise.reject(new Error('no files here: documents come from memory')),
    openParquet: () => Promise.reject(new Error('no files here: documents come from memory')),
  };
  return { backend, workers: new InlineWorkers(firstPassHandler(noFiles)), cpu: { kernel: backend.kernelName, family } };
}
