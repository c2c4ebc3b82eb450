/**
 * Dedup's clusters and pairs tables formatted in ranges, as `formatRow` writes them, so that worker threads make the
 * rows and the writing thread only appends bytes (src/pipeline/dedup/tablesOnWorkers.ts). Every input is a typed
 * array: the ids shared once (UTF-8, as the first pass recorded them), the columns posted per range.
 */
import { csvCell } from '../formats/files/csv.js';
import { sixDecimals } from '../format.js';
import { grown } from '../typedArrays.js';
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
  if (!request.format.jsonl) return csvRows(request);
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

/**
 * CSV rows written as bytes, as formatRow writes them: cells as csvCell gives them (numbers as String writes them),
 * the ids' UTF-8 copied where it is ASCII with nothing to quote (else decoded and quoted as csvCell does).
 */
function csvRows(request: TableRowsRequest): Uint8Array {
  const out = new CsvBytes(request.ids);
  if (request.table === 'clusters') {
    const { cluster, kept, from } = request;
    for (let i = 0; i < cluster.length; i++) {
      out.id(from + i);
      out.byte(0x2c);
      out.ascii(String(cluster[i]));
      out.ascii(kept[i] === 1 ? ',true\n' : ',false\n');
    }
  } else {
    const { pairs, firstDocument } = request;
    // As pairRow's cells: six decimals, exact Jaccard where it was computed (an empty cell for NaN).
    const { estimate, exact } = pairs;
    for (let i = 0; i < pairs.a.length; i++) {
      out.id(firstDocument[pairs.a[i]]);
      out.byte(0x2c);
      out.id(firstDocument[pairs.b[i]]);
      out.byte(0x2c);
      out.sixDecimals(estimate[i]);
      if (exact !== undefined) {
        out.byte(0x2c);
        if (!Number.isNaN(exact[i])) out.sixDecimals(exact[i]);
      }
      out.byte(0x0a);
    }
  }
  return out.bytes.subarray(0, out.length);
}

class CsvBytes {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();

  constructor(private readonly ids: PackedIds) {}

  /** Document d's id as a CSV cell. */
  id(d: number): void {
    const { bytes, ends } = this.ids;
    const from = d === 0 ? 0 : ends[d - 1];
    const to = ends[d];
    this.room(to - from);
    const out = this.bytes;
    let at = this.length;
    for (let i = from; i < to; i++) {
      const b = bytes[i];
      // Past ASCII, or a comma, quote or line break: csvCell's way, on the decoded text.
      if (b >= 0x80 || b === 0x2c || b === 0x22 || b === 0x0d || b === 0x0a) {
        this.text(csvCell(this.decoder.decode(bytes.subarray(from, to))));
        return;
      }
      out[at++] = b;
    }
    this.length = at;
  }

  /**
   * String(sixDecimals(x)), written as digits where it lies in [0, 1]: there String(k / 10⁶) is k / 10⁶'s decimals
   * without trailing zeros, for every integer k of [0, 10⁶] (checked for all of them by test/dedup/tableRows.test.ts).
   */
  sixDecimals(x: number): void {
    const k = Math.round(x * 1e6);
    if (!(k > 0 && k < 1e6)) {
      this.ascii(String(sixDecimals(x)));
      return;
    }
    this.room(8);
    const out = this.bytes;
    out[this.length++] = 0x30;
    out[this.length++] = 0x2e;
    let digits = 6;
    let rest = k;
    while (rest % 10 === 0) {
      rest /= 10;
      digits--;
    }
    for (let i = digits - 1; i >= 0; i--) {
      out[this.length + i] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    this.length += digits;
  }

  byte(b: number): void {
    this.room(1);
    this.bytes[this.length++] = b;
  }

  /** ASCII text. */
  ascii(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.bytes[this.length++] = text.charCodeAt(i);
  }

  private text(text: string): void {
    this.room(3 * text.length);
    this.length += this.encoder.encodeInto(text, this.bytes.subarray(this.length)).written;
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.bytes.length) return;
    this.bytes = grown(this.bytes, Math.max(2 * this.bytes.length, this.length + bytes));
  }
}

/** The handler a worker thread serves: the rows, transferred. */
export function tableRowsHandler() {
  return (request: TableRowsRequest): { response: TableRowsResponse; transfer: ArrayBuffer[] } => {
    const rows = tableRows(request);
    return { response: { rows }, transfer: [rows.buffer as ArrayBuffer] };
  };
}
