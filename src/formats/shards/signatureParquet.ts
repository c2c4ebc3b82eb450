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
import { parquetMetadataAsync, parquetRead, type AsyncBuffer, type FileMetaData, type SchemaElement } from 'hyparquet';
import { localParquetFile } from '../../io/localParquetFile.js';
import {
  fromSignerWords,
  isEmptySignature,
  rowWords,
  signatureMatrix,
  type FullSlotBits,
} from '../../bands/signatureMatrix.js';
import { paramDifferences, type SignatureParams } from '../../signatures/params.js';
import { ParquetFile, type ColumnValues } from '../parquet/parquetFile.js';
import {
  rowOptionDifferences,
  rowOptionsOf,
  SIDECAR_FORMAT,
  SIDECAR_VERSION,
  type RowOptions,
} from './signatureFormat.js';

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

interface SignatureMetadata {
  readonly format?: string;
  readonly version?: number;
  readonly params?: SignatureParams;
  readonly read?: RowOptions;
  readonly documents?: number;
  readonly empty?: number[];
}

async function openSignatureParquet<T>(
  path: string,
  use: (file: AsyncBuffer, metadata: FileMetaData, head: SignatureMetadata & { params: SignatureParams }) => Promise<T>,
): Promise<T> {
  const parquet = await localParquetFile(path, () => undefined).catch((error: Error) => {
    throw new Error(`${path}: cannot read the signature file (${error.message})`);
  });
  try {
    let metadata: FileMetaData;
    try {
      metadata = await parquetMetadataAsync(parquet.file);
    } catch (error) {
      throw new Error(`${path}: not a readable Parquet file (${(error as Error).message})`);
    }
    const entry = metadata.key_value_metadata?.find((kv) => kv.key === METADATA_KEY)?.value;
    let head: SignatureMetadata | undefined;
    try {
      head = entry === undefined ? undefined : (JSON.parse(entry) as SignatureMetadata);
    } catch {
      head = undefined;
    }
    if (head?.format !== SIDECAR_FORMAT || head.version !== SIDECAR_VERSION || head.params === undefined) {
      throw new Error(
        `${path}: not a ${SIDECAR_FORMAT} v${SIDECAR_VERSION} Parquet file (no "${METADATA_KEY}" key-value metadata ` +
          `of that format)`,
      );
    }
    return await use(parquet.file, metadata, head as SignatureMetadata & { params: SignatureParams });
  } finally {
    await parquet.close();
  }
}

export function readParquetSignatureParams(path: string): Promise<SignatureParams> {
  return openSignatureParquet(path, async (_file, _metadata, head) => head.params);
}

/**
 * Refuses a file whose columns (id, then k slot columns of the slots' width) or row count are not those its metadata
 * gives.
 */
function checkColumns(
  path: string,
  metadata: FileMetaData,
  head: SignatureMetadata & { params: SignatureParams },
): void {
  const { k, slotBits } = head.params;
  const rows = Number(metadata.num_rows);
  const names = metadata.schema.slice(1).map((e) => e.name);
  const wanted = ['id', ...Array.from({ length: k }, (_, i) => slotColumn(i))];
  const integer = slotBits === 64 ? 'INT64' : 'INT32';
  const slotsOk = metadata.schema.slice(2).every((e) => e.type === integer && (e.num_children ?? 0) === 0);
  if (names.join(',') !== wanted.join(',') || !slotsOk || (head.documents !== undefined && head.documents !== rows)) {
    throw new Error(
      `${path}: does not match its metadata (${rows} rows, columns ` +
        `${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}; ` +
        `metadata: ${head.documents} documents, id + ${k} ${slotBits === 64 ? 'UINT64' : 'UINT32'} slot columns s0…s${k - 1})`,
    );
  }
}

/** Reads the file back; with `expected`, refuses other parameters, naming each difference. */
export function readParquetSignatures(
  path: string,
  expected?: SignatureParams,
  read?: RowOptions,
): Promise<{ params: SignatureParams; read?: RowOptions; ids: string[]; empty: number[]; words: Uint32Array }> {
  return openSignatureParquet(path, async (file, metadata, head) => {
    const { params } = head;
    if (expected) {
      const differences = [
        ...paramDifferences(params, expected),
        ...(read ? rowOptionDifferences(head.read, read) : []),
      ];
      if (differences.length > 0) {
        throw new Error(
          `${path}: signatures were made with different parameters (file vs this run): ${differences.join('; ')}`,
        );
      }
    }
    checkColumns(path, metadata, head);
    const { k, slotBits } = params;
    const rows = Number(metadata.num_rows);
    const width = rowWords(k, slotBits);
    const words = new Uint32Array(rows * width);
    const ids: string[] = new Array(rows);
    let failure: Error | undefined;
    await parquetRead({
      file,
      metadata,
      onChunk: ({ columnName, columnData, rowStart }) => {
        if (columnName === 'id') {
          for (let r = 0; r < columnData.length; r++) ids[rowStart + r] = String(columnData[r]);
          return;
        }
        const i = Number(columnName.slice(1));
        const values = columnData as ArrayLike<bigint | number>;
        if (values instanceof BigInt64Array || values instanceof BigUint64Array) {
          // Little-endian words straight from the decoded array: no BigInt per value.
          const pairs = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
          for (let r = 0; r < values.length; r++) {
            const at = (rowStart + r) * width + 2 * i;
            words[at] = pairs[2 * r];
            words[at + 1] = pairs[2 * r + 1];
          }
        } else if (slotBits === 64) {
          for (let r = 0; r < values.length; r++) {
            const v = BigInt.asUintN(64, BigInt(values[r]));
            const at = (rowStart + r) * width + 2 * i;
            words[at] = Number(v & 0xffffffffn);
            words[at + 1] = Number(v >> 32n);
          }
        } else {
          for (let r = 0; r < values.length; r++) words[(rowStart + r) * width + i] = Number(values[r]) >>> 0;
        }
      },
    }).catch((error: Error) => (failure = error));
    if (failure) throw new Error(`${path}: cannot read the signatures (${failure.message})`);
    const matrix = signatureMatrix(words, k, slotBits);
    const empty: number[] = [];
    for (let r = 0; r < rows; r++) if (isEmptySignature(matrix, r)) empty.push(r);
    return { params, read: head.read, ids, empty, words };
  });
}

function isFullSlotBits(bits: number): bits is FullSlotBits {
  return bits === 32 || bits === 64;
}
