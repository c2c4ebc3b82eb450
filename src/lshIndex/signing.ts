/**
 * Signing for the index: the project's first pass (src/firstPass) over texts
 * held in memory, with its exact pre-pass: every non-empty text gets its
 * row, its exact key and (when asked) its shingle set, each distinct text
 * shingled and signed once. The signer is the
 * caller's: Web Workers or this thread in the tab, worker threads or this
 * thread in Node. Browser-safe.
 */
import { fromSignerWords } from '../bands/signatureMatrix.js';
import { textUnits } from '../dedup/dedupDocuments.js';
import type { ReadSetup } from '../firstPass/protocol.js';
import { ExactPrePass } from '../exact/exactPrePass.js';
import { selectedSet, signedUnits, type FirstPassSigner } from '../firstPass/signedUnits.js';
import { EMPTY_SLOT_WORD } from '../signatures/backend.js';
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

/**
 * Signs `texts`; `onSigned(signed, from, to)` is called as each run of them
 * is ready (texts [from, to) filled in), while the workers sign the next, so
 * that deciding overlaps signing.
 */
export async function signTexts(
  texts: readonly string[],
  signer: FirstPassSigner,
  parameters: IndexParameters,
  keepSets: boolean,
  onSigned?: (signed: SignedTexts, from: number, to: number) => void,
): Promise<SignedTexts> {
  const { k, slotBits } = parameters;
  const rowWidth = slotBits === 64 ? 2 * k : k;
  const shingle = shingleOptionsOf(signatureParamsOf(parameters));
  const setup: ReadSetup = { read: MEMORY_READ, shingle, keep: { kind: 'first' } };
  const words = new Uint32Array(texts.length * rowWidth);
  const exactKeys = new Uint32Array(texts.length * 4);
  const empty = new Uint8Array(texts.length);
  const sets: Uint32Array[] = [];
  const signed: SignedTexts = { count: texts.length, words, exactKeys, empty, sets: keepSets ? sets : undefined };
  // The exact pre-pass: a text equal (normalized) to an earlier one of the call is neither shingled nor
  // signed again; it gets that one's row and set.
  const prePass = new ExactPrePass(shingle.normalize, { kind: 'first' });
  const firstOf: number[] = []; // group → the text that holds its row
  const noSet = new Uint32Array(0);
  let at = 0;
  const units = textUnits(texts.map((text, i) => ({ id: String(i), text })));
  for await (const unit of signedUnits(units, signer, { setup, prePass, keepSets })) {
    const { count } = unit.documents;
    exactKeys.set(unit.documents.exactKeys.subarray(0, 4 * count), at * 4);
    empty.set(unit.documents.empty.subarray(0, count), at);
    let s = 0;
    for (let d = 0; d < count; d++) {
      const doc = at + d;
      const group = unit.groups[d];
      if (group < 0) {
        // no tokens: every slot all-ones, as signing gives
        words.fill(EMPTY_SLOT_WORD, doc * rowWidth, (doc + 1) * rowWidth);
        if (keepSets) sets.push(noSet);
      } else if (s < unit.selected.length && unit.selected[s] === d) {
        words.set(fromSignerWords(unit.signatures.subarray(s * 2 * k, (s + 1) * 2 * k), slotBits), doc * rowWidth);
        if (keepSets) sets.push(selectedSet(unit, s)!.slice());
        firstOf[group] = doc;
        s++;
      } else {
        const first = firstOf[group];
        words.copyWithin(doc * rowWidth, first * rowWidth, (first + 1) * rowWidth);
        if (keepSets) sets.push(sets[first]);
      }
    }
    onSigned?.(signed, at, at + count);
    at += count;
  }
  if (at !== texts.length) throw new Error(`index signing: ${texts.length} texts in, ${at} signed`);
  return signed;
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
  return {
    backend,
    workers: new InlineWorkers(firstPassHandler(noFiles)),
    cpu: { kernel: backend.kernelName, family },
  };
}
