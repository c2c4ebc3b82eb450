/**
 * The writing pass of dedup: the corpus is read a second time and every
 * output is written in input order, all atomically (nothing appears under a
 * final name unless the whole run succeeds).
 *
 * - kept documents: JSONL, each kept line verbatim (all fields preserved);
 *   plain-text inputs become {"id", "text"} records.
 * - clusters: `id, cluster, kept`, one row per input document.
 * - pairs: `id_a, id_b, estimate[, exact]`, one row per verified pair of
 *   distinct texts, named by the first document of each text.
 * - contamination: `id, reference, similarity, estimate`, one row per
 *   corpus document removed because it matched the reference set.
 */
import type { VerifiedPairs } from '../clusters/verification.js';
import type { ReadOptions } from '../io/documents.js';
import type { StageProgress } from './config.js';
import type { DedupOutcome } from './dedup.js';
import { rereadCorpus } from './reread.js';
import { BufferedFile, TableWriter } from '../formats/tableWriter.js';

export interface DedupOutputPaths {
  readonly out?: string;
  readonly clusters?: string;
  readonly pairs?: string;
  readonly contamination?: string;
}

export async function writeDedupOutputs(
  outcome: DedupOutcome,
  paths: DedupOutputPaths,
  read: ReadOptions,
  progress: StageProgress,
): Promise<void> {
  const { assignment, table, verified, contamination } = outcome;
  const opened: { commit(): Promise<void>; abort(): Promise<void> }[] = [];
  const open = async <T extends { commit(): Promise<void>; abort(): Promise<void> }>(make: () => Promise<T>): Promise<T> => {
    const writer = await make();
    opened.push(writer);
    return writer;
  };
  try {
    const out = paths.out === undefined ? undefined : await open(() => BufferedFile.create(paths.out!));
    const clusters = paths.clusters === undefined ? undefined : await open(() => TableWriter.create(paths.clusters!, ['id', 'cluster', 'kept']));
    const contaminationFile =
      paths.contamination === undefined
        ? undefined
        : await open(() => TableWriter.create(paths.contamination!, ['id', 'reference', 'similarity', 'estimate']));
    // Pairs are named by the first document of each text: remember just those ids.
    const pairGroups = new Set<number>();
    if (paths.pairs !== undefined) for (let i = 0; i < verified.a.length; i++) pairGroups.add(verified.a[i]).add(verified.b[i]);
    const groupIds = new Map<number, string>();

    const visit = async (index: number, id: string, line: () => string): Promise<void> => {
      const g = table.group(index);
      const isKept = assignment.kept[index] === 1;
      if (out !== undefined && isKept) await out.write(line() + '\n');
      await clusters?.row([id, assignment.cluster[index], isKept]);
      if (g >= 0 && pairGroups.has(g) && !groupIds.has(g)) groupIds.set(g, id);
      if (contaminationFile !== undefined && contamination !== undefined && g >= 0 && contamination.match[g] >= 0) {
        await contaminationFile.row([id, contamination.referenceIds[contamination.match[g]], round(contamination.similarity[g]), round(contamination.estimate[g])]);
      }
    };

    if (outcome.files.length > 0) {
      for await (const doc of rereadCorpus(outcome.files, read, table.documents, 'to write the outputs', progress)) {
        await visit(doc.index, doc.id, () => doc.rawLine ?? JSON.stringify({ id: doc.id, text: doc.text }));
      }
    } else {
      const ids = outcome.presignedIds ?? [];
      if (out !== undefined) throw new Error('writing the kept documents needs the corpus as input');
      for (let d = 0; d < ids.length; d++) await visit(d, ids[d], () => '');
    }

    if (paths.pairs !== undefined) await writePairs(await open(() => TableWriter.create(paths.pairs!, pairColumns(verified))), verified, groupIds);
    for (const writer of opened) await writer.commit();
  } catch (error) {
    await Promise.all(opened.map((w) => w.abort().catch(() => undefined)));
    throw error;
  } finally {
    progress.stop();
  }
}

function pairColumns(verified: VerifiedPairs): string[] {
  return verified.exact === undefined ? ['id_a', 'id_b', 'estimate'] : ['id_a', 'id_b', 'estimate', 'exact'];
}

/** One row per verified pair, each text named by its first document. */
async function writePairs(pairs: TableWriter, verified: VerifiedPairs, groupIds: ReadonlyMap<number, string>): Promise<void> {
  for (let i = 0; i < verified.a.length; i++) {
    const row = [groupIds.get(verified.a[i])!, groupIds.get(verified.b[i])!, round(verified.estimate[i])];
    // Hybrid: exact Jaccard only for pairs decided inside the estimate's margin, an empty cell for the others.
    if (verified.exact !== undefined) row.push(Number.isNaN(verified.exact[i]) ? '' : round(verified.exact[i]));
    await pairs.row(row);
  }
}

/** Six decimals: enough for k up to 10^6, and stable text across platforms. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
