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
import type { ShardRowGroup, ShardWriter } from '../../formats/shards/shardFile.js';
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
  /** Writes document d's id as the row group's next (addId, or addIdBytes where the id came as bytes). */
  id(d: number, out: ShardRowGroup): void;
  position(d: number): number;
  /** The text's length in UTF-16 code units. */
  length(d: number): number;
  /** With a score column. */
  score?(d: number): number;
  /** With text ranges: document d's, or undefined where it has none. */
  range?(d: number): ShardTextRange | undefined;
  /** With text ranges, in one file: each document's first byte and end (no object a row, as `range` makes). */
  rangeWords?: { readonly file: number; readonly starts: Float64Array; readonly ends: Float64Array };
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

/**
 * Appends the batch's rows to `writer`, each column written straight into its row group (no object a row: the
 * shards' main thread collected them); returns the number of empty documents written.
 */
export function appendRows(
  writer: ShardWriter,
  rows: SignedRows,
  config: { readonly params: SignatureParams; readonly lsh: LshParams },
): number {
  const { k } = config.params;
  const slotBits = config.params.slotBits as FullSlotBits; // runSignShard refused the others
  const matrix = signatureMatrix(fromSignerWords(rows.signatures, slotBits), k, slotBits);
  const simhash = schemeOf(config.params) === 'simhash';
  const columns = writer.columns;
  const out = writer.buffer;
  const exact = rows.exactKeys; // the workers' exact keys: the very keys dedup's exact pre-pass groups by
  let empty = 0;
  for (let d = 0; d < rows.count; d++) {
    const at = out.count;
    const isEmpty = rows.empty[d] === 1;
    if (isEmpty) empty++;
    rows.id(d, out);
    out.position[at] = rows.position(d);
    if (!isEmpty) {
      out.hasExact[at] = 1;
      for (let w = 0; w < 4; w++) out.exactWords[4 * at + w] = exact[4 * d + w];
    }
    out.length[at] = rows.length(d);
    bandRow(matrix, d, isEmpty, config.lsh, out.bandWords, at);
    if (simhash) fingerprintRow(isEmpty ? -1n : packedFingerprint(matrix, d), out.slotWords[0], at);
    else slotRow(matrix, d, out.slotWords, at);
    if (columns.sets) out.shingles.push(required(rows.set?.(d), 'shingle sets'));
    if (columns.score) out.score[at] = required(rows.score?.(d), 'keep scores');
    if (columns.texts) textRow(rows, d, out, at);
    writer.rowFilled();
  }
  return empty;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`internal: this shard stores ${what}, and a row came without`);
  return value;
}

/** Row d's band keys into each band's column at row `at` (0 for an empty document). */
function bandRow(
  matrix: SignatureMatrix,
  d: number,
  isEmpty: boolean,
  lsh: LshParams,
  columns: readonly Uint32Array[],
  at: number,
): void {
  for (let j = 0; j < lsh.bands; j++)
    if (isEmpty) columns[j][2 * at] = columns[j][2 * at + 1] = 0;
    else bandKey(matrix, d, j, lsh, columns[j], 2 * at);
}

/** Row d's slots into each slot's column at row `at`: a 64-bit slot's (lo, hi) as they are, a 32-bit one's value. */
function slotRow(matrix: SignatureMatrix, d: number, columns: readonly Uint32Array[], at: number): void {
  const { k, slotBits, words } = matrix;
  for (let i = 0; i < k; i++) {
    const column = columns[i];
    column[2 * at] = slotBits === 64 ? words[2 * (d * k + i)] : words[d * k + i];
    column[2 * at + 1] = slotBits === 64 ? words[2 * (d * k + i) + 1] : 0;
  }
}

const fingerprintWords = new Uint32Array(2);
const fingerprintValue = new BigInt64Array(fingerprintWords.buffer);

function fingerprintRow(fingerprint: bigint, column: Uint32Array, at: number): void {
  fingerprintValue[0] = fingerprint;
  column[2 * at] = fingerprintWords[0];
  column[2 * at + 1] = fingerprintWords[1];
}

function textRow(rows: SignedRows, d: number, out: ShardRowGroup, at: number): void {
  const words = rows.rangeWords;
  if (words !== undefined) {
    out.textFile[at] = words.file;
    out.textStart[at] = words.starts[d];
    out.textBytes[at] = words.ends[d] - words.starts[d];
    return;
  }
  const range = required(rows.range?.(d), 'text ranges');
  out.textFile[at] = range.file;
  out.textStart[at] = range.start;
  out.textBytes[at] = range.bytes;
}
