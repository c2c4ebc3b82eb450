/**
 * Dedup's clusters and pairs tables formatted in ranges, as `formatRow` writes them, so that worker threads make the
 * rows and the writing thread only appends bytes (src/pipeline/dedup/tablesOnWorkers.ts). Every input is a typed
 * array: the ids shared once (UTF-8, as the first pass recorded them), the columns posted per range.
 */
import { formatRow, type RowFormat } from '../formats/files/tableWriter.js';
import { clusterRow, pairRow, type PairColumns } from './outputRows.js';

/** Every document's id: document d's UTF-8 is bytes [ends[d − 1], ends[d]) (ends[−1] = 0). */
export interface PackedIds {
  readonly bytes: Uint8Array;
  readonly ends: Float64Array;
}

/** Rows of documents [from, from + cluster.length): their cluster numbers and kept flags. */
export interface ClusterRowsRequest {
  readonly type: 'table rows';
  readonly table: 'clusters';
  readonly format: RowFormat;
  readonly ids: PackedIds;
  readonly from: number;
  readonly cluster: Uint32Array;
  readonly kept: Uint8Array;
}

/** Rows of a range of verified pairs, each text named by its first document (`firstDocument`, per group). */
export interface PairRowsRequest {
  readonly type: 'table rows';
  readonly table: 'pairs';
  readonly format: RowFormat;
  readonly ids: PackedIds;
  readonly firstDocument: Int32Array;
  readonly pairs: PairColumns;
}

export type TableRowsRequest = ClusterRowsRequest | PairRowsRequest;

export interface TableRowsResponse {
  /** The rows' lines, UTF-8. */
  readonly rows?: Uint8Array;
}

/** The requested rows as UTF-8 (a fresh buffer, to be transferred). */
export function tableRows(request: TableRowsRequest): Uint8Array {
  const decoder = new TextDecoder();
  const { bytes, ends } = request.ids;
  const id = (d: number): string => decoder.decode(bytes.subarray(d === 0 ? 0 : ends[d - 1], ends[d]));
  let text = '';
  if (request.table === 'clusters') {
    const assignment = { cluster: request.cluster, kept: request.kept };
    for (let i = 0; i < request.cluster.length; i++)
      text += formatRow(request.format, clusterRow({ assignment }, i, id(request.from + i)));
  } else {
    const { pairs, firstDocument } = request;
    const idOfGroup = (g: number): string => id(firstDocument[g]);
    for (let i = 0; i < pairs.a.length; i++) text += formatRow(request.format, pairRow(pairs, i, idOfGroup));
  }
  return new TextEncoder().encode(text);
}

/** The handler a worker thread serves: the rows, transferred. */
export function tableRowsHandler() {
  return (request: TableRowsRequest): { response: TableRowsResponse; transfer: ArrayBuffer[] } => {
    const rows = tableRows(request);
    return { response: { rows }, transfer: [rows.buffer as ArrayBuffer] };
  };
}
