/**
 * The index worker: checks the picked files against a saved index, off the
 * page's thread. The index is opened from the picked folder's files
 * (openIndexSnapshot: its manifest and every file checked against their
 * CRC-32); queries are signed with the index's own parameters (its manifest),
 * whatever the form says; each document's matches come back as rows and as
 * the JSON Lines `gpudedup query DIR FILE` writes (src/lshIndex/queryLine.ts).
 */
import { errorMessage } from '../src/errors.js';
import { unitDocuments } from '../src/firstPass/unitDocuments.js';
import { queryLine } from '../src/lshIndex/queryLine.js';
import { inlineIndexSigner } from '../src/lshIndex/signing.js';
import { openIndexSnapshot } from '../src/lshIndex/snapshot.js';
import type { QueryOptions } from '../src/lshIndex/types.js';
import { IndexRowsBuilder, rowBuffers, type IndexRows } from './indexRows.js';
import { BROWSER_SOURCES, webInputUnits } from './webSources.js';

export interface IndexCheckRequest {
  readonly type: 'check';
  /** The index folder's files (manifest.json and its segments). */
  readonly index: File[];
  /** The folder's name, for messages. */
  readonly name: string;
  readonly files: File[];
  readonly read: { readonly textField: string; readonly idField: string; readonly skipInvalid: boolean };
  /** `top` or `containment` (checked by the index, as `gpudedup query --top/--containment`); none: the threshold. */
  readonly query: QueryOptions;
}

export type IndexCheckReply =
  | {
      readonly type: 'progress';
      readonly documents: number;
      /** Bytes of the files read so far (compressed ones as stored), of `total`. */
      readonly bytes: number;
      readonly total: number;
    }
  | {
      readonly type: 'checked';
      /** Every document's rows, compact (indexRows.ts): the table pages through them. */
      readonly rows: IndexRows;
      readonly documents: number;
      readonly matched: number;
      readonly indexed: number;
      /** What was asked: "threshold 0.8", "top 10" or "containment ≥ 0.8". */
      readonly question: string;
      readonly jsonl: Blob;
      /** Files not read (empty, or binary), each with why: said as `gpudedup query` notes them. */
      readonly skipped: string[];
    }
  | { readonly type: 'error'; readonly message: string };

/** Documents per query, as `gpudedup query`'s batches. */
const BATCH = 256;

const post = (message: IndexCheckReply, transfer: Transferable[] = []): void =>
  (self as unknown as Worker).postMessage(message, transfer);

self.onmessage = (event: MessageEvent<IndexCheckRequest>) => {
  check(event.data).catch((error: unknown) => post({ type: 'error', message: errorMessage(error) }));
};

async function check(request: IndexCheckRequest): Promise<void> {
  // Picked from a folder, a file's name is its own; a nested folder is not part of an index.
  const byName = new Map(request.index.map((file) => [file.name, file]));
  const read = async (name: string): Promise<Uint8Array> => {
    const file = byName.get(name);
    if (file === undefined) throw new Error(`${request.name}/${name} is not among the picked files`);
    return new Uint8Array(await file.arrayBuffer());
  };
  const index = await openIndexSnapshot(read, (parameters) => inlineIndexSigner(parameters), { name: request.name });
  await index.query([], request.query); // bad values refused before any file is read
  const stats = await index.stats();
  const rows = new IndexRowsBuilder();
  const total = request.files.reduce((sum, file) => sum + file.size, 0);
  let bytes = 0;
  const lines: string[] = [];
  let documents = 0;
  let matched = 0;
  let batch: { id: string; text: string }[] = [];
  const flush = async (): Promise<void> => {
    const results = await index.query(
      batch.map((d) => d.text),
      request.query,
    );
    batch.forEach((doc, i) => {
      const matches = results[i].matches;
      if (matches.length > 0) matched++;
      rows.add(doc.id, matches);
      lines.push(queryLine(doc.id, matches) + '\n');
    });
    documents += batch.length;
    batch = [];
    post({ type: 'progress', documents, bytes, total });
  };
  const options = { ...request.read, strict: false };
  const skipped: string[] = [];
  const units = webInputUnits(
    request.files,
    (done) => (bytes = done),
    (message) => skipped.push(message),
  );
  for await (const doc of unitDocuments(units, options, BROWSER_SOURCES)) {
    batch.push({ id: doc.id, text: doc.text });
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  const table = rows.finish();
  post(
    {
      type: 'checked',
      rows: table,
      documents,
      matched,
      indexed: stats.documents,
      question: questionOf(request.query, index.parameters.threshold),
      jsonl: new Blob(lines, { type: 'application/x-ndjson' }),
      skipped,
    },
    rowBuffers(table),
  );
}

/** What was asked: "threshold 0.8", "top 10" or "containment ≥ 0.8". */
function questionOf({ top, containment }: QueryOptions, threshold: number): string {
  if (containment !== undefined) return `containment ≥ ${containment}`;
  return top !== undefined ? `top ${top}` : `threshold ${String(threshold)}`;
}
