/**
 * `--audit-file FILE`: every sampled item of the audit with its exact
 * Jaccard, one row each (CSV, JSON Lines or Parquet by the name):
 *
 *   kind     `pair` (an accepted candidate pair) or `removed` (a removed document)
 *   bin      the pair's bin of estimated similarity, e.g. `0.8-0.9` (empty for removed)
 *   id       the pair's first text (named by its first document), or the removed document
 *   other_id the pair's second text, or the removed document's kept document
 *   estimate the pair's signature agreement (empty for removed)
 *   exact    exact Jaccard of the two shingle sets
 */
import { sixDecimals } from '../../format.js';
import { binRange, type AuditResult } from '../../audit/audit.js';
import type { DocumentTable } from '../../exact/documentTable.js';
import type { Cell } from '../../formats/files/csv.js';
import { openTable, type TableColumn } from '../../formats/openTable.js';
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';

export const AUDIT_COLUMNS: readonly TableColumn[] = [
  ['kind', 'STRING'],
  ['bin', 'STRING'],
  ['id', 'STRING'],
  ['other_id', 'STRING'],
  ['estimate', 'DOUBLE'],
  ['exact', 'DOUBLE'],
];

/** The first document of each exact group in `groups`. */
function firstDocuments(table: DocumentTable, groups: ReadonlySet<number>): Map<number, number> {
  const first = new Map<number, number>();
  for (let d = 0; d < table.documents && first.size < groups.size; d++) {
    const g = table.group(d);
    if (groups.has(g) && !first.has(g)) first.set(g, d);
  }
  return first;
}

/** The documents the audit file names: each pair's first documents, each removed document and its kept one. */
export function auditDocuments(audit: AuditResult, table: DocumentTable): Set<number> {
  const first = firstDocuments(table, new Set(audit.pairs.flatMap((p) => [p.a, p.b])));
  return new Set([...first.values(), ...audit.removals.flatMap((r) => [r.removed, r.kept])]);
}

/** The ids an audit file names: a pair's two texts (by their first documents), a removed document and its kept one. */
export interface AuditNames {
  pair(p: AuditResult['pairs'][number]): readonly [string, string];
  removal(r: AuditResult['removals'][number]): readonly [string, string];
}

export async function writeAuditFile(
  path: string,
  audit: AuditResult,
  table: DocumentTable,
  idOf: (doc: number) => string,
  compression?: ParquetCompression,
): Promise<void> {
  const first = firstDocuments(table, new Set(audit.pairs.flatMap((p) => [p.a, p.b])));
  const names: AuditNames = {
    pair: (p) => [idOf(first.get(p.a)!), idOf(first.get(p.b)!)],
    removal: (r) => [idOf(r.removed), idOf(r.kept)],
  };
  await writeAuditRows(path, audit, names, compression);
}

/** The audit file, its items named by `names` (dedup: from the document table; cluster: from the join's rows). */
export async function writeAuditRows(
  path: string,
  audit: AuditResult,
  names: AuditNames,
  compression?: ParquetCompression,
): Promise<void> {
  const rows: Cell[][] = [
    ...audit.pairs.map((p): Cell[] => [
      'pair',
      binRange(p.bin).join('-'),
      ...names.pair(p),
      sixDecimals(p.estimate),
      sixDecimals(p.exact),
    ]),
    ...audit.removals.map((r): Cell[] => ['removed', null, ...names.removal(r), null, sixDecimals(r.exact)]),
  ];
  const file = await openTable(path, AUDIT_COLUMNS, compression);
  try {
    for (const row of rows) await file.row(row);
    await file.commit();
  } catch (error) {
    await file.abort().catch(() => undefined);
    throw error;
  }
}
