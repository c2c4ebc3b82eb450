/**
 * Signature files: `NAME.npy` (uint64 or uint32 per slot, shape (documents, k),
 * one row per input document in input order) and the sidecar `NAME.npy.json`
 * holding the parameters, the ids and which documents were empty.
 *
 * The sidecar is written as a stream (ids go out batch by batch) but is one
 * plain JSON object at the end, so `json.load` reads it in Python.
 */
import { readFile } from 'node:fs/promises';
import { AtomicFile } from './atomicFile.js';
import { NpyWriter, readNpy } from './npy.js';
import { paramDifferences, type SignatureParams } from '../signatures/params.js';

export const SIDECAR_FORMAT = 'gpudedup-signatures';
export const SIDECAR_VERSION = 1;

export function sidecarPath(npyPath: string): string {
  return `${npyPath}.json`;
}

export interface SignatureFile {
  readonly params: SignatureParams;
  readonly ids: string[];
  /** Indexes of documents that had no shingles (all slots all-ones, never clustered). */
  readonly empty: number[];
  /** Little-endian words: (lo, hi) per slot with 64-bit slots, one word per slot with 32-bit slots. */
  readonly words: Uint32Array;
}

/** Streams signature rows and ids out; nothing appears under the final names until commit(). */
export class SignatureWriter {
  private documents = 0;
  private readonly empty: number[] = [];

  private constructor(
    readonly params: SignatureParams,
    private readonly npy: NpyWriter,
    private readonly sidecar: AtomicFile,
  ) {}

  static async create(npyPath: string, params: SignatureParams): Promise<SignatureWriter> {
    const npy = await NpyWriter.create(npyPath, params.slotBits === 64 ? '<u8' : '<u4', params.k);
    const sidecar = await AtomicFile.create(sidecarPath(npyPath));
    const head = { format: SIDECAR_FORMAT, version: SIDECAR_VERSION, params };
    await sidecar.write(JSON.stringify(head).slice(0, -1) + ',"ids":[');
    return new SignatureWriter(params, npy, sidecar);
  }

  /**
   * Appends a batch: `signatures` always has 64-bit slots ((lo, hi) per slot, as
   * backends return them); with 32-bit slots only the low words are written.
   */
  async append(ids: readonly string[], signatures: Uint32Array, emptyFlags: readonly boolean[]): Promise<void> {
    const k = this.params.k;
    if (signatures.length !== ids.length * k * 2) throw new Error('signature batch does not match its ids');
    emptyFlags.forEach((isEmpty, i) => isEmpty && this.empty.push(this.documents + i));
    await this.npy.appendRows(this.params.slotBits === 64 ? signatures : lowWords(signatures));
    const prefix = this.documents === 0 ? '' : ',';
    if (ids.length > 0) await this.sidecar.write(prefix + ids.map((id) => JSON.stringify(id)).join(','));
    this.documents += ids.length;
  }

  get documentCount(): number {
    return this.documents;
  }

  get emptyCount(): number {
    return this.empty.length;
  }

  /** Writes the tails, then renames the sidecar and finally the .npy into place. */
  async commit(extra: Record<string, unknown> = {}): Promise<void> {
    const tail = { empty: this.empty, documents: this.documents, ...extra };
    await this.sidecar.write('],' + JSON.stringify(tail).slice(1) + '\n');
    await this.sidecar.commit();
    await this.npy.commit();
  }

  async abort(): Promise<void> {
    await Promise.all([this.npy.abort(), this.sidecar.abort()]);
  }
}

function lowWords(pairs: Uint32Array): Uint32Array {
  const out = new Uint32Array(pairs.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = pairs[2 * i];
  return out;
}

/**
 * Reads a signature file back. With `expected`, refuses a file whose parameters
 * differ, naming each difference.
 */
export async function readSignatureFile(npyPath: string, expected?: SignatureParams): Promise<SignatureFile> {
  let sidecar: { format?: string; version?: number; params?: SignatureParams; ids?: string[]; empty?: number[]; documents?: number };
  try {
    sidecar = JSON.parse(await readFile(sidecarPath(npyPath), 'utf8'));
  } catch (error) {
    throw new Error(`${sidecarPath(npyPath)}: cannot read the signature sidecar (${(error as Error).message})`);
  }
  if (sidecar.format !== SIDECAR_FORMAT || sidecar.version !== SIDECAR_VERSION || !sidecar.params || !sidecar.ids) {
    throw new Error(`${sidecarPath(npyPath)}: not a ${SIDECAR_FORMAT} v${SIDECAR_VERSION} sidecar`);
  }
  const { params, ids } = sidecar;
  if (expected) {
    const differences = paramDifferences(params, expected);
    if (differences.length > 0) {
      throw new Error(
        `${npyPath}: signatures were made with different parameters (file vs this run): ${differences.join('; ')}`,
      );
    }
  }
  const array = await readNpy(npyPath);
  const dtype = params.slotBits === 64 ? '<u8' : '<u4';
  if (array.dtype !== dtype || array.cols !== params.k || array.rows !== ids.length || sidecar.documents !== ids.length) {
    throw new Error(
      `${npyPath}: does not match its sidecar (array ${array.dtype} ${array.rows}×${array.cols}, ` +
        `sidecar ${dtype} ${ids.length}×${params.k})`,
    );
  }
  return { params, ids, empty: sidecar.empty ?? [], words: array.words };
}
