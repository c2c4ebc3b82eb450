/**
 * The kept documents from what the first pass recorded: a kept JSON line is
 * copied from its byte range, exactly as it came in (invalid UTF-8 and CRLF
 * included), without parsing it again — unless the output is Parquet, which
 * needs its fields. Plain-text files and Parquet rows are read again whole,
 * as they carry no line to copy. The corpus must be as the first pass read it.
 */
import type { DocumentRecords } from '../../firstPass/documentRecords.js';
import { InputError, type ReadOptions } from '../../io/documents.js';
import { parseJsonLine } from '../../io/jsonLines.js';
import { openDecompressed, readDocuments, type InputFile } from '../../io/readDocuments.js';
import type { KeptDocuments } from '../../formats/keptDocuments.js';
import type { StageProgress } from '../shared/config.js';
import type { DedupOutcome } from './dedup.js';

export async function writeKept(outcome: DedupOutcome, records: DocumentRecords, out: KeptDocuments, read: ReadOptions, progress: StageProgress): Promise<void> {
  const firsts = new Map(records.files.map((f, i) => [f.path, { first: f.firstDocument, end: records.files[i + 1]?.firstDocument ?? records.documents }]));
  let bytes = 0;
  for (const file of outcome.files) {
    const span = firsts.get(file.path);
    if (span === undefined) continue; // no documents (a binary file, or only blank lines)
    const kept = (d: number): boolean => outcome.assignment.kept[d] === 1;
    if (file.format === 'jsonl') await copyKeptLines(file, span, records, kept, out, read, (n) => progress.update(span.first, (bytes += n)));
    else await rewriteKept(file, span, kept, out, read);
  }
}

/** Streams the file again, copying the ranges of its kept lines. */
async function copyKeptLines(
  file: InputFile,
  span: { first: number; end: number },
  records: DocumentRecords,
  kept: (d: number) => boolean,
  out: KeptDocuments,
  read: ReadOptions,
  onBytes: (n: number) => void,
): Promise<void> {
  let d = nextKept(span.first, span.end, kept);
  if (d >= span.end) return;
  let offset = 0; // of `held` in the decompressed file
  let held: Uint8Array = new Uint8Array(0);
  for await (const chunk of (await openDecompressed(file.path, onBytes)) as AsyncIterable<Uint8Array>) {
    held = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
    while (d < span.end) {
      const [start, end] = records.byteRange(d)!;
      if (end > offset + held.length) break;
      await writeLine(held.subarray(start - offset, end - offset), file, d, out, read);
      d = nextKept(d + 1, span.end, kept);
    }
    if (d >= span.end) return;
    const [start] = records.byteRange(d)!;
    if (start > offset) {
      const drop = Math.min(held.length, start - offset);
      held = held.subarray(drop);
      offset += drop;
    }
  }
  throw new Error(`${file.path}: the file changed between passes (it ends before the kept line of document ${d + 1})`);
}

async function writeLine(bytes: Uint8Array, file: InputFile, d: number, out: KeptDocuments, read: ReadOptions): Promise<void> {
  if (out.writeLine !== undefined) return out.writeLine(bytes);
  const line = new TextDecoder().decode(bytes).replace(/\r?\n$/, '');
  const parsed = parseJsonLine(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line, file.path, 0, false, read);
  if (parsed instanceof InputError) throw new Error(`${file.path}: the file changed between passes (document ${d + 1} no longer parses)`);
  await out.write({ ...parsed, index: d });
}

/** Plain text and Parquet: the file read again, its kept documents written from their text and fields. */
async function rewriteKept(file: InputFile, span: { first: number; end: number }, kept: (d: number) => boolean, out: KeptDocuments, read: ReadOptions): Promise<void> {
  let d = span.first;
  for await (const doc of readDocuments([file], { ...read, onInvalid: undefined, onBinary: undefined })) {
    if (d >= span.end) throw new Error(`${file.path}: the file changed between passes (more documents than before)`);
    if (kept(d)) await out.write({ ...doc, index: d });
    d++;
  }
  if (d !== span.end) throw new Error(`${file.path}: the file changed between passes (fewer documents than before)`);
}

function nextKept(from: number, end: number, kept: (d: number) => boolean): number {
  let d = from;
  while (d < end && !kept(d)) d++;
  return d;
}
