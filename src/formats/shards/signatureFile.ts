/**
 * Signature files: `NAME.npy` (uint64 or uint32 per slot, shape (documents, k),
 * one row per input document in input order; with b-bit slots uint32 rows of
 * band keys and packed slots, src/bands/bBitSlots.ts) and the sidecar `NAME.npy.json`
 * holding the parameters, the ids and which documents were empty.
 *
 * The sidecar is written as a stream (one id per line, batch by batch) but is
 * one plain JSON object at the end, so `json.load` reads it in Python.
 *
 * A name ending in `.parquet` is a Parquet signature file instead (see
 * signatureParquet.ts): the functions here dispatch on the name.
 */
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { toStoredRows } from '../../bands/bBitSlots.js';
import { isEmptySignature, signatureMatrix } from '../../bands/signatureMatrix.js';
import { AtomicFile, partialPath } from '../files/atomicFile.js';
import { NpyWriter, readNpy } from './npy.js';
import { signatureColumns, signatureDtype } from './npyHeader.js';
import { packFingerprints, packsFingerprints, unpackFingerprints } from './simhashNpy.js';
import { paramDifferences, type SignatureParams } from '../../signatures/params.js';
import { isParquetOutput } from '../parquet/parquetFile.js';
import { rowOptionDifferences, SIDECAR_FORMAT, SIDECAR_VERSION, type RowOptions } from './signatureFormat.js';
import { parseHead, readSidecar, sidecarHead, sidecarPath } from './signatureSidecar.js';

export { rowOptionDifferences, type RowOptions } from './signatureFormat.js';
import { ParquetSignatureWriter } from './signatureParquet.js';
import { readParquetSignatureParams, readParquetSignatures } from './signatureParquetRead.js';

export { SIDECAR_FORMAT, SIDECAR_VERSION };

export interface SignatureFile {
  readonly params: SignatureParams;
  /** How the corpus was read (absent in sidecars written before it was recorded). */
  readonly read?: RowOptions;
  readonly ids: string[];
  /** Indexes of documents that had no shingles (all slots all-ones, never clustered). */
  readonly empty: number[];
  /** Little-endian words: (lo, hi) per slot with 64-bit slots, one word per slot with 32-bit slots. */
  readonly words: Uint32Array;
}

/**
 * Streams signature rows and ids out; nothing appears under the final names
 * until commit(). The sidecar puts one id per line, so the `.partial` files of
 * an interrupted run can be cut back to the last whole document and resumed.
 */
export class SignatureWriter {
  private constructor(
    readonly params: SignatureParams,
    private readonly npy: NpyWriter,
    private readonly sidecar: AtomicFile,
    private documents: number,
    private readonly empty: number[],
    /** Ids already written by the interrupted run this writer resumes (empty for a fresh run). */
    readonly resumedIds: readonly string[],
  ) {}

  static async create(npyPath: string, params: SignatureParams, read: RowOptions): Promise<SignatureWriter> {
    const npy = await NpyWriter.create(npyPath, signatureDtype(params), signatureColumns(params));
    const sidecar = await AtomicFile.createResumable(sidecarPath(npyPath));
    await sidecar.write(sidecarHead(params, read));
    return new SignatureWriter(params, npy, sidecar, 0, [], []);
  }

  /**
   * Continues the `.partial` files of an interrupted run writing to `npyPath`,
   * after the last document both files hold wholly. Refuses a run made with
   * other parameters. Without partial files, starts afresh.
   */
  static async resume(npyPath: string, params: SignatureParams, read: RowOptions): Promise<SignatureWriter> {
    const text = await readFile(partialPath(sidecarPath(npyPath)), 'utf8').catch(() => undefined);
    const npyPartial = await stat(partialPath(npyPath)).catch(() => undefined);
    // Nothing to resume unless both halves of the interrupted run are there.
    if (text === undefined || npyPartial === undefined) return SignatureWriter.create(npyPath, params, read);
    const lines = text.split('\n');
    const head = sidecarHead(params, read).slice(0, -1);
    if (lines[0] !== head) {
      const found = parseHead(lines[0]);
      const differences = found
        ? [...paramDifferences(found.params, params), ...rowOptionDifferences(found.read, read)]
        : [];
      if (differences.length === 0) differences.push('the sidecar header is unreadable');
      throw new Error(
        `${npyPath}: cannot resume, the interrupted run used different parameters: ${differences.join('; ')}`,
      );
    }
    // Lines after the head: one id each; the last element follows the final newline (empty or torn).
    const idLines = lines.slice(1, -1);
    const rows = await NpyWriter.partialRows(npyPath, signatureDtype(params), signatureColumns(params));
    const documents = Math.min(idLines.length, rows);
    const ids = idLines
      .slice(0, documents)
      .map((line) => JSON.parse(line.startsWith(',') ? line.slice(1) : line) as string);
    const keptBytes =
      Buffer.byteLength(head + '\n') + idLines.slice(0, documents).reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    const empty = await emptyRows(npyPath, params, documents);
    const npy = await NpyWriter.resume(npyPath, signatureDtype(params), signatureColumns(params), documents);
    const sidecar = await AtomicFile.reopen(sidecarPath(npyPath), keptBytes);
    return new SignatureWriter(params, npy, sidecar, documents, empty, ids);
  }

  /**
   * Appends a batch: `signatures` always has 64-bit slots ((lo, hi) per slot, as
   * backends return them); with 32-bit slots only the low words are written.
   */
  async append(ids: readonly string[], signatures: Uint32Array, emptyFlags: readonly boolean[]): Promise<void> {
    const k = this.params.k;
    if (signatures.length !== ids.length * k * 2) throw new Error('signature batch does not match its ids');
    emptyFlags.forEach((isEmpty, i) => isEmpty && this.empty.push(this.documents + i));
    const { slotBits, bandKeys } = this.params;
    const rows = packsFingerprints(this.params)
      ? packFingerprints(signatures)
      : toStoredRows(signatures, k, slotBits, bandKeys);
    await this.npy.appendRows(rows);
    const lines = ids.map((id, i) => (this.documents + i === 0 ? '' : ',') + JSON.stringify(id) + '\n');
    if (lines.length > 0) await this.sidecar.write(lines.join(''));
    this.documents += ids.length;
  }

  get documentCount(): number {
    return this.documents;
  }

  get emptyCount(): number {
    return this.empty.length;
  }

  /**
   * Writes the tails, then renames the .npy and last the sidecar into place:
   * a finished-looking sidecar is never beside an unfinished array.
   */
  async commit(extra: Record<string, unknown> = {}): Promise<void> {
    const tail = { empty: this.empty, documents: this.documents, ...extra };
    await this.sidecar.write('],' + JSON.stringify(tail).slice(1) + '\n');
    await this.npy.commit();
    await this.sidecar.commit();
  }

  async abort(): Promise<void> {
    await Promise.all([this.npy.abort(), this.sidecar.abort()]);
  }
}

/** What `gpudedup sign` writes to: a .npy + sidecar, or a Parquet file. */
export type SignatureOutput = Pick<
  SignatureWriter,
  'append' | 'commit' | 'abort' | 'documentCount' | 'emptyCount' | 'resumedIds'
>;

export async function openSignatureOutput(
  path: string,
  params: SignatureParams,
  read: RowOptions,
  resume: boolean,
): Promise<SignatureOutput> {
  if (!isParquetOutput(path))
    return resume ? SignatureWriter.resume(path, params, read) : SignatureWriter.create(path, params, read);
  if (resume)
    throw new Error(
      `${path}: --resume needs a .npy output; a Parquet signature file is written whole (its index is at the end)`,
    );
  return ParquetSignatureWriter.create(path, params, read);
}

/**
 * Rows of an interrupted run that are all-ones: its empty documents. A real
 * 64-bit slot is below P; k real 32-bit slots all at 2^32 − 1 has odds 2^−32k.
 */
async function emptyRows(npyPath: string, params: SignatureParams, rows: number): Promise<number[]> {
  const empty: number[] = [];
  let first = 0;
  for await (const words of NpyWriter.readPartialRows(
    npyPath,
    signatureDtype(params),
    signatureColumns(params),
    rows,
  )) {
    const slots = packsFingerprints(params) ? unpackFingerprints(words, params.slotBits) : words;
    const chunk = signatureMatrix(slots, params.k, params.slotBits, params.bandKeys);
    for (let r = 0; r < chunk.count; r++) if (isEmptySignature(chunk, r)) empty.push(first + r);
    first += chunk.count;
  }
  return empty;
}

/**
 * The parameters of a signature file without reading its ids: from the
 * sidecar's first line as written (the ids follow one per line), else from the
 * whole sidecar (one rewritten by another tool).
 */
export async function readSignatureParams(npyPath: string): Promise<SignatureParams> {
  return (await readSignatureHead(npyPath)).params;
}

/** The parameters and read options of a .npy signature file, from its sidecar's first line where it can. */
async function readSignatureHead(npyPath: string): Promise<{ params: SignatureParams; read?: RowOptions }> {
  if (isParquetOutput(npyPath)) return { params: await readParquetSignatureParams(npyPath) };
  const path = sidecarPath(npyPath);
  let head: string | undefined;
  try {
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      head = line;
      break;
    }
    lines.close();
  } catch (error) {
    throw new Error(`${path}: cannot read the signature sidecar (${(error as Error).message})`);
  }
  return (head === undefined ? undefined : parseHead(head)) ?? (await readSidecar(npyPath));
}

/**
 * For `sign --resume` over a finished .npy (no checkpoint left): how its
 * parameters and read options differ from this run's (empty: the same), and
 * its row count from the .npy header.
 */
export async function finishedSignatureDifferences(
  npyPath: string,
  params: SignatureParams,
  read: RowOptions,
): Promise<{ differences: string[]; rows: number }> {
  const found = await readSignatureHead(npyPath);
  const handle = await open(npyPath, 'r');
  const prefix = Buffer.alloc(256);
  try {
    await handle.read(prefix, 0, prefix.length, 0);
  } finally {
    await handle.close();
  }
  const rows = Number(/'shape':\s*\((\d+),/.exec(prefix.toString('latin1'))?.[1] ?? NaN);
  return { differences: [...paramDifferences(found.params, params), ...rowOptionDifferences(found.read, read)], rows };
}

/**
 * Reads a signature file back. With `expected`, refuses a file whose parameters
 * differ, naming each difference; with `read` too, one whose corpus was read
 * with other row options.
 */
export async function readSignatureFile(
  npyPath: string,
  expected?: SignatureParams,
  read?: RowOptions,
): Promise<SignatureFile> {
  if (isParquetOutput(npyPath)) return readParquetSignatures(npyPath, expected, read);
  const sidecar = await readSidecar(npyPath);
  const { params, ids } = sidecar;
  if (expected) {
    const differences = [
      ...paramDifferences(params, expected),
      ...(read ? rowOptionDifferences(sidecar.read, read) : []),
    ];
    if (differences.length > 0) {
      throw new Error(
        `${npyPath}: signatures were made with different parameters (file vs this run): ${differences.join('; ')}`,
      );
    }
  }
  const array = await readNpy(npyPath);
  const dtype = signatureDtype(params);
  if (
    array.dtype !== dtype ||
    array.cols !== signatureColumns(params) ||
    array.rows !== ids.length ||
    sidecar.documents !== ids.length
  ) {
    throw new Error(
      `${npyPath}: does not match its sidecar (array ${array.dtype} ${array.rows}×${array.cols}, ` +
        `sidecar ${dtype} ${ids.length}×${signatureColumns(params)})`,
    );
  }
  const words = packsFingerprints(params) ? unpackFingerprints(array.words, params.slotBits) : array.words;
  return { params, read: sidecar.read, ids, empty: sidecar.empty ?? [], words };
}
