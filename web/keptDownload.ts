/**
 * The tab's second pass over the corpus, the CLI's (src/pipeline/dedup/
 * writeKept.ts): a JSON Lines file is cut by the byte ranges the first pass
 * recorded (src/firstPass/recordedLines.ts), a kept line copied as it came in
 * and only the lines whose fields are needed (the inspector's texts, the
 * kept documents' Parquet) parsed again; plain-text files and Parquet rows
 * are read again whole, as they carry no line to copy. Only the documents
 * asked for are visited, and reading a file stops after its last one.
 */
import type { DocumentRecords } from '../src/firstPass/documentRecords.js';
import { fileSpans, hasRecordedLines, parseRecordedLine, recordedLines } from '../src/firstPass/recordedLines.js';
import type { FileSpan } from '../src/firstPass/recordedLines.js';
import { unitDocuments, type UnitDocument } from '../src/firstPass/unitDocuments.js';
import type { UnitReadOptions } from '../src/firstPass/protocol.js';
import { ParquetBuffer } from '../src/formats/parquet/parquetBuffer.js';
import { flatSchema, KEPT_ROW_GROUP_ROWS, KEPT_ROW_GROUP_TEXT } from '../src/formats/parquet/parquetSchema.js';
import { KeptSchemaInference } from '../src/formats/parquet/parquetSchema.js';
import { BROWSER_SOURCES, decompressedChunks, webInputUnits } from './webSources.js';

/** What the pass reads: the run's files, the first pass's records and every document's id. */
export interface CorpusSource {
  readonly files: readonly File[];
  readonly records: DocumentRecords;
  readonly ids: readonly string[];
  readonly read: Pick<UnitReadOptions, 'textField' | 'idField'>;
}

/** A visited document: its line's bytes when it has one, and its fields, parsed only when asked. */
export interface WantedDocument {
  readonly d: number;
  readonly lineBytes?: Uint8Array;
  document(): UnitDocument;
}

/**
 * The wanted documents in input order; `onBytes` gets the bytes read so far (of the files as they are, compressed or
 * not).
 */
export async function* wantedDocuments(
  source: CorpusSource,
  wanted: (d: number) => boolean,
  onBytes?: (done: number) => void,
): AsyncGenerator<WantedDocument> {
  let done = 0;
  for (const { file, span } of corpusFiles(source)) {
    const before = done;
    const counted = (n: number): void => {
      done += n;
      onBytes?.(done);
    };
    yield* (hasRecordedLines(source.records, span) ? wantedLines : wantedRecords)(source, file, span, wanted, counted);
    done = before + file.size;
    onBytes?.(done);
  }
}

/** A file's wanted documents; `onBytes` gets each count of bytes read from it. */
type Visit = (
  source: CorpusSource,
  file: File,
  span: FileSpan,
  wanted: (d: number) => boolean,
  onBytes: (n: number) => void,
) => AsyncGenerator<WantedDocument>;

const wantedLines: Visit = async function* (source, file, span, wanted, onBytes) {
  const lines = recordedLines(decompressedChunks(file, onBytes), file.name, source.records, span, wanted);
  for await (const { document: d, bytes } of lines) {
    yield {
      d,
      lineBytes: bytes,
      document: () => {
        const parsed = parseRecordedLine(bytes, file.name, d, source.read);
        return { id: source.ids[d], text: parsed.text, record: parsed.record, lineBytes: bytes };
      },
    };
  }
};

/** Plain text and Parquet: the file parsed again whole, as the first pass did. */
const wantedRecords: Visit = async function* (source, file, span, wanted, onBytes) {
  let d = span.first;
  let read = 0;
  const units = webInputUnits([file], (total) => {
    onBytes(total - read);
    read = total;
  });
  for await (const doc of unitDocuments(units, { ...source.read, skipInvalid: true, strict: false }, BROWSER_SOURCES)) {
    if (d >= span.end) throw new Error(`${file.name}: the file changed between passes (more documents than before)`);
    const id = source.ids[d];
    if (wanted(d)) yield { d, document: () => ({ ...doc, id }) };
    d++;
  }
  if (d !== span.end) throw new Error(`${file.name}: the file changed between passes (fewer documents than before)`);
};

/** The files that hold documents (records name them in input order), each with its run of documents. */
function corpusFiles({ files, records }: CorpusSource): { file: File; span: FileSpan }[] {
  let next = 0;
  return fileSpans(records).map(({ path, span }) => {
    while (next < files.length && files[next].name !== path) next++;
    if (next === files.length) throw new Error(`${path}: not among the files read`);
    return { file: files[next++], span };
  });
}

/**
 * The kept documents as Parquet (the CLI's `-o kept.parquet` from JSON Lines
 * or text): staged as JSON lines while the columns are inferred, then read
 * back into row groups once they are known.
 */
export async function keptParquet(source: CorpusSource, kept: Uint8Array): Promise<Blob> {
  const inference = new KeptSchemaInference();
  const staged: string[] = [];
  const parts: Blob[] = [];
  let stagedLength = 0;
  const flush = () => {
    parts.push(new Blob(staged));
    staged.length = 0;
    stagedLength = 0;
  };
  for await (const doc of wantedDocuments(source, (d) => kept[d] === 1)) {
    const line = `${inference.stage(doc.document())}\n`;
    staged.push(line);
    stagedLength += line.length;
    if (stagedLength >= 4 << 20) flush();
  }
  flush();
  const columns = inference.columns();
  const file = new ParquetBuffer(flatSchema(columns), KEPT_ROW_GROUP_ROWS, KEPT_ROW_GROUP_TEXT);
  for await (const line of blobLines(new Blob(parts))) {
    const { values, textLength } = KeptSchemaInference.values(line, columns);
    file.add(values, textLength);
  }
  return new Blob(file.finish() as BlobPart[], { type: 'application/vnd.apache.parquet' });
}

/** A Blob's lines (the staged lines are JSON: no newline inside one). */
async function* blobLines(blob: Blob): AsyncGenerator<string> {
  const reader = blob.stream().pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (rest + value).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  if (rest !== '') yield rest;
}
