/**
 * Rows of a `sign --shard` shard from signed documents, whichever way they were read (signShard.ts): on this thread
 * (texts signed by the workers), or by the first pass's workers themselves (shardUnits.ts), each document then named
 * by its unit's tables.
 */
import { bandKey } from '../../bands/bandKeys.js';
import type { LshParams } from '../../bands/lshParams.js';
import {
  type FullSlotBits,
  fromSignerWords,
  signatureMatrix,
  type SignatureMatrix,
} from '../../bands/signatureMatrix.js';
import type { ShardWriter } from '../../formats/shards/shardFile.js';
import { schemeOf, type SignatureParams } from '../../signatures/params.js';

/** Where a document's text lies: file index, first byte, bytes. */
export interface ShardTextRange {
  readonly file: number;
  readonly start: number;
  readonly bytes: number;
}

/** A batch of signed documents to write, every document with its row (an empty one's all-ones). */
export interface SignedRows {
  readonly count: number;
  id(d: number): string;
  position(d: number): number;
  /** The text's length in UTF-16 code units. */
  length(d: number): number;
  /** With a score column. */
  score?(d: number): number;
  /** With text ranges. */
  range?(d: number): ShardTextRange | undefined;
  /** 4 words a document: its exact key (all zero when empty). */
  readonly exactKeys: Uint32Array;
  /** 1 for an empty document. */
  readonly empty: Uint8Array;
  /** count·k·2 words, 64-bit slots as (lo, hi). */
  readonly signatures: Uint32Array;
  /** With shingle lists: document d's set. */
  set?(d: number): Uint32Array;
}

/** The shard's slot columns: k, or SimHash's one fingerprint (`slot_0`, its 64 one-bit slots packed: shardFile.ts). */
export function slotColumns(params: SignatureParams): number {
  return schemeOf(params) === 'simhash' ? 1 : params.k;
}

/**
 * A SimHash signature's fingerprint from its 64 one-bit slots (row d of the matrix), as a signed INT64. Only a
 * document without elements has other slots (all-ones), and that is an empty one (no token, no shingle; an idf
 * weight is at least 1), which the shard marks empty.
 */
function packedFingerprint(matrix: SignatureMatrix, d: number): bigint {
  const { k, slotBits, words } = matrix;
  let fingerprint = 0n;
  for (let i = k - 1; i >= 0; i--) {
    const low = slotBits === 64 ? words[(d * k + i) * 2] : words[d * k + i];
    fingerprint = (fingerprint << 1n) | BigInt(low & 1);
  }
  return BigInt.asIntN(64, fingerprint);
}

/** Appends the batch's rows to `writer`; returns the number of empty documents written. */
export function appendRows(
  writer: ShardWriter,
  rows: SignedRows,
  config: { readonly params: SignatureParams; readonly lsh: LshParams },
): number {
  const { k } = config.params;
  const slotBits = config.params.slotBits as FullSlotBits; // runSignShard refused the others
  const { bands } = config.lsh;
  const matrix = signatureMatrix(fromSignerWords(rows.signatures, slotBits), k, slotBits);
  // Band keys and slots as (lo, hi) words of signed INT64s, through BigInt64Array views: no BigInt per value.
  const bandKeys = new BigInt64Array(bands);
  const bandWords = new Uint32Array(bandKeys.buffer);
  const simhash = schemeOf(config.params) === 'simhash';
  const slots = new BigInt64Array(slotColumns(config.params));
  const slotWords = new Uint32Array(slots.buffer);
  // The workers' exact keys: the very keys dedup's exact pre-pass groups by.
  const exact = rows.exactKeys;
  let empty = 0;
  for (let d = 0; d < rows.count; d++) {
    const isEmpty = rows.empty[d] === 1;
    if (isEmpty) empty++;
    if (isEmpty) bandWords.fill(0);
    else for (let j = 0; j < bands; j++) bandKey(matrix, d, j, config.lsh, bandWords, 2 * j);
    if (simhash) slots[0] = isEmpty ? -1n : packedFingerprint(matrix, d);
    else slotRow(matrix, d, slotWords);
    const e = 4 * d;
    writer.push(
      rows.id(d),
      rows.position(d),
      isEmpty ? null : exact.subarray(e, e + 4),
      rows.length(d),
      bandKeys,
      slots,
      rows.set?.(d),
      rows.score?.(d),
      rows.range?.(d),
    );
  }
  return empty;
}

/** Row d's slots as INT64 words: a 64-bit slot's (lo, hi) as they are, a 32-bit slot's value unsigned (hi 0). */
function slotRow(matrix: SignatureMatrix, d: number, out: Uint32Array): void {
  const { k, slotBits, words } = matrix;
  if (slotBits === 64) out.set(words.subarray(2 * d * k, 2 * (d + 1) * k));
  else
    for (let i = 0; i < k; i++) {
      out[2 * i] = words[d * k + i];
      out[2 * i + 1] = 0;
    }
}
