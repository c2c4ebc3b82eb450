/**
 * `gpudedup dedup CORPUS --clusters-from clusters.csv -o kept.jsonl`: applies
 * a clusters table (from `gpudedup cluster`, or an earlier `dedup
 * --clusters`) in one streaming pass: the i-th document of the corpus must be
 * the table's i-th row (same id), and is written when that row says kept.
 */
import { counted } from '../../format.js';
import { readClusterTable } from '../../formats/clusterTable.js';
import { BufferedFile } from '../../formats/files/tableWriter.js';
import type { ReadOptions } from '../../io/documents.js';
import { listInputFiles, readDocuments, totalInputBytes } from '../../io/readDocuments.js';
import { SILENT_HOOKS, withProgress, type DedupHooks } from '../shared/config.js';
import { checkOutputs } from '../shared/outputChecks.js';

export interface ApplyClustersConfig {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly clustersFrom: string;
  readonly out: string;
}

export interface ApplyClustersSummary {
  readonly documents: number;
  readonly kept: number;
  readonly clusters: number;
  readonly seconds: number;
}

export async function runApplyClusters(
  config: ApplyClustersConfig,
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<ApplyClustersSummary> {
  const started = performance.now();
  const files = await listInputFiles(config.inputs, hooks.note);
  await checkOutputs(
    [{ flag: '-o', path: config.out }],
    [...files, { path: config.clustersFrom, role: '--clusters-from' }],
  );
  const out = await BufferedFile.create(config.out);
  try {
    const counts = await withProgress(hooks, 'applying clusters', totalInputBytes(files), 'bytes', async (progress) => {
      const rows = readClusterTable(config.clustersFrom);
      let documents = 0;
      let kept = 0;
      let clusters = 0;
      for await (const doc of readDocuments(files, { ...config.read, onBytes: (b) => progress.update(documents, b) })) {
        const next = await rows.next();
        if (next.done)
          throw new Error(
            `${config.clustersFrom} ends after ${counted(documents, 'row')}, but the corpus has more documents ` +
              `(${doc.id} is next): not this corpus's clusters`,
          );
        const row = next.value;
        if (row.id !== doc.id) {
          throw new Error(
            `${config.clustersFrom}:${row.line}: id ${JSON.stringify(row.id)}, but corpus document ${documents + 1} ` +
              `has id ${JSON.stringify(doc.id)}: not this corpus's clusters (or not in its order)`,
          );
        }
        documents++;
        clusters = Math.max(clusters, row.cluster + 1);
        if (row.kept) {
          kept++;
          await out.write((doc.rawLine ?? JSON.stringify({ id: doc.id, text: doc.text })) + '\n');
        }
      }
      const extra = await rows.next();
      if (!extra.done)
        throw new Error(
          `${config.clustersFrom}:${extra.value.line}: more rows than the corpus's ${documents} documents: not this ` +
            `corpus's clusters`,
        );
      return { documents, kept, clusters };
    });
    await out.commit();
    return { ...counts, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    await out.abort();
    throw error;
  }
}
