/** Reading DuckDB's results a chunk at a time from its vectors, with no JavaScript value a row (duckdb.ts). */
import type { DuckDBConnection } from '@duckdb/node-api';
import { numberClusters, type ClusterRow } from './engine.js';

/**
 * A query's DOUBLE columns `names`, copied a chunk at a time from DuckDB's vectors (no JavaScript value a row: at 1 M
 * the host step's 813 k rows × 8 columns took 2 s as getColumnsObjectJS's arrays, 0.3 s so, under load).
 */
export async function doubleColumns(
  connection: DuckDBConnection,
  sql: string,
  names: readonly string[],
): Promise<Record<string, Float64Array>> {
  const result = await connection.run(sql);
  const at = names.map((name) => result.columnNames().indexOf(name));
  const chunks: Float64Array[][] = names.map(() => []);
  let rows = 0;
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (let c = 0; c < names.length; c++) {
      const { items } = chunk.getColumnVector(at[c]) as { items?: unknown };
      if (!(items instanceof Float64Array)) throw new Error(`internal: column ${names[c]} is not DOUBLE`);
      chunks[c].push(items.slice(0, chunk.rowCount));
    }
    rows += chunk.rowCount;
  }
  return Object.fromEntries(
    names.map((name, c) => {
      const column = new Float64Array(rows);
      let filled = 0;
      for (const part of chunks[c]) filled += (column.set(part, filled), part.length);
      return [name, column];
    }),
  );
}

/**
 * The clusters table in position order, a chunk at a time, read from DuckDB's vectors: positions and labels as DOUBLE,
 * kept as INTEGER (yieldRowsJs made three BigInts and an array a document: with their garbage, a third of the main
 * thread's work at 1 M).
 */
export async function* streamRows(connection: DuckDBConnection): AsyncGenerator<readonly ClusterRow[]> {
  const result = await connection.stream(
    'SELECT id, CAST(position AS DOUBLE) AS position, CAST(cluster AS DOUBLE) AS label, CAST(kept AS INTEGER) AS kept ' +
      'FROM clusters ORDER BY position',
  );
  const number = numberClusters();
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const ids = chunk.getColumnVector(0);
    const [positions, labels, kept] = [1, 2, 3].map((c) => (chunk.getColumnVector(c) as { items?: unknown }).items);
    if (!(positions instanceof Float64Array && labels instanceof Float64Array && kept instanceof Int32Array))
      throw new Error('internal: the clusters table read back with other types');
    const rows: ClusterRow[] = new Array(chunk.rowCount);
    for (let i = 0; i < rows.length; i++)
      rows[i] = { id: String(ids.getItem(i)), cluster: number(positions[i], labels[i]), kept: kept[i] === 1 };
    yield rows;
  }
}
