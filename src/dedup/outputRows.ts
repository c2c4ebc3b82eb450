/**
 * The rows of dedup's tables, built once for the CLI's files
 * (src/pipeline/dedup/writeOutputs.ts) and the tab's downloads
 * (web/workerOutputs.ts), which write them as CSV, JSON Lines or Parquet:
 *
 * - clusters: `id, cluster, kept`, one row per input document;
 * - contamination: `id, reference, similarity, estimate`, one row per corpus
 *   document removed because it matched the reference set;
 * - pairs: `id_a, id_b, estimate[, exact]`, one row per verified pair of
 *   distinct texts, each named by the first document of its text.
 */
import type { Assignment } from '../clusters/assignment.js';
import type { DocumentTable } from '../exact/documentTable.js';
import { sixDecimals } from '../format.js';
import type { Cell } from '../formats/files/csv.js';
import type { ScalarType } from '../formats/parquet/parquetSchema.js';
import type { VerifiedPairs } from '../verify/verification.js';
import type { Contamination } from './dedupSigned.js';

export type OutputColumn = readonly [name: string, type: ScalarType];

export const CLUSTER_COLUMNS: readonly OutputColumn[] = [
  ['id', 'STRING'],
  ['cluster', 'INT64'],
  ['kept', 'BOOLEAN'],
];
export const CONTAMINATION_COLUMNS: readonly OutputColumn[] = [
  ['id', 'STRING'],
  ['reference', 'STRING'],
  ['similarity', 'DOUBLE'],
  ['estimate', 'DOUBLE'],
];

/** What the rows are built from: a dedup's result. */
export interface DedupRowsSource {
  readonly assignment: Assignment;
  readonly table: DocumentTable;
  readonly verified: VerifiedPairs;
  readonly contamination?: Contamination;
}

/** Document `d`'s row of the clusters table. */
export function clusterRow(
  result: { readonly assignment: Pick<Assignment, 'cluster' | 'kept'> },
  d: number,
  id: string,
): Cell[] {
  return [id, result.assignment.cluster[d], result.assignment.kept[d] === 1];
}

/** Document `d`'s row of the contamination table, or none when it matched no reference document. */
export function contaminationRow(result: DedupRowsSource, d: number, id: string): Cell[] | undefined {
  const { contamination } = result;
  const g = result.table.group(d);
  if (contamination === undefined || g < 0 || contamination.match[g] < 0) return undefined;
  const m = contamination.match[g];
  return [
    id,
    contamination.referenceIds[m],
    sixDecimals(contamination.similarity[g]),
    sixDecimals(contamination.estimate[g]),
  ];
}

/** What a pair's row is made of. */
export type PairColumns = Pick<VerifiedPairs, 'a' | 'b' | 'estimate' | 'exact'>;

/** The pairs table's columns: `exact` with exact or hybrid verification. */
export function pairColumns(verified: PairColumns): OutputColumn[] {
  const columns: OutputColumn[] = [
    ['id_a', 'STRING'],
    ['id_b', 'STRING'],
    ['estimate', 'DOUBLE'],
  ];
  if (verified.exact !== undefined) columns.push(['exact', 'DOUBLE']);
  return columns;
}

/** Verified pair `i`'s row, each text named by `idOfGroup` (its first document's id). */
export function pairRow(verified: PairColumns, i: number, idOfGroup: (group: number) => string): Cell[] {
  const row: Cell[] = [idOfGroup(verified.a[i]), idOfGroup(verified.b[i]), sixDecimals(verified.estimate[i])];
  // Hybrid: exact Jaccard only for pairs decided inside the estimate's margin; null (an empty CSV cell, never 0 in
  // Parquet) for the others.
  if (verified.exact !== undefined) row.push(Number.isNaN(verified.exact[i]) ? null : sixDecimals(verified.exact[i]));
  return row;
}
