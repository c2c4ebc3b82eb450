/**
 * The writing pass of dedup: the corpus is read a second time and every
 * output is written in input order, all atomically (nothing appears under a
 * final name unless the whole run succeeds).
 *
 * - kept documents: JSONL, each kept line verbatim (all fields preserved);
 *   plain-text inputs become {"id", "text"} records; or Parquet
 *   (formats/keptDocuments.ts). Every output is compressed by its name.
 * - clusters, pairs, contamination: their rows from src/dedup/outputRows.ts
 *   (the tab's downloads build theirs there too), as CSV, JSONL or Parquet
 *   by the name (formats/openTable.ts).
 */
import {
  type OutputColumn,
  CLUSTER_COLUMNS,
  CONTAMINATION_COLUMNS,
  clusterRow,
  contaminationRow,
  pairColumns,
  pairRow,
} from '../../dedup/outputRows.js';
import type { VerifiedPairs } from '../../verify/verification.js';
import type { ReadOptions } from '../../io/documents.js';
import { openKeptDocuments } from '../../formats/keptDocuments.js';
import { openTable, type RowTable } from '../../formats/openTable.js';
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';
import type { StageProgress } from '../shared/config.js';
import type { DedupOutcome } from './dedup.js';
import { rereadCorpus } from './reread.js';
import { writeKept } from './writeKept.js';
import type { RangeCopyPool, TableRowsPool } from '../../dedup/node/stageWorkers.js';
import { clusterRequests, pairRequests, takesFormattedRows, writeRowsOnWorkers } from './tablesOnWorkers.js';

export interface DedupOutputPaths {
  readonly out?: string;
  readonly clusters?: string;
  readonly pairs?: string;
  readonly contamination?: string;
}

interface Committable {
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export interface DedupOutputFormats {
  readonly parquetCompression?: ParquetCompression;
  /** Stage workers that format the clusters and pairs tables (CSV and JSON Lines) where the ids were recorded. */
  readonly tableWorkers?: TableRowsPool;
  /** Stage workers that copy the kept lines to their places (plain JSON Lines in and out). */
  readonly keptWorkers?: RangeCopyPool;
}

export async function writeDedupOutputs(
  outcome: DedupOutcome,
  paths: DedupOutputPaths,
  read: ReadOptions,
  progress: StageProgress,
  formats: DedupOutputFormats = {},
): Promise<void> {
  const opened: Committable[] = [];
  const open = async <T extends Committable>(make: () => Promise<T>): Promise<T> => {
    const writer = await make();
    opened.push(writer);
    return writer;
  };
  try {
    const perDocument = await openPerDocument(outcome, paths, open, formats.parquetCompression);
    const { records } = outcome;
    const { out } = perDocument;
    // Where the first pass recorded every line, the kept ones are copied while the tables' rows are made: the copy
    // mostly waits on the file system's threads, the rows keep the workers (or this thread) busy.
    const copying =
      records !== undefined && out !== undefined
        ? writeKept(outcome, records, out, read, progress, formats.keptWorkers)
        : undefined;
    await allOf([copying, writeTables(outcome, read, progress, perDocument, formats.tableWorkers)]);
    for (const writer of opened) await writer.commit();
  } catch (error) {
    await Promise.all(opened.map((w) => w.abort().catch(() => undefined)));
    throw error;
  } finally {
    progress.stop();
  }
}

type PerDocument = Awaited<ReturnType<typeof openPerDocument>>;

/** The clusters, contamination and pairs tables: on the workers where they can make the rows, else here. */
async function writeTables(
  outcome: DedupOutcome,
  read: ReadOptions,
  progress: StageProgress,
  perDocument: PerDocument,
  workers: TableRowsPool | undefined,
): Promise<void> {
  const { clusters, pairs } = perDocument;
  const ids = workers === undefined ? undefined : outcome.records?.sharedIds();
  const clustersThere = ids !== undefined && takesFormattedRows(clusters) ? clusters : undefined;
  const pairsThere = ids !== undefined && takesFormattedRows(pairs) ? pairs : undefined;
  const pairsHere = pairs !== undefined && pairsThere === undefined ? pairs : undefined;
  const pairNames = pairsHere === undefined ? undefined : new PairNames(outcome.table.groups, outcome.verified);
  const here = { ...perDocument, clusters: clustersThere === undefined ? clusters : undefined, pairNames };
  const visitHere = here.clusters !== undefined || here.contamination !== undefined || pairNames !== undefined;
  await allOf([
    clustersThere &&
      writeRowsOnWorkers(workers!, clustersThere, clusterRequests(clustersThere.format, ids!, outcome.assignment)),
    pairsThere &&
      writeRowsOnWorkers(
        workers!,
        pairsThere,
        pairRequests(pairsThere.format, ids!, outcome.table.firstDocuments(), outcome.verified),
      ),
    visitHere || outcome.records === undefined ? visitCorpus(outcome, read, progress, here) : undefined,
  ]);
  if (pairsHere !== undefined) await writePairs(pairsHere, outcome.verified, pairNames!);
}

/** The outputs with a row per document, and the pairs table. */
async function openPerDocument(
  outcome: DedupOutcome,
  paths: DedupOutputPaths,
  open: <T extends Committable>(make: () => Promise<T>) => Promise<T>,
  compression: ParquetCompression | undefined,
) {
  const out =
    paths.out === undefined ? undefined : await open(() => openKeptDocuments(paths.out!, outcome.files, compression));
  const table = (path: string | undefined, columns: readonly OutputColumn[]) =>
    path === undefined ? undefined : open(() => openTable(path, columns, compression));
  const clusters = await table(paths.clusters, CLUSTER_COLUMNS);
  const contamination = await table(paths.contamination, CONTAMINATION_COLUMNS);
  const pairs = await table(paths.pairs, pairColumns(outcome.verified));
  return { out, clusters, contamination, pairs };
}

/** Writes every document's rows, in input order, and notes the id naming each text in a pair. */
async function visitCorpus(
  outcome: DedupOutcome,
  read: ReadOptions,
  progress: StageProgress,
  {
    out,
    clusters,
    contamination: contaminationFile,
    pairNames,
  }: Omit<PerDocument, 'pairs'> & {
    readonly pairNames?: PairNames;
  },
): Promise<void> {
  // Rows are buffered: a write returns a promise only when it waits for its file (files/tableWriter.ts).
  const visit = (index: number, id: string): Promise<unknown> | undefined => {
    const g = outcome.table.group(index);
    const clustered = clusters?.row(clusterRow(outcome, index, id));
    pairNames?.visit(g, id);
    const matched = contaminationFile === undefined ? undefined : contaminationRow(outcome, index, id);
    const contaminated = matched === undefined ? undefined : contaminationFile!.row(matched);
    return clustered === undefined
      ? contaminated
      : contaminated === undefined
        ? clustered
        : Promise.all([clustered, contaminated]);
  };
  const { records } = outcome;
  if (records !== undefined) {
    // The first pass recorded every id and line: the corpus is read again only to copy the kept documents.
    for (let d = 0; d < records.documents; d++) {
      const waiting = visit(d, records.id(d));
      if (waiting !== undefined) await waiting;
    }
  } else if (outcome.files.length > 0) {
    for await (const doc of rereadCorpus(
      outcome.files,
      read,
      outcome.table.documents,
      'to write the outputs',
      progress,
    )) {
      if (out !== undefined && outcome.assignment.kept[doc.index] === 1) await out.write(doc);
      await visit(doc.index, doc.id);
    }
  } else {
    const ids = outcome.presignedIds ?? [];
    if (out !== undefined) throw new Error('writing the kept documents needs the corpus as input');
    for (let d = 0; d < ids.length; d++) await visit(d, ids[d]);
  }
}

/**
 * The id naming each text of a verified pair: its first document's. Only those are kept, in a dense array (a Map of
 * millions of ids cost the collector dearly).
 */
class PairNames {
  /** Per group, its place in `ids`, or −1 for a text in no pair. */
  private readonly slotOf: Int32Array;
  private readonly ids: string[] = [];
  /** The group whose first document comes next: DocumentTable numbers groups by their first documents. */
  private next = 0;

  constructor(groups: number, verified: VerifiedPairs) {
    this.slotOf = new Int32Array(groups).fill(-1);
    for (let i = 0; i < verified.a.length; i++) this.slotOf[verified.a[i]] = this.slotOf[verified.b[i]] = 0;
    for (let g = 0; g < groups; g++)
      if (this.slotOf[g] === 0) {
        this.slotOf[g] = this.ids.length;
        this.ids.push(''); // pushed, not new Array(n): V8 keeps a long array made by length as a dictionary
      }
  }

  /** Document `id`, of group `g`, in input order. */
  visit(g: number, id: string): void {
    if (g !== this.next) return;
    this.next++;
    if (this.slotOf[g] >= 0) this.ids[this.slotOf[g]] = id;
  }

  readonly idOf = (g: number): string => this.ids[this.slotOf[g]];
}

/** Waits for every promise, then throws the first one's failure: nothing still writes when the files are aborted. */
async function allOf(promises: readonly (Promise<void> | undefined)[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r) => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

/** One row per verified pair, each text named by its first document. */
async function writePairs(pairs: RowTable, verified: VerifiedPairs, names: PairNames): Promise<void> {
  for (let i = 0; i < verified.a.length; i++) {
    const waiting = pairs.row(pairRow(verified, i, names.idOf));
    if (waiting !== undefined) await waiting;
  }
}
