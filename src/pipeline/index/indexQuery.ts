/**
 * `gpudedup query DIR DOCS…`: every document of DOCS (any input format, `-`
 * for standard input) against the index, streamed in batches, one JSON line
 * per document in input order:
 *
 *   {"id":"doc-7","matches":[{"id":"a12","similarity":0.93125,"exact":0.912}]}
 *
 * `id` is the queried document's (its id field, else its line or path, as
 * dedup names documents); `matches` the indexed documents at or above the
 * index's threshold, most similar first (or the `--top K` most similar, found
 * by the LSH Forest and reranked by exact Jaccard where the index stores sets,
 * or with `--containment C` those holding ≥ C of the document's shingles);
 * `similarity` the estimated Jaccard, `exact` the exact Jaccard where
 * measured, `containment`/`exactContainment` likewise. Written atomically to `-o FILE`, or to
 * standard output as it goes.
 */
import { BufferedFile } from '../../formats/files/tableWriter.js';
import type { ReadOptions } from '../../io/documents.js';
import { listInputFiles, type InputFile } from '../../io/readDocuments.js';
import { queryLine } from '../../lshIndex/queryLine.js';
import type { DedupIndex } from '../../lshIndex/types.js';
import { refuseAllSkipped, SILENT_HOOKS, type DedupHooks } from '../shared/config.js';
import { countingRead, documentBatches, type ReadCounts } from './indexInput.js';
import { checkIndexOutputs } from './indexOutputs.js';

export interface QueryConfig {
  readonly dir: string;
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  /** The K most similar (LSH Forest) instead of those at the threshold. */
  readonly top?: number;
  /** The indexed documents holding ≥ C of each document's shingles. */
  readonly containment?: number;
  readonly rerank?: 'exact' | 'estimate';
  /** `-` (the default): standard output. */
  readonly out: string;
  /** Documents per index query (memory: one batch of texts). */
  readonly batchSize?: number;
}

export interface QuerySummary extends ReadCounts {
  documents: number;
  /** Documents with at least one match. */
  matched: number;
  matches: number;
  seconds: number;
}

export async function queryPreflight(config: QueryConfig): Promise<InputFile[]> {
  if (config.inputs.length === 0) throw new RangeError('no documents to query: give files (or - for standard input)');
  const corpus = await listInputFiles(config.inputs);
  await checkIndexOutputs(config.dir, [{ flag: '-o', path: config.out }], corpus);
  return corpus;
}

export async function queryDocuments(
  index: DedupIndex,
  config: QueryConfig,
  corpus: readonly InputFile[],
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<QuerySummary> {
  const started = performance.now();
  const summary: QuerySummary = {
    documents: 0,
    matched: 0,
    matches: 0,
    seconds: 0,
    invalidSkipped: 0,
    binarySkipped: [],
  };
  const out = await BufferedFile.create(config.out);
  try {
    const read = countingRead(config.read, summary, hooks);
    for await (const batch of documentBatches(corpus, read, config.batchSize ?? 256)) {
      const results = await index.query(
        batch.map((d) => d.text),
        { top: config.top, containment: config.containment, rerank: config.rerank },
      );
      let lines = '';
      for (let i = 0; i < batch.length; i++) {
        const matches = results[i].matches;
        summary.documents++;
        summary.matches += matches.length;
        if (matches.length > 0) summary.matched++;
        lines += queryLine(batch[i].id, matches) + '\n';
      }
      await out.write(lines);
    }
    refuseAllSkipped(summary.documents, { skipped: summary.invalidSkipped, first: summary.firstInvalid });
    await out.commit();
  } catch (error) {
    await out.abort();
    throw error;
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

export { queryLine };
