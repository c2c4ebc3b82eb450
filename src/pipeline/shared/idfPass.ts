/**
 * The document frequencies `--weights idf` weighs by: a pass of its own over the corpus before signing (one thread,
 * the TypeScript shingler with the run's settings, each document's deduplicated set counted once; a second pass
 * when the corpus has more than 2^24 distinct shingles, src/dedup/idfCount.ts), or a table a
 * previous run wrote (`--idf FILE`, idfTable.ts's format). Either way the table is registered, so that the
 * parameters recording its identity carry it to every signer (signatures/params.ts, shingleOptionsOf).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeTextFile } from '../../formats/files/textFile.js';
import type { ReadOptions } from '../../io/documents.js';
import { listInputFiles, readDocuments, readsOnce } from '../../io/readDocuments.js';
import { decodeIdfTable, encodeIdfTable, shinglingDifferences } from '../../shingles/idfTable.js';
import { registerIdfTable, type IdfShingling, type IdfTable } from '../../shingles/idfWeights.js';
import { countIdf, type IdfCountOptions } from '../../dedup/idfCount.js';

export interface IdfSource extends IdfCountOptions {
  readonly inputs: readonly string[];
  readonly read: ReadOptions;
  readonly shingling: IdfShingling;
  /** The table file: read when it exists, else counted from the inputs and written there. */
  readonly file?: string;
}

/** The run's table, loaded or counted, registered; its identity is what the signature parameters record. */
export async function prepareIdfTable(source: IdfSource): Promise<IdfTable> {
  const { file, shingling } = source;
  if (file !== undefined && existsSync(file)) {
    const table = decodeIdfTable(new Uint8Array(await readFile(file)), file);
    const differences = shinglingDifferences(table.shingling, shingling);
    if (differences.length > 0)
      throw new RangeError(`${file}: this idf table was counted with other shingles (${differences.join(', ')})`);
    registerIdfTable(table);
    source.note?.(`idf: table ${table.identity} from ${file} (${table.documents} documents)`);
    return table;
  }
  const table = await countIdfTable(source);
  if (file !== undefined) await writeTextFile(file, encodeIdfTable(table));
  registerIdfTable(table);
  source.note?.(
    `idf: counted ${table.documents} documents, ${table.entries.length / 3} shingles lighter than the rest` +
      `${file === undefined ? '' : `, written to ${file}`} (table ${table.identity})`,
  );
  return table;
}

/** Counts the inputs' document frequencies (idfCount.ts), refusing inputs that cannot be read twice. */
export async function countIdfTable(source: IdfSource): Promise<IdfTable> {
  const once = source.inputs.find(readsOnce);
  if (once !== undefined)
    throw new RangeError(
      `--weights idf counts document frequencies in a pass of its own, and ${once} can be read only once: give ` +
        'files, or a table an earlier run wrote with --idf FILE',
    );
  if (source.inputs.length === 0)
    throw new RangeError('--weights idf needs documents to count, or a table an earlier run wrote: --idf FILE');
  return countIdf(() => textsOf(source), source.shingling, source);
}

/** Every input document's text, in order. */
async function* textsOf(source: IdfSource): AsyncGenerator<string> {
  const files = await listInputFiles(source.inputs);
  for await (const document of readDocuments(files, { ...source.read, onInvalid: undefined })) yield document.text;
}
