/**
 * `gpudedup dedup CORPUS --against REF --containment C`: decontamination by
 * containment. A benchmark item inside a long training document has a tiny
 * Jaccard with it (a 40-word question in a 3,000-word page: ≈ 0.01), so
 * dedup's Jaccard banding misses it; here the corpus documents go into an
 * in-memory index (src/lshIndex, with its shingle sets) and each reference
 * document asks it for the corpus documents holding at least C of its
 * shingles (`query(…, { containment })`: LSH Ensemble partitions and sampled
 * postings, verified exactly). Those documents are removed from `-o`, and
 * `--contamination` lists each with the reference file, the reference
 * document and the containment, per reference file. Memory: the corpus's
 * signatures, sets and postings (about 2 KB per document of 300 shingles).
 */
import { checkKeptOutput, openKeptDocuments } from '../../formats/keptDocuments.js';
import { openTable, type RowTable } from '../../formats/openTable.js';
import type { ParquetCompression } from '../../formats/parquet/parquetFile.js';
import { sixDecimals } from '../../format.js';
import { readDocuments, listInputFiles, type InputFile } from '../../io/readDocuments.js';
import type { InputDocument, ReadOptions } from '../../io/documents.js';
import { createMemoryIndex } from '../../lshIndex/memoryIndex.js';
import { resolveParameters, type IndexOptions } from '../../lshIndex/options.js';
import { inlineIndexSigner } from '../../lshIndex/signing.js';
import { OPTIONS } from '../../options.js';
import { SILENT_HOOKS, type DedupHooks } from '../shared/config.js';
import { documentBatches } from './indexInput.js';
import { writeWanted } from './indexAdd.js';
import { checkOutputs, type NamedOutput } from '../shared/outputChecks.js';

export interface ContainmentAgainstConfig {
  readonly inputs: readonly string[];
  readonly against: readonly string[];
  readonly containment: number;
  readonly read: ReadOptions;
  /** How texts are shingled and signed (the corpus and the reference alike). */
  readonly signature: IndexOptions;
  readonly out?: string;
  readonly contamination?: string;
  readonly parquetCompression?: ParquetCompression;
}

/** A removed corpus document: the reference document it holds most of. */
export interface Contained {
  readonly document: number;
  readonly referenceFile: string;
  readonly referenceId: string;
  readonly containment: number;
}

export interface ContainmentAgainstSummary {
  readonly documents: number;
  readonly removed: number;
  /** Per reference file: its documents, and the corpus documents it removed (first file first). */
  readonly references: { readonly file: string; readonly documents: number; readonly removed: number }[];
  readonly seconds: number;
}

const COLUMNS = [
  ['id', 'STRING'],
  ['reference_file', 'STRING'],
  ['reference_id', 'STRING'],
  ['containment', 'DOUBLE'],
] as const;

export async function containmentPreflight(config: ContainmentAgainstConfig): Promise<InputFile[]> {
  OPTIONS.containment.check(config.containment);
  if (config.against.length === 0)
    throw new RangeError('--containment needs --against REF (the reference documents to look for)');
  if (config.out === undefined && config.contamination === undefined)
    throw new RangeError('nothing to write: give -o or --contamination');
  const corpus = await listInputFiles(config.inputs);
  for (const ref of config.against) await listInputFiles([ref]);
  const outputs: NamedOutput[] = [
    ['-o', config.out],
    ['--contamination', config.contamination],
  ]
    .filter((o): o is [string, string] => o[1] !== undefined)
    .map(([flag, path]) => ({ flag, path }));
  await checkOutputs(outputs, [
    ...corpus.map((f) => ({ path: f.path })),
    ...config.against.map((path) => ({ path, role: '--against' })),
  ]);
  if (config.out !== undefined) await checkKeptOutput(config.out, corpus);
  return corpus;
}

export async function containmentAgainst(
  config: ContainmentAgainstConfig,
  corpus: readonly InputFile[],
  hooks: DedupHooks = SILENT_HOOKS,
): Promise<ContainmentAgainstSummary> {
  const started = performance.now();
  const index = createMemoryIndex({
    ...config.signature,
    verify: 'exact',
    storeSets: true,
    signer: inlineIndexSigner(resolveParameters({ ...config.signature, verify: 'exact' })),
  });
  const read: InputDocument[] = [];
  for await (const doc of readDocuments(corpus, config.read)) read.push(doc);
  for (let from = 0; from < read.length; from += 4096) {
    await index.add(
      read.slice(from, from + 4096).map((doc, i) => ({ id: String(from + i), text: doc.text })),
      { all: true },
    );
  }
  hooks.note(`indexed ${read.length} corpus documents; looking for ${config.against.length} reference file(s) in them`);
  const found = new Map<number, Contained>();
  const references: { file: string; documents: number; removed: number }[] = [];
  for (const file of config.against) {
    const entry = { file, documents: 0, removed: 0 };
    references.push(entry);
    for await (const batch of documentBatches(await listInputFiles([file]), config.read, 256)) {
      entry.documents += batch.length;
      const results = await index.query(
        batch.map((d) => d.text),
        { containment: config.containment },
      );
      results.forEach((result, i) => {
        for (const m of result.matches) {
          const document = Number(m.id);
          const containment = m.exactContainment ?? m.containment!;
          const earlier = found.get(document);
          if (earlier === undefined) entry.removed++;
          if (earlier === undefined || containment > earlier.containment)
            found.set(document, { document, referenceFile: file, referenceId: batch[i].id, containment });
        }
      });
    }
  }
  await writeOutputs(config, corpus, read, found);
  return { documents: read.length, removed: found.size, references, seconds: (performance.now() - started) / 1000 };
}

/** -o (the documents not removed) and --contamination, both or neither committed. */
async function writeOutputs(
  config: ContainmentAgainstConfig,
  corpus: readonly InputFile[],
  read: readonly InputDocument[],
  found: ReadonlyMap<number, Contained>,
): Promise<void> {
  const opened: { commit(): Promise<void>; abort(): Promise<void> }[] = [];
  try {
    if (config.out !== undefined) {
      const out = await openKeptDocuments(config.out, corpus, config.parquetCompression);
      opened.push(out);
      await writeWanted(read, (d) => !found.has(d), out);
    }
    if (config.contamination !== undefined) {
      const table: RowTable = await openTable(config.contamination, COLUMNS, config.parquetCompression);
      opened.push(table);
      for (const c of [...found.values()].sort((a, b) => a.document - b.document))
        await table.row([read[c.document].id, c.referenceFile, c.referenceId, sixDecimals(c.containment)]);
    }
    for (const writer of opened) await writer.commit();
  } catch (error) {
    await Promise.all(opened.map((w) => w.abort().catch(() => undefined)));
    throw error;
  }
}
