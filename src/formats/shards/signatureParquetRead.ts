/**
 * Reading a Parquet signature file back (signatureParquet.ts: the format and its writer): the parameters from
 * its key-value metadata, or the whole file checked against them.
 */
import { parquetMetadataAsync, parquetRead, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { localParquetFile } from '../../io/localParquetFile.js';
import { isEmptySignature, rowWords, signatureMatrix } from '../../bands/signatureMatrix.js';
import { paramDifferences, type SignatureParams } from '../../signatures/params.js';
import { rowOptionDifferences, SIDECAR_FORMAT, SIDECAR_VERSION, type RowOptions } from './signatureFormat.js';
import { METADATA_KEY, slotColumn } from './signatureParquet.js';

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
        storeSlots(words, width, slotBits, i, rowStart, columnData as ArrayLike<bigint | number>);
      },
    }).catch((error: Error) => (failure = error));
    if (failure) throw new Error(`${path}: cannot read the signatures (${failure.message})`);
    const matrix = signatureMatrix(words, k, slotBits);
    const empty: number[] = [];
    for (let r = 0; r < rows; r++) if (isEmptySignature(matrix, r)) empty.push(r);
    return { params, read: head.read, ids, empty, words };
  });
}

/** Slot `i` of rows rowStart… (one decoded column chunk) into their rows of `words`. */
function storeSlots(
  words: Uint32Array,
  width: number,
  slotBits: number,
  i: number,
  rowStart: number,
  values: ArrayLike<bigint | number>,
): void {
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
}
