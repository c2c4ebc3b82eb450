/**
 * An index weighted by idf keeps its document-frequency table beside its manifest, as `idf-table.bin` (idfTable.ts's
 * format), written once when the index is created (diskIndex.ts): every later add, query and server signs with the
 * same weights, and the manifest's `parameters.idf` (the table's identity) says which table that is. Browser-safe:
 * the callers read and write the bytes (manifest.ts and diskIndex.ts on disk, snapshot.ts through its reader).
 */
import { decodeIdfTable, encodeIdfTable } from '../shingles/idfTable.js';
import { idfTableFor, idfTableLoaded, registerIdfTable } from '../shingles/idfWeights.js';
import { CorruptIndexError } from './errors.js';
import type { IndexParameters } from './options.js';

export const IDF_TABLE = 'idf-table.bin';

/** Whether these parameters weigh by an idf table not loaded yet in this process. */
export function needsIdfTable(parameters: IndexParameters): boolean {
  return parameters.weights === 'idf' && parameters.idf !== undefined && !idfTableLoaded(parameters.idf);
}

/** The file bytes of an idf-weighted index's table (the table must be loaded: counted or read); else undefined. */
export function indexIdfBytes(parameters: IndexParameters): Uint8Array | undefined {
  return parameters.weights === 'idf' ? encodeIdfTable(idfTableFor(parameters.idf)) : undefined;
}

/** Registers the table read from `path`, checked against the identity the manifest records. */
export function registerIndexIdf(bytes: Uint8Array, path: string, parameters: IndexParameters): void {
  const table = decodeIdfTable(bytes, path);
  if (table.identity !== parameters.idf)
    throw new CorruptIndexError(path, `it is table ${table.identity}, the manifest records ${parameters.idf}`);
  registerIdfTable(table);
}
