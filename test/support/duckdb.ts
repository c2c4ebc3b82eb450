/**
 * DuckDB (`@duckdb/node-api`, a devDependency) as the independent Parquet and
 * zstd writer and reader the format tests check gpudedup against.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export async function withDuckDB<T>(use: (db: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await use(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Single-quoted SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export async function rows(db: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  return (await db.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

export const PARQUET_CODECS = ['snappy', 'zstd', 'gzip', 'brotli', 'lz4', 'uncompressed'] as const;
