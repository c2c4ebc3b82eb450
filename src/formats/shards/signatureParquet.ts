/**
 * Signatures as Parquet (`gpudedup sign -o sigs.parquet`): one row per input
 * document in input order, columns `id` (string) and `s0` … `s{k-1}`, one per
 * slot, UINT64 (INT64 annotated unsigned; UINT32 with `--slot-bits 32`). The
 * file's key-value metadata holds, under `gpudedup`, the sidecar as JSON
 * without its ids: format, version, params, documents, empty, backend.
 *
 * One column per slot rather than a list column: readers get plain unsigned
 * integer columns (DuckDB UBIGINT, pandas uint64, polars UInt64) that they scan
 * without unnesting, and a row group's slot is one contiguous array.
 * `df[[f"s{i}" for i in range(k)]].to_numpy()` is the .npy's matrix.
 *
 * Written whole: `--resume` is .npy only (Parquet's index is at the end).
 */
import type { SchemaElement } from 'hyparquet';
import { fromSignerWords, rowWords, type FullSlotBits } from '../../bands/signatureMatrix.js';
import type { SignatureParams } from '../../signatures/params.js';
import { ParquetFile, type ColumnValues } from '../parquet/parquetFile.js';
import { rowOptionsOf, SIDECAR_FORMAT, SIDECAR_VERSION, type RowOptions } from './signatureFormat.js';

export const METADATA_KEY = 'gpudedup';
/** Rows per row group: 16 MB of 64-bit signatures at k = 128. */
const ROW_GROUP = 16_384;

export function slotColumn(i: number): string {
  return `s${i}`;
}

/** Slots are uniformly random: no dictionary, no min/max. */
const RANDOM = { encoding: 'PLAIN', statistics: false } as const;

function signatureSchema(params: SignatureParams): SchemaElement[] {
  const slot = (i: number): SchemaElement =>
    params.slotBits === 64
      ? { name: slotColumn(i), type: 'INT64', converted_type: 'UINT_64', repetition_type: 'REQUIRED' }
      : { name: slotColumn(i), type: 'INT32', converted_type: 'UINT_32', repetition_type: 'REQUIRED' };
  return [
    { name: 'schema', num_children: params.k + 1 },
    { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    ...Array.from({ length: params.k }, (_, i) => slot(i)),
  ];
}

/** The `gpudedup sign` writer for `.parquet` outputs; the same surface as SignatureWriter. */
export class ParquetSignatureWriter {
  private ids: string[] = [];
  /** Buffered rows in the layout of `params.slotBits` (see signatureMatrix.ts). */
  private words: Uint32Array[] = [];
  private documents = 0;
  private readonly empty: number[] = [];
  private extra: Record<string, unknown> = {};
  readonly resumedIds: readonly string[] = [];

  private constructor(
    readonly params: SignatureParams & { readonly slotBits: FullSlotBits },
    private readonly read: RowOptions,
    private readonly path: string,
    private file: ParquetFile | undefined,
  ) {}

  static async create(path: string, params: SignatureParams, read: RowOptions): Promise<ParquetSignatureWriter> {
    if (!isFullSlotBits(params.slotBits))
      throw new RangeError(
        `${path}: Parquet signature files hold 32- or 64-bit slots; write --slot-bits ${params.slotBits} to a .npy`,
      );
    return new ParquetSignatureWriter({ ...params, slotBits: params.slotBits }, rowOptionsOf(read), path, undefined);
  }

  /** `signatures`: (lo, hi) words per slot, as backends return them. */
  async append(ids: readonly string[], signatures: Uint32Array, emptyFlags: readonly boolean[]): Promise<void> {
    const k = this.params.k;
    if (signatures.length !== ids.length * k * 2) throw new Error('signature batch does not match its ids');
    this.file ??= await ParquetFile.create(this.path, signatureSchema(this.params), { compression: 'none' });
    emptyFlags.forEach((isEmpty, i) => isEmpty && this.empty.push(this.documents + i));
    this.ids.push(...ids);
    this.words.push(fromSignerWords(signatures, this.params.slotBits));
    this.documents += ids.length;
    if (this.ids.length >= ROW_GROUP) await this.flush();
  }

  get documentCount(): number {
    return this.documents;
  }

  get emptyCount(): number {
    return this.empty.length;
  }

  /** Slot-major columns of the buffered rows: slot i of every row, as one typed array each. */
  private async flush(): Promise<void> {
    if (this.ids.length === 0 || this.file === undefined) return;
    const { k, slotBits } = this.params;
    const rows = this.ids.length;
    const width = rowWords(k, slotBits);
    const words = concat(this.words);
    const columns: ColumnValues[] = [{ name: 'id', data: this.ids }];
    for (let i = 0; i < k; i++) {
      if (slotBits === 64) {
        const column = new Uint32Array(rows * 2);
        for (let r = 0; r < rows; r++) {
          column[2 * r] = words[r * width + 2 * i];
          column[2 * r + 1] = words[r * width + 2 * i + 1];
        }
        columns.push({
          name: slotColumn(i),
          data: new BigUint64Array(column.buffer) as unknown as unknown[],
          ...RANDOM,
        });
      } else {
        // A plain array of numbers: hyparquet-writer 0.17 turns a typed array for UINT_32 into one it then rejects.
        const column = new Array<number>(rows);
        for (let r = 0; r < rows; r++) column[r] = words[r * width + i];
        columns.push({ name: slotColumn(i), data: column, ...RANDOM });
      }
    }
    this.ids = [];
    this.words = [];
    await this.file.writeRowGroup(columns);
  }

  /** Writes the last row group and the footer with the parameters, then renames into place. */
  async commit(extra: Record<string, unknown> = {}): Promise<void> {
    this.extra = extra;
    this.file ??= await ParquetFile.create(this.path, signatureSchema(this.params), { compression: 'none' });
    await this.flush();
    this.file.setMetadata({ [METADATA_KEY]: JSON.stringify(this.metadata()) });
    await this.file.commit();
  }

  private metadata(): Record<string, unknown> {
    return {
      format: SIDECAR_FORMAT,
      version: SIDECAR_VERSION,
      params: this.params,
      read: this.read,
      documents: this.documents,
      empty: this.empty,
      ...this.extra,
    };
  }

  async abort(): Promise<void> {
    await this.file?.abort();
  }
}

function concat(parts: readonly Uint32Array[]): Uint32Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function isFullSlotBits(bits: number): bits is FullSlotBits {
  return bits === 32 || bits === 64;
}
