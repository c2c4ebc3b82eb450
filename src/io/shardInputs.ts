/**
 * The input of `sign --shard I/N` as pieces (shardPlan.ts): what each file
 * allows (its first bytes, a Parquet footer: read only for files big enough
 * to be split and that a cut falls in), and a shard's pieces read as documents, every byte read from
 * disk counted, so that a run can say how much of the corpus it read.
 *
 * A JSON Lines piece [start, end) holds the lines whose first byte lies in it:
 * the reader starts at start − 1, drops bytes up to the first \n (the end of
 * the line an earlier piece owns), and reads past end only to finish its last
 * line. Lines split as the readers split them (lines.ts) and parse by their
 * rules (jsonLines.ts). A piece that starts mid-file cannot count the lines
 * before it, so its messages name the byte it starts at, and a document there
 * without an id (which would be named by its line number) is refused.
 */
import { open } from 'node:fs/promises';
import type { AsyncBuffer } from 'hyparquet';
import { idFieldRequired, InputError, type InputDocument, type ReadOptions } from './documents.js';
import { compressionOf } from './inputFormat.js';
import type { InputFile } from './inputFiles.js';
import { isJsonName, parseJsonLine, startsJsonArray } from './jsonLines.js';
import { readLines } from './shardLines.js';
import { localParquetFile } from './localParquetFile.js';
import { openParquet, readParquetRowGroup, type ParquetSource } from './parquetDocuments.js';
import { readDocuments } from './readDocuments.js';
import { mayBeSplit, type Piece, type PlannedFile } from './shardPlan.js';

import type { CountBytes } from './shardLines.js';

export type { CountBytes };

export interface DescribedInput {
  readonly planned: PlannedFile[];
  /** Parquet footers read while planning, by file index, so the pieces need not read them again. */
  readonly footers: (ParquetSource | undefined)[];
  /** Big files that go whole to one shard, and why. */
  readonly notes: string[];
}

/**
 * Footer bytes asked for at first: the length and magic, then exactly the footer (hyparquet's default 512 KiB would
 * read all of a small file).
 */
const FOOTER_FETCH = 8;
/** Enough for a first JSON line; a file whose first line is longer is read whole by one shard. */
const HEAD_LIMIT = 1 << 20;

/** What each file allows, looking into only the files big enough to split. */
export async function describeForShards(
  files: readonly InputFile[],
  read: ReadOptions,
  count: number,
  countBytes: CountBytes,
): Promise<DescribedInput> {
  const total = files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  const described: DescribedInput = { planned: [], footers: [], notes: [] };
  let at = 0;
  for (const file of files) {
    const size = file.size ?? 0;
    const candidate = mayBeSplit(at, size, total, count);
    at += size;
    let footer: ParquetSource | undefined;
    let split: PlannedFile['split'] = { kind: 'whole' };
    if (candidate && file.format === 'parquet') {
      footer = await parquetFooter(file.path, countBytes);
      const groups = footer.metadata.row_groups.map((g) => Number(g.total_compressed_size ?? g.total_byte_size));
      if (groups.length > 1) split = { kind: 'groups', sizes: groups };
      else described.notes.push(`${file.path}: one row group, so read whole by one shard`);
    } else if (candidate && file.format === 'jsonl') {
      const why = await whyWhole(file.path, read, countBytes);
      if (why === undefined) split = { kind: 'bytes' };
      else described.notes.push(`${file.path}: read whole by one shard (${why})`);
    }
    described.planned.push({ size, split });
    described.footers.push(footer);
  }
  return described;
}

/** Why a JSON Lines file cannot be cut at line ends, from its first bytes; undefined when it can. */
async function whyWhole(path: string, read: ReadOptions, countBytes: CountBytes): Promise<string | undefined> {
  const head = await readHead(path, countBytes);
  const compression = compressionOf(head);
  if (compression !== 'none')
    return `${compression}-compressed: a compressed stream cannot be entered mid-way; give several files to spread it`;
  const text = new TextDecoder().decode(head);
  const firstLine = text.split('\n').find((line) => line.replace(/^\ufeff/, '').trim() !== '');
  if (firstLine === undefined) return `no line end in its first ${HEAD_LIMIT} bytes`;
  if (isJsonName(path) && startsJsonArray(firstLine.replace(/^\ufeff/, ''))) return 'a JSON array, parsed whole';
  if (!idFieldRequired(read.idField)) {
    const parsed = parseJsonLine(firstLine.replace(/^\ufeff/, ''), path, 1, false, read);
    if (parsed instanceof InputError) return 'its first line is not a JSON Lines record';
    const id = parsed.record?.[read.idField];
    if (id === undefined || id === null)
      return (
        `no "${read.idField}" in its first record: documents are named by line number, which a shard starting ` +
        `mid-file cannot count`
      );
  }
  return undefined;
}

/**
 * Why a file's documents cannot be read again by byte range (`cluster`'s exact pass on shards without shingle lists);
 * undefined when they can: an uncompressed JSON Lines file, not a JSON array.
 */
export async function whyNoRanges(file: InputFile, countBytes: CountBytes): Promise<string | undefined> {
  if (file.format !== 'jsonl') return `${file.path} is ${file.format}, not JSON Lines`;
  const head = await readHead(file.path, countBytes);
  const compression = compressionOf(head);
  if (compression !== 'none') return `${file.path} is ${compression}-compressed`;
  const first = new TextDecoder()
    .decode(head)
    .split('\n')
    .find((line) => line.replace(/^\ufeff/, '').trim() !== '');
  if (first !== undefined && isJsonName(file.path) && startsJsonArray(first.replace(/^\ufeff/, '')))
    return `${file.path} is a JSON array`;
  return undefined;
}

/** The file's first bytes up to its first complete non-blank line (at most HEAD_LIMIT). */
async function readHead(path: string, countBytes: CountBytes): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    let head = new Uint8Array(0);
    for (let want = 1 << 12; ; want = Math.min(HEAD_LIMIT, want * 4)) {
      const more = new Uint8Array(want - head.length);
      const { bytesRead } = await handle.read(more, 0, more.length, head.length);
      countBytes(bytesRead);
      const joined = new Uint8Array(head.length + bytesRead);
      joined.set(head);
      joined.set(more.subarray(0, bytesRead), head.length);
      head = joined;
      const text = new TextDecoder().decode(head);
      const complete = text.split('\n').slice(0, -1);
      if (
        bytesRead < more.length ||
        want >= HEAD_LIMIT ||
        complete.some((l) => l.replace(/^\ufeff/, '').trim() !== '') ||
        compressionOf(head) !== 'none'
      )
        return head;
    }
  } finally {
    await handle.close();
  }
}

async function parquetFooter(path: string, countBytes: CountBytes): Promise<ParquetSource> {
  const parquet = await localParquetFile(path, () => undefined);
  try {
    return await openParquet(counted(parquet.file, countBytes), path, FOOTER_FETCH);
  } finally {
    await parquet.close();
  }
}

/** An AsyncBuffer that counts every byte sliced from it. */
function counted(file: AsyncBuffer, countBytes: CountBytes): AsyncBuffer {
  return {
    byteLength: file.byteLength,
    slice: async (start, end) => {
      const bytes = await file.slice(start, end);
      countBytes(bytes.byteLength);
      return bytes;
    },
  };
}

/** One piece's documents, in input order. */
export async function* readPiece(
  file: InputFile,
  piece: Piece,
  footer: ParquetSource | undefined,
  qualifyIds: boolean,
  read: ReadOptions,
  countBytes: CountBytes,
  byRange = false,
): AsyncGenerator<Omit<InputDocument, 'index'>> {
  if (piece.kind === 'bytes') yield* readLines(file.path, piece.start, piece.end, qualifyIds, read, countBytes);
  else if (byRange) yield* readLines(file.path, 0, file.size ?? Number.MAX_SAFE_INTEGER, qualifyIds, read, countBytes);
  else if (file.format === 'parquet') {
    const parquet = await localParquetFile(file.path, () => undefined);
    try {
      const source = counted(parquet.file, countBytes);
      const opened = footer ?? (await openParquet(source, file.path, FOOTER_FETCH));
      const [first, end] = piece.kind === 'groups' ? [piece.first, piece.end] : [0, opened.metadata.row_groups.length];
      for (let group = first; group < end; group++)
        yield* readParquetRowGroup(source, file.path, group, qualifyIds, read, opened);
    } finally {
      await parquet.close();
    }
  } else {
    let before = 0;
    const onBytes = (bytes: number): void => {
      countBytes(bytes - before);
      before = bytes;
    };
    for await (const { index: _, ...doc } of readDocuments([file], { ...read, onBytes }, qualifyIds)) yield doc;
  }
}
