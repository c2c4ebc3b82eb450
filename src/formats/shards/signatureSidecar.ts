/**
 * The .npy signature file's sidecar (signatureFile.ts): its path, its first line (the parameters and read
 * options, written before the ids) and the whole file read back.
 */
import { readFile } from 'node:fs/promises';
import type { SignatureParams } from '../../signatures/params.js';
import { rowOptionsOf, SIDECAR_FORMAT, SIDECAR_VERSION, type RowOptions } from './signatureFormat.js';

export function sidecarPath(npyPath: string): string {
  return `${npyPath}.json`;
}

/** The sidecar's first line: the object up to the opening of its `ids` array. */
export function sidecarHead(params: SignatureParams, read: RowOptions): string {
  return (
    JSON.stringify({ format: SIDECAR_FORMAT, version: SIDECAR_VERSION, params, read: rowOptionsOf(read) }).slice(
      0,
      -1,
    ) + ',"ids":[\n'
  );
}

/** The parameters (and read options) in a sidecar's first line, or undefined if it is not one of ours. */
export function parseHead(line: string): { params: SignatureParams; read?: RowOptions } | undefined {
  try {
    const head = JSON.parse(line + ']}') as {
      format?: string;
      version?: number;
      params?: SignatureParams;
      read?: RowOptions;
    };
    return head.format === SIDECAR_FORMAT && head.version === SIDECAR_VERSION && head.params
      ? { params: head.params, read: head.read }
      : undefined;
  } catch {
    return undefined;
  }
}

export interface Sidecar {
  readonly params: SignatureParams;
  readonly read?: RowOptions;
  readonly ids: string[];
  readonly empty?: number[];
  readonly documents?: number;
}

export async function readSidecar(npyPath: string): Promise<Sidecar> {
  let sidecar: Partial<Sidecar> & { format?: string; version?: number };
  try {
    sidecar = JSON.parse(await readFile(sidecarPath(npyPath), 'utf8'));
  } catch (error) {
    throw new Error(`${sidecarPath(npyPath)}: cannot read the signature sidecar (${(error as Error).message})`);
  }
  if (sidecar.format !== SIDECAR_FORMAT || sidecar.version !== SIDECAR_VERSION || !sidecar.params || !sidecar.ids) {
    throw new Error(`${sidecarPath(npyPath)}: not a ${SIDECAR_FORMAT} v${SIDECAR_VERSION} sidecar`);
  }
  return sidecar as Sidecar;
}
