/**
 * The clusters and pairs tables (CSV or JSON Lines) made on the stage workers: each worker formats a range of rows
 * (src/dedup/tableRows.ts) and this thread appends the ranges' bytes in order, so the writing pass's main thread no
 * longer builds a row per document and per pair. Parquet tables, and runs without shared memory or a second thread,
 * keep the rows on this thread (writeOutputs.ts).
 */
import type { TableRowsPool } from '../../dedup/node/stageWorkers.js';
import type { PackedIds, TableRowsRequest, TableRowsResponse } from '../../dedup/tableRows.js';
import type { Assignment } from '../../clusters/assignment.js';
import type { PairColumns } from '../../dedup/outputRows.js';
import type { RowFormat } from '../../formats/files/tableWriter.js';
import type { RowTable } from '../../formats/openTable.js';

/** Rows a request: a few MiB of text. */
const RANGE_ROWS = 1 << 16;

/** A table that takes rows formatted elsewhere. */
export type FormattedTable = RowTable & Required<Pick<RowTable, 'format' | 'formatted'>>;

export function takesFormattedRows(table: RowTable | undefined): table is FormattedTable {
  return table?.format !== undefined && table.formatted !== undefined;
}

/** Every document's row of the clusters table, in ranges. */
export function* clusterRequests(
  format: RowFormat,
  ids: PackedIds,
  assignment: Assignment,
): Generator<TableRowsRequest> {
  const documents = assignment.cluster.length;
  for (let from = 0; from < documents; from += RANGE_ROWS) {
    const to = Math.min(documents, from + RANGE_ROWS);
    const cluster = assignment.cluster.slice(from, to);
    yield { type: 'table rows', table: 'clusters', format, ids, from, cluster, kept: assignment.kept.slice(from, to) };
  }
}

/** Every verified pair's row, in ranges, each text named by its group's first document. */
export function* pairRequests(
  format: RowFormat,
  ids: PackedIds,
  firstDocument: Int32Array,
  verified: PairColumns,
  rangeRows = RANGE_ROWS,
): Generator<TableRowsRequest> {
  for (let from = 0; from < verified.a.length; from += rangeRows) {
    const to = Math.min(verified.a.length, from + rangeRows);
    const pairs = {
      a: verified.a.slice(from, to),
      b: verified.b.slice(from, to),
      estimate: verified.estimate.slice(from, to),
      exact: verified.exact?.slice(from, to),
    };
    yield { type: 'table rows', table: 'pairs', format, ids, firstDocument, pairs };
  }
}

/** Each request's rows appended to `table` in order, two requests in flight a worker. */
export async function writeRowsOnWorkers(
  pool: TableRowsPool,
  table: FormattedTable,
  requests: Iterable<TableRowsRequest>,
): Promise<void> {
  const pending = requests[Symbol.iterator]();
  const inFlight: Promise<TableRowsResponse>[] = [];
  let sent = 0;
  const issue = (): void => {
    const next = pending.next();
    if (next.done) return;
    const answer = pool.request(sent++ % pool.size, next.value);
    answer.catch(() => undefined); // awaited in order below; a later one failing first is not unhandled meanwhile
    inFlight.push(answer);
  };
  for (let i = 0; i < 2 * pool.size; i++) issue();
  while (inFlight.length > 0) {
    const { rows } = await inFlight.shift()!;
    issue();
    if (rows === undefined) throw new Error('internal: a stage worker answered table rows with something else');
    const waiting = table.formatted(rows);
    if (waiting !== undefined) await waiting;
  }
}
