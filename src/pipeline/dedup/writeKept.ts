/**
 * The kept documents from what the first pass recorded: a kept JSON line is
 * copied from its byte range, exactly as it came in (invalid UTF-8 and CRLF
 * included), without parsing it again — unless the output is Parquet, which
 * needs its fields. Plain-text files and Parquet rows are read again whole,
 * as they carry no line to copy. The corpus must be as the first pass read it.
 */
import type { DocumentRecords } from '../../firstPass/documentRecords.js';
import { fileSpans, parseRecordedLine, recordedLines, type FileSpan } from '../../firstPass/recordedLines.js';
import type { ReadOptions } from '../../io/documents.js';
import { openDecompressed, readDocuments, type InputFile } from '../../io/readDocuments.js';
import type { KeptDocuments } from '../../formats/keptDocuments.js';
import type { StageProgress } from '../shared/config.js';
import type { DedupOutcome } from './dedup.js';
import { copyKeptOnWorkers } from './copyKept.js';
import type { RangeCopyPool } from '../../dedup/node/stageWorkers.js';

export async function writeKept(
  outcome: DedupOutcome,
  records: DocumentRecords,
  out: KeptDocuments,
  read: ReadOptions,
  progress: StageProgress,
  workers?: RangeCopyPool,
): Promise<void> {
  // Plain JSON Lines in and out: the workers copy the lines' byte ranges to their places in the file.
  const target = workers === undefined ? undefined : out.positionalPath?.();
  const { kept } = outcome.assignment;
  if (target !== undefined && (await copyKeptOnWorkers(outcome.files, records, kept, target, workers!, progress)))
    return;
  const spans = new Map(fileSpans(records).map(({ path, span }) => [path, span]));
  let bytes = 0;
  for (const file of outcome.files) {
    const span = spans.get(file.path);
    if (span === undefined) continue; // no documents (a binary file, or only blank lines)
    const kept = (d: number): boolean => outcome.assignment.kept[d] === 1;
    if (file.format !== 'jsonl') await rewriteKept(file, span, kept, out, read);
    else {
      const onBytes = (n: number): void => progress.update(span.first, (bytes += n));
      const chunks = (await openDecompressed(file.path, onBytes)) as AsyncIterable<Uint8Array>;
      // Copied lines go in runs (one write for the kept lines that follow each other); Parquet's are parsed one by one.
      const runs = out.writeLine !== undefined;
      for await (const line of recordedLines(chunks, file.path, records, span, kept, runs)) {
        const waiting = writeLine(line.bytes, file, line.document, records, out, read);
        if (waiting !== undefined) await waiting;
      }
    }
  }
}

/**
 * A kept line's bytes as they came in, or, for Parquet, its fields under the id the first pass gave it (a line
 * without an id is named by its line number, which the line alone does not tell).
 */
function writeLine(
  bytes: Uint8Array,
  file: InputFile,
  index: number,
  records: DocumentRecords,
  out: KeptDocuments,
  read: ReadOptions,
): Promise<void> | undefined {
  if (out.writeLine !== undefined) return out.writeLine(bytes);
  return out.write({ ...parseRecordedLine(bytes, file.path, index, read), index, id: records.id(index) });
}

/** Plain text and Parquet: the file read again, its kept documents written from their text and fields. */
async function rewriteKept(
  file: InputFile,
  span: FileSpan,
  kept: (d: number) => boolean,
  out: KeptDocuments,
  read: ReadOptions,
): Promise<void> {
  let d = span.first;
  for await (const doc of readDocuments([file], { ...read, onInvalid: undefined, onBinary: undefined })) {
    if (d >= span.end) throw new Error(`${file.path}: the file changed between passes (more documents than before)`);
    if (kept(d)) await out.write({ ...doc, index: d });
    d++;
  }
  if (d !== span.end) throw new Error(`${file.path}: the file changed between passes (fewer documents than before)`);
}
