/** The cluster command's row outputs: --clusters and --removed, written as the engine's rows stream. */
import { rename } from 'node:fs/promises';
import type { ClusterRow, EngineRun } from '../../engines/engine.js';
import { forgetTemporary, removeTemporary, reserveTemporary } from '../../formats/files/temporaries.js';
import { TableWriter } from '../../formats/files/tableWriter.js';

/** ClusterConfig's output paths. */
export interface ClusterOutputPaths {
  readonly clusters?: string;
  readonly removed?: string;
}

/**
 * Streams the rows once into the CSV/JSONL outputs (Parquet straight from the engine), all renamed into place at the
 * end.
 */
export async function writeClusterOutputs(
  run: EngineRun,
  config: ClusterOutputPaths,
  expected: number,
  onRow: (row: ClusterRow) => void,
): Promise<{ documents: number; clusters: number; removed: number }> {
  const parquet = config.clusters?.toLowerCase().endsWith('.parquet') ?? false;
  const tables: TableWriter[] = [];
  const parquetTemp = parquet ? reserveTemporary(config.clusters!) : undefined;
  try {
    const clusters =
      config.clusters !== undefined && !parquet
        ? await TableWriter.create(config.clusters, ['id', 'cluster', 'kept'])
        : undefined;
    const removed = config.removed !== undefined ? await TableWriter.create(config.removed, ['id']) : undefined;
    for (const t of [clusters, removed]) if (t !== undefined) tables.push(t);
    let documents = 0;
    let removedCount = 0;
    let clusterCount = 0;
    for await (const chunk of run.rows()) {
      for (const row of chunk) {
        onRow(row);
        documents++;
        clusterCount = Math.max(clusterCount, row.cluster + 1);
        // A write returns a promise only when it waits for the file (TableWriter): no await, no tick, a row.
        const written = clusters?.row([row.id, row.cluster, row.kept]);
        if (written !== undefined) await written;
        if (!row.kept) {
          removedCount++;
          const removedWritten = removed?.row([row.id]);
          if (removedWritten !== undefined) await removedWritten;
        }
      }
    }
    if (documents !== expected)
      throw new Error(`internal: the engine returned ${documents} documents, the shards hold ${expected}`);
    if (parquetTemp !== undefined) await run.writeParquet(parquetTemp);
    for (const t of tables) await t.commit();
    if (parquetTemp !== undefined) {
      await rename(parquetTemp, config.clusters!);
      forgetTemporary(parquetTemp);
    }
    return { documents, clusters: clusterCount, removed: removedCount };
  } catch (error) {
    await Promise.all(tables.map((t) => t.abort().catch(() => undefined)));
    if (parquetTemp !== undefined) removeTemporary(parquetTemp);
    throw error;
  }
}
